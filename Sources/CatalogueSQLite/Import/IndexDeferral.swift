import CatalogueCore
import Foundation
import SQLiteStore


/// Builds a table's plain indexes once at the end of a big import, instead of inserting every
/// new row into each of them.
///
/// Rows arrive in file order, so each index takes its entries in random key order: at a million
/// rows, most inserts touch a page that is no longer in the cache, and the two name indexes of
/// `product` cost more than everything else together. Once an import has inserted
/// ``threshold`` rows (100,000, or half the rows the table held before, whichever is more), or
/// is on course to (judged from the share of the file read after 10,000 rows), it drops the
/// table's non-unique indexes in its transaction and creates them again from their stored SQL
/// before committing: a sorted build is several times faster. An import that inserts little
/// (a re-import of known rows) never drops them. Unique indexes stay
/// (the upsert needs the natural key's). A rolled-back import leaves the indexes as they were;
/// a committed one ends with exactly the same schema.
///
/// ```swift
/// let deferral = try IndexDeferral(table: "product", on: db)
/// // after each insert:
/// try deferral.inserted(counts.added, rows: counts.rows, bytesRead: read, totalBytes: input.size, on: db)
/// // before committing:
/// try deferral.rebuild(on: db)
/// ```
final class IndexDeferral {
    let table: String
    /// How many inserted rows make building the indexes at the end cheaper.
    let threshold: Int
    private var dropped: [(name: String, sql: String)] = []
    private var done = false

    /// The fewest inserted rows that make building the indexes at the end cheaper.
    static let minimumRows = 100_000

    init(table: String, on db: Connection, minimumRows: Int = IndexDeferral.minimumRows) throws {
        self.table = table
        let rows: Int = try db.scalar("SELECT count(*) FROM \(table)") ?? 0
        threshold = max(minimumRows, rows / 2)
    }

    /// Whether indexes were dropped and wait for ``rebuild(on:)``.
    var hasDroppedIndexes: Bool {
        !dropped.isEmpty
    }

    /// Drops the plain indexes when `insertedRows` reaches the threshold, or when, after 10,000
    /// rows, the rate of inserts per byte read says the whole input will.
    @inline(__always)
    func inserted(_ insertedRows: Int, rows: Int, bytesRead: Int, totalBytes: Int?, on db: Connection) throws {
        guard !done else { return }
        if insertedRows >= threshold {
            try dropIndexes(on: db)
        } else if let totalBytes, rows >= 10_000, bytesRead > 0,
                  Double(insertedRows) * Double(totalBytes) / Double(bytesRead) >= Double(threshold) {
            try dropIndexes(on: db)
        }
    }

    private func dropIndexes(on db: Connection) throws {
        done = true
        dropped = try db.fetchAll(
            """
            SELECT m.name, m.sql FROM sqlite_master AS m JOIN pragma_index_list(?) AS l ON l.name = m.name
            WHERE m.type = 'index' AND l."unique" = 0 AND l.origin = 'c' AND m.sql IS NOT NULL ORDER BY m.name
            """, [table]
        ) { (name: try $0.decode(String.self, at: 0), sql: try $0.decode(String.self, at: 1)) }
        for index in dropped {
            try db.execute("DROP INDEX \(SQLiteSchemaText.quoted(index.name))")
            _ = try db.storedDefinition(index.sql, of: index.name)
        }
    }

    /// Creates the dropped indexes again, in small sort runs with a sorter worker thread
    /// (``withSortBuffer(on:_:)``).
    func rebuild(on db: Connection) throws {
        guard !dropped.isEmpty else { return }
        try Self.withSortBuffer(on: db) {
            for index in dropped {
                try db.storedDefinition(index.sql, of: index.name).execute()
            }
        }
        dropped = []
    }

    /// The page cache, in KiB, while the indexes are built. SQLite's sorter holds as many rows
    /// in memory as the page cache would pages before it sorts them into a run: with the
    /// import's 64 MiB cache, one run of a million keys, sorted as a linked list that misses the
    /// processor's caches. Runs of about 2 MiB each fit there, a worker thread sorts one while
    /// the table is read into the next, and the runs are merged: the four indexes of 1,000,000
    /// products took 1.55 s instead of 3.45 s (the sqlite3 shell, the same file; 1.98 s without
    /// the worker).
    static let sortBufferKiB = 2_048

    /// Runs `body` (index builds) with a page cache of ``sortBufferKiB`` and one sorter worker
    /// thread per extra processor (at most four), then restores both settings.
    static func withSortBuffer(on db: Connection, _ body: () throws -> Void) throws {
        let threads: Int = try db.scalar("PRAGMA threads") ?? 0
        let workers = max(threads, min(4, ProcessInfo.processInfo.activeProcessorCount - 1))
        try db.withPragma("cache_size", -sortBufferKiB) {
            try db.withPragma("threads", workers, body)
        }
    }
}
