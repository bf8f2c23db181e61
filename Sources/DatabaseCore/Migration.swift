/// One schema change: an identifier such as `0001_initial` and the SQL script that applies it.
///
/// ```swift
/// let migration = try Migration(fileName: "0002_product_barcode.sql",
///                               sql: "ALTER TABLE product ADD COLUMN barcode TEXT;")
/// migration.identifier  // "0002_product_barcode"
/// ```
public struct Migration: Sendable, Hashable {
    /// `NNNN_name`: the file name without `.sql`. Migrations apply in identifier order.
    public let identifier: String
    /// The SQL script.
    public let sql: String
    /// SHA-256 of the script's UTF-8 bytes, recorded when applied and checked on every open.
    public let checksum: String

    /// A migration with an explicit identifier.
    public init(identifier: String, sql: String) {
        self.init(identifier: identifier, sql: sql, checksum: SHA256.hexDigest(of: Array(sql.utf8)))
    }

    /// A migration from a file named `NNNN_name.sql` (four or more digits, an underscore, a name
    /// of letters, digits and underscores).
    public init(fileName: String, sql: String) throws {
        self.init(identifier: try Self.identifier(fileName: fileName), sql: sql)
    }

    /// A migration from a file named `NNNN_name.sql` whose checksum, the SHA-256 of `sql` as 64
    /// lowercase hexadecimal digits, was computed beforehand: at build time, for the migrations a
    /// binary embeds, so that opening a database does not hash them again.
    package init(fileName: String, sql: String, checksum: String) throws {
        self.init(identifier: try Self.identifier(fileName: fileName), sql: sql, checksum: checksum)
    }

    private init(identifier: String, sql: String, checksum: String) {
        self.identifier = identifier
        self.sql = sql
        self.checksum = checksum
    }

    /// The identifier of the migration file `fileName`: its name without `.sql`.
    private static func identifier(fileName: String) throws -> String {
        guard fileName.hasSuffix(".sql") else {
            throw MigrationError.badFileName(fileName)
        }
        let identifier = String(fileName.dropLast(4))
        let parts = identifier.split(separator: "_", maxSplits: 1)
        guard parts.count == 2, parts[0].count >= 4, parts[0].allSatisfy(\.isASCII), parts[0].allSatisfy(\.isNumber),
              !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else {
            throw MigrationError.badFileName(fileName)
        }
        return identifier
    }
}

/// Why a database cannot be migrated or opened.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A migration file's name is not `NNNN_name.sql`.
    case badFileName(String)
    /// Two migrations share an identifier or a number.
    case duplicateMigration(String)
    /// The database has applied a migration this build does not know: it was made by a newer
    /// version. It is left untouched.
    case unknownMigration(identifier: String, path: String)
    /// A migration applied to the database has since been edited.
    case modifiedMigration(identifier: String, path: String)
    /// A known migration is missing from the database although a later one was applied.
    case missingMigration(identifier: String, path: String)

    public var description: String {
        switch self {
        case .badFileName(let name):
            "migration file \(name) is not named NNNN_name.sql"
        case .duplicateMigration(let identifier):
            "two migrations are numbered like \(identifier)"
        case .unknownMigration(let identifier, let path):
            "\(path) was migrated by a newer version (it has migration \(identifier), which this version does not know); refusing to open it, the file is unchanged"
        case .modifiedMigration(let identifier, let path):
            "migration \(identifier) was edited after it was applied to \(path) (its checksum differs); restore the original file or add a new migration instead"
        case .missingMigration(let identifier, let path):
            "\(path) lacks migration \(identifier) although later ones were applied"
        }
    }
}
