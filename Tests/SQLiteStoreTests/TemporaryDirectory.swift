import Foundation
import SQLiteStore

/// A unique, empty directory under the system's temporary directory, removed by ``remove()``
/// (call it with `defer` right after creating the directory).
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// defer { directory.remove() }
/// let db = try Connection(path: directory.path("test.sqlite"))
/// ```
struct TemporaryDirectory {
    let url: URL

    init(function: String = #function) throws {
        let safeName = function.filter { $0.isLetter || $0.isNumber }.prefix(40)
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteStoreTests-\(safeName)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// The contents of `name`, or nil when the file does not exist.
    func contents(of name: String) -> Data? {
        FileManager.default.contents(atPath: path(name))
    }

    /// Whether `name` exists in the directory.
    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: path(name))
    }

    /// The names of the files in the directory, sorted.
    func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Moves every WAL frame into the main database file and truncates the WAL, so that once all
/// connections are closed the main file alone holds the whole database.
func checkpoint(_ db: Connection) throws {
    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
}
