#if PostgreSQL
import CatalogueCore

/// Brings a PostgreSQL database to the catalogue's schema and seeds it on first use, under an
/// advisory lock, in one transaction: concurrent first uses (several app servers starting at
/// once) wait for each other and agree; a failure leaves the database as it was.
///
/// The rules are SQLite's (DatabaseCore's ``MigrationPlan``): migrations apply in number order,
/// each recorded with its checksum in `catalogue_migrations`; a database that has a migration
/// this build does not know (made by a newer version), or whose applied migration was edited,
/// is refused untouched (but for ``equivalentChecksums``, earlier texts of a migration that made
/// the same schema). A database that has tables but no `catalogue_migrations` is not a
/// catalogue and is refused untouched too.
struct PostgresMigrator {
    /// The advisory lock key (any constant; "catalogue" in ASCII).
    static let lockKey: Int64 = 0x0063_6174_616C_6F67
    static let tableName = "catalogue_migrations"

    let migrations: [Migration]
    let appMigrations: [Migration]

    /// Checksums of catalogue migrations as development builds before the first release applied
    /// them, accepted as the current ones because the schema they made is the same.
    static let equivalentChecksums: [String: Set<String>] = [
        // 0001_initial with `CREATE EXTENSION pg_trgm` and the trigram indexes, before they moved
        // to 0003 (which finds them there: IF NOT EXISTS) and the B-tree keys were spelled ASC
        // (PostgreSQL's default: the same indexes).
        "0001_initial": ["7d44ef6fc58c29c0df5cdefba2215b3262ab56dae31703a51e281f456ccfccc4"],
    ]

    /// Migrates and, when `seed` and not done before, seeds, on `runner` (one connection); makes
    /// the trigram indexes where `trigramIndexes` and the server allow. Returns whether the
    /// database has them (see ``PostgresTrigramIndexes``).
    func prepare(_ runner: PostgresStatementRunner, target: String, seed: Bool, trigramIndexes: Bool) throws -> Bool {
        try runner.execute("BEGIN")
        do {
            try runner.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
            try PostgresTrigramIndexes.prepare(runner, wanted: trigramIndexes)
            try migrate(runner, table: Self.tableName, migrations: migrations, target: target, isCatalogue: true)
            let hasTrigramIndexes = try PostgresTrigramIndexes.ensure(runner, wanted: trigramIndexes, migrations: migrations)
            try migrate(runner, table: "app_migrations", migrations: appMigrations, target: target, isCatalogue: false)
            if seed {
                try PostgresSeeding.seedIfNeeded(PostgresSession(runner: runner))
            }
            try runner.execute("COMMIT")
            return hasTrigramIndexes
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
        if isCatalogue {
            for migration in plan.migrations {
                if let checksum = applied[migration.identifier],
                   Self.equivalentChecksums[migration.identifier]?.contains(checksum) == true {
                    applied[migration.identifier] = migration.checksum
                }
            }
        }
        for migration in try plan.pending(applied: applied, database: target) {
            if isCatalogue, migration.identifier == PostgresQuoteFolding.migrationIdentifier {
                // The app's tables' keys, which the migration cannot name (in its transaction).
                try PostgresQuoteFolding.refoldAppKeys(runner)
            }
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
