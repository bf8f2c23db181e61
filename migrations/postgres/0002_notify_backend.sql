-- catalogue schema, version 2, for PostgreSQL: change notifications carry the process id of the
-- server process (backend) that wrote, in the payload, so a listener that reads notifications as
-- a stream of payloads (postgres-nio's listen(on:), which does not pass the protocol's sender
-- pid on) can tell this catalogue's own commits (already reported when they committed) from
-- other writers'. Payloads:
--   {"table":"product","op":"insert","ids":[1,2,3],"pid":4242}
--   {"table":"product","op":"insert","reload":true,"pid":4242}
-- Otherwise the same function as in 0001 (the triggers call it by name and need no change).

CREATE OR REPLACE FUNCTION catalogue_record_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    op text := lower(TG_OP);
    changed bigint;
    ids bigint[];
    payload text;
BEGIN
    IF TG_OP <> 'TRUNCATE' THEN
        SELECT count(*) INTO changed FROM changed_rows;
        IF changed = 0 THEN
            RETURN NULL;
        END IF;
        IF changed <= 500 THEN
            IF TG_OP = 'UPDATE' THEN
                EXECUTE format('SELECT array_agg(i ORDER BY i) FROM '
                               '(SELECT %1$I FROM changed_rows UNION SELECT %1$I FROM previous_rows) r(i)',
                               TG_ARGV[0]) INTO ids;
            ELSE
                EXECUTE format('SELECT array_agg(DISTINCT %1$I ORDER BY %1$I) FROM changed_rows', TG_ARGV[0]) INTO ids;
            END IF;
            payload := json_build_object('table', TG_TABLE_NAME, 'op', op, 'ids', ids, 'pid', pg_backend_pid())::text;
            IF octet_length(payload) >= 8000 THEN
                ids := NULL;
            END IF;
        END IF;
    END IF;
    IF ids IS NULL THEN
        payload := json_build_object('table', TG_TABLE_NAME, 'op', op, 'reload', true, 'pid', pg_backend_pid())::text;
        INSERT INTO catalogue_change (table_name, op, row_id) VALUES (TG_TABLE_NAME, op, NULL);
    ELSE
        INSERT INTO catalogue_change (table_name, op, row_id) SELECT TG_TABLE_NAME, op, unnest(ids);
    END IF;
    PERFORM pg_notify('catalogue_changes', payload);
    RETURN NULL;
END
$$;
