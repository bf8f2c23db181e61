#if PostgreSQL
import CatalogueCore

/// Brings a PostgreSQL database to the catalogue's schema and seeds it on first use, under an
/// advisory lock, in one transaction: concurrent first uses (several app servers starting at
/// once) wait for each other and agree; a failure leaves the database as it was.
///
/// The rules are SQLite's (DatabaseCore's ``MigrationPlan``): migrations apply in number order,
/// each recorded with its checksum in `catalogue_migrations`; a database that has a migration
/// this build does not know (made by a newer version), or whose applied migration was edited,
/// is refused untouched. A database that has tables but no `catalogue_migrations` is not a
/// catalogue and is refused untouched too.
struct PostgresMigrator {
    /// The advisory lock key (any constant; "catalogue" in ASCII).
    static let lockKey: Int64 = 0x0063_6174_616C_6F67
    static let tableName = "catalogue_migrations"

    let migrations: [Migration]
    let appMigrations: [Migration]

    /// Migrates and, when `seed` and not done before, seeds, on `runner` (one connection).
    func prepare(_ runner: PostgresStatementRunner, target: String, seed: Bool) throws {
        try runner.execute("BEGIN")
        do {
            try runner.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
            try migrate(runner, table: Self.tableName, migrations: migrations, target: target, isCatalogue: true)
            try migrate(runner, table: "app_migrations", migrations: appMigrations, target: target, isCatalogue: false)
            if seed {
                try PostgresSeeding.seedIfNeeded(PostgresSession(runner: runner))
            }
            try runner.execute("COMMIT")
        } catch {
            try? runner.execute("ROLLBACK")
            throw error
        }
    }

    private func migrate(
        _ runner: PostgresStatementRunner, table: String, migrations: [Migration], target: String, isCatalogue: Bool
    ) throws {
        let exists = try runner.integer(
            "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = $1", [.text(table)]) > 0
        if !exists {
            guard !migrations.isEmpty else { return }
            if isCatalogue {
                let tables = try runner.integer(
                    "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()")
                guard tables == 0 else {
                    throw PostgresEngineError.unusable(
                        target: target,
                        reason: "the database has \(tables) table\(tables == 1 ? "" : "s") but is not a catalogue (no \(table)); use an empty database")
                }
            }
            try runner.execute("""
                CREATE TABLE \(table) (
                    identifier text COLLATE "C" PRIMARY KEY,
                    checksum text COLLATE "C" NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
        }
        var applied: [String: String] = [:]
        let sql = "SELECT identifier, checksum FROM \(table)"
        for row in try runner.rows(SQLFragment(sql)) {
            let cells = PostgresRecordRow(row, sql: sql)
            applied[try cells.decodeText(at: 0)] = try cells.decodeText(at: 1)
        }
        let plan = try MigrationPlan(migrations: migrations)
        for migration in try plan.pending(applied: applied, database: target) {
            try runner.executeScript(migration.sql)
            try runner.execute(
                "INSERT INTO \(table) (identifier, checksum) VALUES ($1, $2)",
                [.text(migration.identifier), .text(migration.checksum)])
        }
    }
}

/// Loads the built-in seed (``SeedData``) into a new PostgreSQL catalogue, as SQLite's engine
/// does: once (recorded in `catalogue_info`), so deleted seed rows do not come back.
enum PostgresSeeding {
    static func seedIfNeeded(_ session: PostgresSession) throws {
        let key = "seeded_at"
        let seeded = try session.runner.integer("SELECT count(*) FROM catalogue_info WHERE key = $1", [.text(key)])
        guard seeded == 0 else { return }
        try session.upsert(contentsOf: try SeedData.countries())
        try session.upsert(contentsOf: try SeedData.products())
        try session.runner.execute(
            "INSERT INTO catalogue_info (key, value) VALUES ($1, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))",
            [.text(key)])
    }
}
#endif
