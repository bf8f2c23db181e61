import Foundation
import PostgresTestSupport

/// A new database of the shared test server with `migrations/postgres/0001_initial.sql` (and
/// any `more` migrations of that folder after it) applied in one transaction, as the engine's
/// migrator applies them.
enum MigratedDatabase {
    static let migrationsURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("migrations/postgres")

    static func make(prefix: String, more: [String] = []) throws -> PostgresTestDatabase {
        let database = try PostgresTestServer.shared().createDatabase(prefix: prefix)
        let sql = try (["0001_initial.sql"] + more).map { name in
            try String(contentsOf: migrationsURL.appendingPathComponent(name), encoding: .utf8)
        }
        try database.psql("BEGIN;\n" + sql.joined(separator: "\n") + "\nCOMMIT;\n")
        return database
    }

    /// Applies one more migration of the folder to `database`, in a transaction of its own.
    static func apply(_ name: String, to database: PostgresTestDatabase) throws {
        let sql = try String(contentsOf: migrationsURL.appendingPathComponent(name), encoding: .utf8)
        try database.psql("BEGIN;\n" + sql + "\nCOMMIT;\n")
    }
}

/// A notification psql printed: `Asynchronous notification "CHANNEL" with payload "…" received…`.
struct ChangeNotification: Decodable, Equatable {
    let table: String
    let op: String
    let ids: [Int64]?
    let reload: Bool?

    /// The `catalogue_changes` notifications in psql's output, in order.
    static func all(in output: String) throws -> [ChangeNotification] {
        let prefix = "Asynchronous notification \"catalogue_changes\" with payload \""
        let suffix = "\" received from server process"
        return try output.split(separator: "\n").compactMap { line -> ChangeNotification? in
            guard let start = line.range(of: prefix), let end = line.range(of: suffix, options: .backwards) else { return nil }
            let payload = line[start.upperBound..<end.lowerBound]
            return try JSONDecoder().decode(ChangeNotification.self, from: Data(payload.utf8))
        }
    }
}
