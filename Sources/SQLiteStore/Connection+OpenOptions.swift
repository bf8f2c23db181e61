import CSQLite

extension Connection {
    /// Switches the database to write-ahead logging, so readers and a writer do not block each
    /// other. A database already in WAL mode is not written to.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.writeAheadLogging = false   // decide later, after checking the file
    /// let db = try Connection(path: "catalogue.sqlite", configuration: configuration)
    /// try db.enableWriteAheadLogging()
    /// ```
    public func enableWriteAheadLogging() throws {
        let current: String? = try scalar("PRAGMA journal_mode")
        guard current?.lowercased() != "wal" else { return }
        let mode: String? = try scalar("PRAGMA journal_mode = WAL")
        if mode?.lowercased() != "wal" {
            throw DatabaseError(
                code: .SQLITE_ERROR,
                message: "cannot switch \(path) to write-ahead logging (journal mode is \(mode ?? "unknown"))")
        }
    }

    /// Whether SQLite opened the file read-only (asked to, or because it cannot write it).
    public var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }

    /// The name given to `sqlite3_open_v2`: the path itself, or a `file:` URI when the
    /// configuration asks for `immutable` or `readonly_shm`.
    static func openName(path: String, configuration: Configuration) -> String {
        var parameters: [String] = []
        if configuration.immutable { parameters.append("immutable=1") }
        if configuration.readOnlySharedMemory { parameters.append("readonly_shm=1") }
        guard !parameters.isEmpty, path != ":memory:", !path.isEmpty, !path.hasPrefix("file:") else { return path }
        return "file:" + uriEscaped(path) + "?" + (["mode=ro"] + parameters).joined(separator: "&")
    }

    /// `path` with every byte but unreserved characters and `/` percent-encoded, as a `file:`
    /// URI path.
    static func uriEscaped(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }
}
