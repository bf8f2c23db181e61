/// Applies ``Migration``s in order, each in its own transaction, and records them with their
/// checksums in a table.
///
/// It is strict, to protect data:
/// - a database that has applied a migration this build does not know (made by a newer
///   version) is refused, and nothing is written to it;
/// - a migration that was edited after it was applied is refused;
/// - a database already up to date is not written to at all.
///
/// ```swift
/// let migrator = try Migrator(migrations: [
///     Migration(identifier: "0001_initial", sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT);"),
/// ])
/// let applied = try migrator.migrate(db)  // ["0001_initial"] the first time, [] afterwards
/// ```
public struct Migrator: Sendable {
    /// The table that records applied migrations.
    public let tableName: String

    /// Throws ``MigrationError/duplicateMigration(_:)`` when two migrations share a number.
    public init(migrations: [Migration], tableName: String = "schema_migrations") throws {
        self.plan = try MigrationPlan(migrations: migrations)
        self.tableName = tableName
    }

    /// The ordering and refusal rules.
    private let plan: MigrationPlan

    /// The migrations, sorted by identifier.
    public var migrations: [Migration] {
        plan.migrations
    }

    /// The migrations `db` has not applied yet, after checking the ones it has.
    ///
    /// Reads only; throws a ``MigrationError`` when the database is refused.
    public func pendingMigrations(_ db: Connection) throws -> [Migration] {
        try plan.pending(applied: try appliedMigrations(db), database: db.path)
    }

    /// Applies the pending migrations, each in its own immediate transaction, and returns the
    /// identifiers applied. Safe when several processes migrate the same file at once: each
    /// migration is checked again inside its transaction.
    @discardableResult
    public func migrate(_ db: Connection) throws -> [String] {
        var applied: [String] = []
        guard try !pendingMigrations(db).isEmpty else { return applied }
        while true {
            let done = try db.transaction(.immediate) { () -> Bool in
                try createTable(db)
                guard let next = try pendingMigrations(db).first else { return true }
                try db.execute(next.sql)
                try db.execute(
                    "INSERT INTO \(tableName) (identifier, checksum, applied_at) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                    [next.identifier, next.checksum])
                applied.append(next.identifier)
                return false
            }
            if done { return applied }
        }
    }

    private func appliedMigrations(_ db: Connection) throws -> [String: String] {
        let exists: Int? = try db.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [tableName])
        guard exists == 1 else { return [:] }
        var applied: [String: String] = [:]
        try db.forEachRow("SELECT identifier, checksum FROM \(tableName)") { row in
            applied[try row.decode(String.self, at: 0)] = try row.decode(String.self, at: 1)
        }
        return applied
    }

    private func createTable(_ db: Connection) throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(tableName) (
                identifier TEXT PRIMARY KEY NOT NULL,
                checksum TEXT NOT NULL,
                applied_at TEXT NOT NULL
            ) WITHOUT ROWID
            """)
    }
}
