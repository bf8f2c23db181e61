import CatalogueCore
import SQLiteStore
/// Checks a catalogue with `PRAGMA quick_check` before the first write of a session, so that a
/// corrupt file is never written to: a failed check refuses the write, and the transaction it
/// runs in is rolled back without touching the file.
///
/// `quick_check` reads every page and checks the structure of every b-tree and the free list
/// (not that indexes agree with their tables, which `integrity_check` does at sixteen times the
/// cost). Measured at 1,000,000 products (a 261 MB file): about 0.5 s with the file in the
/// page cache, 5 s from a cold disk. A check limited to the pages a write touches would let an
/// import of products go on into a file whose countries are corrupt, so the whole file is
/// checked; once per `Catalogue`, not per write.
///
/// ```swift
/// try catalogue.write { db in … }   // the first write runs the check inside its transaction
/// ```
final class IntegrityGate: Sendable {
    private let path: String
    private let verified = Locked(false)

    init(path: String, verified: Bool = false) {
        self.path = path
        self.verified.withLock { $0 = verified }
    }

    /// Runs the check on `db` unless it already passed. Call it inside the write transaction,
    /// before writing. Throws ``CatalogueError/corrupt(path:detail:)``.
    func verify(_ db: Connection) throws {
        guard !verified.withLock({ $0 }) else { return }
        try Self.check(db, path: path)
        verified.withLock { $0 = true }
    }

    /// Runs `PRAGMA quick_check` on `db`; throws ``CatalogueError/corrupt(path:detail:)`` with
    /// the first problem it reports.
    static func check(_ db: Connection, path: String) throws {
        var problems: [String] = []
        do {
            try db.forEachRow("PRAGMA quick_check(10)") { row in
                problems.append(try row.decode(String.self, at: 0))
            }
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            throw CatalogueError.corrupt(path: path, detail: error.message)
        }
        guard problems != ["ok"] else { return }
        let detail = problems.flatMap { $0.split(whereSeparator: \.isNewline) }
            .map(String.init)
            .first { !$0.hasPrefix("*** in database") } ?? "quick_check failed"
        throw CatalogueError.corrupt(path: path, detail: detail)
    }
}
