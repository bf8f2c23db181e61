import Foundation
import PostgresTestSupport

/// A new database of the shared test server with `migrations/postgres/0001_initial.sql` applied
/// in one transaction, as the engine's migrator will apply it.
enum MigratedDatabase {
    static let migrationURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("migrations/postgres/0001_initial.sql")

    static func make(prefix: String) throws -> PostgresTestDatabase {
        let database = try PostgresTestServer.shared().createDatabase(prefix: prefix)
        let sql = try String(contentsOf: migrationURL, encoding: .utf8)
        try database.psql("BEGIN;\n" + sql + "\nCOMMIT;\n")
        return database
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
