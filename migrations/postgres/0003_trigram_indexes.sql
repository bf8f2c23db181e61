-- catalogue schema, version 3, for PostgreSQL: the trigram indexes that serve CONTAINS, ENDSWITH
-- and LIKE on the folded keys (`key LIKE $1 ESCAPE '\'`), made only where this database has the
-- pg_trgm extension. They speed those searches up and change no answer: without them the same
-- LIKE reads every row (a sequential scan) and returns the same rows in the same order. So a
-- server without pg_trgm (no postgresql-contrib, a role that may not install it, an engine that
-- lacks the extension) still holds a working catalogue.
--
-- (Before the first release these indexes and `CREATE EXTENSION pg_trgm` were part of 0001, which
-- then needed pg_trgm; the engine accepts a database migrated by that earlier 0001, which holds
-- the same indexes.)
--
-- The engine (PostgresTrigramIndexes), in the migrating transaction: installs pg_trgm first where
-- the server offers it and the role may (a trusted extension: CREATE on the database suffices);
-- sets catalogue.trigram_indexes to 'off' for the transaction when the app switched them off
-- (PostgresEngine.Options.usesTrigramIndexes = false); and runs this script again on a later
-- connection that finds pg_trgm installed but the indexes missing (every CREATE is IF NOT EXISTS).
-- Applied by hand (psql -f) with the setting unset, it makes them wherever pg_trgm is installed.
--
-- A DO block: PL/pgSQL plans each statement when it first runs it, so a server without pg_trgm
-- never looks `gin_trgm_ops` up.
DO $$
BEGIN
    IF current_setting('catalogue.trigram_indexes', true) IS DISTINCT FROM 'off'
       AND EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname = 'pg_trgm') THEN
        CREATE INDEX IF NOT EXISTS country_name_key_trigrams ON country USING gin (name_key gin_trgm_ops);
        CREATE INDEX IF NOT EXISTS country_capital_key_trigrams ON country USING gin (capital_key gin_trgm_ops);
        CREATE INDEX IF NOT EXISTS country_alias_key_trigrams ON country_alias USING gin (alias_key gin_trgm_ops);
        CREATE INDEX IF NOT EXISTS product_name_key_trigrams ON product USING gin (name_key gin_trgm_ops);
    END IF;
END
$$;
