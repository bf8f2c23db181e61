/// The rules every engine's migrator follows, apart from how it reads and writes its table of
/// applied migrations: migrations sort by number, numbers are unique, and a database is refused
/// when it knows a migration this build does not, when an applied migration was edited, or when
/// one is missing below the last applied.
///
/// ```swift
/// let plan = try MigrationPlan(migrations: [
///     Migration(identifier: "0001_initial", sql: "CREATE TABLE note (id INTEGER PRIMARY KEY);"),
/// ])
/// let pending = try plan.pending(applied: [:], database: "notes.sqlite")  // [0001_initial]
/// ```
public struct MigrationPlan: Sendable {
    /// The migrations, sorted by number.
    public let migrations: [Migration]

    /// Throws ``MigrationError/duplicateMigration(_:)`` when two migrations share a number.
    public init(migrations: [Migration]) throws {
        // Numbers compare as numbers: 10000_x comes after 9999_y.
        let sorted = migrations.sorted { Self.order($0.identifier) < Self.order($1.identifier) }
        // An array, not a `Set<Substring>`: a few dozen numbers at most, and a set's first use
        // has the Swift runtime scan every protocol conformance record of the binary.
        var numbers: [Substring] = []
        for migration in sorted {
            let number = migration.identifier.prefix { $0 != "_" }
            guard !numbers.contains(number) else {
                throw MigrationError.duplicateMigration(migration.identifier)
            }
            numbers.append(number)
        }
        self.migrations = sorted
    }

    /// Sort key of a migration identifier: its number, then the whole identifier.
    public static func order(_ identifier: String) -> (Int, String) {
        (Int(identifier.prefix { $0 != "_" }) ?? Int.max, identifier)
    }

    /// The migrations not applied yet, given the applied ones (identifier → checksum) of the
    /// database named `database` (for error messages). Throws a ``MigrationError`` when the
    /// database must be refused.
    public func pending(applied: [String: String], database: String) throws -> [Migration] {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.identifier, $0) })
        for (identifier, checksum) in applied.sorted(by: { Self.order($0.key) < Self.order($1.key) }) {
            guard let migration = known[identifier] else {
                throw MigrationError.unknownMigration(identifier: identifier, path: database)
            }
            guard migration.checksum == checksum else {
                throw MigrationError.modifiedMigration(identifier: identifier, path: database)
            }
        }
        let pending = migrations.filter { applied[$0.identifier] == nil }
        if let lastApplied = applied.keys.max(by: { Self.order($0) < Self.order($1) }),
           let gap = pending.first(where: { Self.order($0.identifier) < Self.order(lastApplied) }) {
            throw MigrationError.missingMigration(identifier: gap.identifier, path: database)
        }
        return pending
    }
}
