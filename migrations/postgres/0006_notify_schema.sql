-- catalogue schema, version 6, for PostgreSQL: change notifications name the schema of the
-- catalogue that changed, and the catalogue's trigger functions work in their own schema
-- whatever the writer's search_path.
--
-- One database can hold several catalogues, each in a schema of its own (the session's
-- search_path: options=-c search_path=NAME in the URL, or the role's or database's setting).
-- NOTIFY channels belong to the database, so every catalogue's listeners hear
-- `catalogue_changes` from all of them; a listener leaves out payloads whose schema is not its
-- catalogue's (PostgresEngine.change(fromPayload:)). Payloads:
--   {"table":"product","op":"insert","ids":[1,2,3],"pid":4242,"schema":"shop"}
--   {"table":"product","op":"insert","reload":true,"pid":4242,"schema":"shop"}
-- Otherwise the same function as in 0002 (the triggers call it by name and need no change).
--
-- The trigger functions name the catalogue's tables (catalogue_change, catalogue_word) without a
-- schema, so a writer whose search_path did not lead to the catalogue's schema (psql with the
-- default path writing `shop.product`) failed, or logged into another catalogue's table. Each
-- now runs with the search_path set to the schema it was made in (and pg_temp last), as
-- PostgreSQL advises for functions that must not depend on their caller's path; renaming that
-- schema needs the setting renamed too.

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
            payload := json_build_object('table', TG_TABLE_NAME, 'op', op, 'ids', ids, 'pid', pg_backend_pid(),
                                         'schema', TG_TABLE_SCHEMA)::text;
            IF octet_length(payload) >= 8000 THEN
                ids := NULL;
            END IF;
        END IF;
    END IF;
    IF ids IS NULL THEN
        payload := json_build_object('table', TG_TABLE_NAME, 'op', op, 'reload', true, 'pid', pg_backend_pid(),
                                     'schema', TG_TABLE_SCHEMA)::text;
        INSERT INTO catalogue_change (table_name, op, row_id) VALUES (TG_TABLE_NAME, op, NULL);
    ELSE
        INSERT INTO catalogue_change (table_name, op, row_id) SELECT TG_TABLE_NAME, op, unnest(ids);
    END IF;
    PERFORM pg_notify('catalogue_changes', payload);
    RETURN NULL;
END
$$;

DO $$
BEGIN
    EXECUTE format('ALTER FUNCTION %I.catalogue_record_changes() SET search_path = %I, pg_temp', current_schema(), current_schema());
    EXECUTE format('ALTER FUNCTION %I.catalogue_remember_product_words() SET search_path = %I, pg_temp', current_schema(), current_schema());
    EXECUTE format('ALTER FUNCTION %I.catalogue_remember_country_words() SET search_path = %I, pg_temp', current_schema(), current_schema());
END
$$;
