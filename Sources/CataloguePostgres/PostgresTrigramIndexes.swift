#if PostgreSQL
import CatalogueCore

/// The optional trigram indexes (`migrations/postgres/0003_trigram_indexes.sql`): GIN indexes
/// with pg_trgm's `gin_trgm_ops` on the folded keys, which serve CONTAINS, ENDSWITH and LIKE.
///
/// They speed those searches up and change no answer (the SQL is the same `LIKE … ESCAPE`
/// either way; without them PostgreSQL reads every row), so the catalogue makes them where it
/// can and works where it cannot. Run by ``PostgresMigrator`` in its transaction, under its
/// advisory lock:
///
/// ```swift
/// try PostgresTrigramIndexes.prepare(runner, wanted: options.usesTrigramIndexes)   // before the migrations
/// // … migrations, including 0003, which makes the indexes where pg_trgm is installed …
/// let present = try PostgresTrigramIndexes.ensure(runner, wanted: options.usesTrigramIndexes, migrations: migrations)
/// ```
enum PostgresTrigramIndexes {
    /// The indexes 0003 makes.
    static let names = [
        "country_alias_key_trigrams", "country_capital_key_trigrams", "country_name_key_trigrams", "product_name_key_trigrams",
    ]
    /// The migration that makes them (and is run again when they are missing but wanted).
    static let migrationIdentifier = "0003_trigram_indexes"
    /// The transaction-local setting 0003 reads: `off` makes it create nothing.
    static let setting = "catalogue.trigram_indexes"

    /// Before migrating: sets ``setting`` for this transaction and, when the indexes are wanted
    /// and the server offers pg_trgm but this database lacks it, installs it (in the catalogue's
    /// schema, as `CREATE EXTENSION` does). A role that may not (no CREATE on the database) is not
    /// an error: the savepoint undoes the attempt and the catalogue does without.
    ///
    /// pg_trgm is installed once per database, in one schema: where it is not on the session's
    /// `search_path` (a catalogue in another schema installed it, or an administrator put
    /// extensions in a schema of their own), its schema is put after the path for this
    /// transaction, so that 0003 finds `gin_trgm_ops`. The indexes then work on any path: a
    /// search's `LIKE` is PostgreSQL's own operator. Where the role may not use that schema, the
    /// catalogue does without, as where pg_trgm is missing.
    static func prepare(_ runner: PostgresStatementRunner, wanted: Bool) throws {
        try runner.execute("SELECT set_config($1, $2, true)", [.text(setting), .text(wanted ? "on" : "off")])
        guard wanted else { return }
        let available = try runner.integer("SELECT count(*) FROM pg_catalog.pg_available_extensions WHERE name = 'pg_trgm'") > 0
        if available, try !isInstalled(runner) {
            try runner.execute("SAVEPOINT catalogue_pg_trgm")
            do {
                try runner.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
                try runner.execute("RELEASE SAVEPOINT catalogue_pg_trgm")
            } catch {
                try runner.execute("ROLLBACK TO SAVEPOINT catalogue_pg_trgm")
            }
        }
        guard try isUsable(runner) else {
            try runner.execute("SELECT set_config($1, 'off', true)", [.text(setting)])
            return
        }
        try runner.execute("""
            SELECT pg_catalog.set_config('search_path',
                CASE pg_catalog.current_setting('search_path') WHEN '' THEN pg_catalog.quote_ident(n.nspname)
                ELSE pg_catalog.current_setting('search_path') || ', ' || pg_catalog.quote_ident(n.nspname) END, true)
            FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
            WHERE e.extname = 'pg_trgm' AND n.nspname <> ALL (pg_catalog.current_schemas(false))
            """)
    }

    /// After migrating: when the indexes are wanted, pg_trgm is installed (where this role may
    /// use it) and some are missing (the database was made without pg_trgm, or with them
    /// switched off), runs 0003 again. Returns whether all of them exist in the end.
    static func ensure(_ runner: PostgresStatementRunner, wanted: Bool, migrations: [Migration]) throws -> Bool {
        let present = try existing(runner)
        guard present < names.count, wanted else { return present == names.count }
        guard try isUsable(runner), let migration = migrations.first(where: { $0.identifier == migrationIdentifier }) else { return false }
        try runner.executeScript(migration.sql)
        return try existing(runner) == names.count
    }

    /// Whether this database has pg_trgm.
    private static func isInstalled(_ runner: PostgresStatementRunner) throws -> Bool {
        try runner.integer("SELECT count(*) FROM pg_catalog.pg_extension WHERE extname = 'pg_trgm'") > 0
    }

    /// Whether this database has pg_trgm in a schema this role may use (`USAGE`), where its
    /// operator classes can be named.
    private static func isUsable(_ runner: PostgresStatementRunner) throws -> Bool {
        try runner.integer("""
            SELECT count(*) FROM pg_catalog.pg_extension
            WHERE extname = 'pg_trgm' AND pg_catalog.has_schema_privilege(extnamespace, 'USAGE')
            """) > 0
    }

    /// How many of the indexes exist in the catalogue's schema.
    private static func existing(_ runner: PostgresStatementRunner) throws -> Int {
        Int(try runner.integer(
            "SELECT count(*) FROM pg_catalog.pg_indexes WHERE schemaname = current_schema() AND indexname = ANY($1::text[])",
            [.text("{" + names.joined(separator: ",") + "}")]))
    }
}
#endif
