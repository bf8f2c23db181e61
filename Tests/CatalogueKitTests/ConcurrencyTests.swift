import Foundation
import Testing
@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite

/// Threads sharing a catalogue, and several connections on one file: no SQLITE_BUSY reaches the
/// caller, readers only ever see whole transactions, and final counts are exact.
@Suite("Concurrency", .serialized)
struct ConcurrencyTests {
    static let batch = 20

    /// Writes `batches` transactions of `batch` products named "<writer>-<n>".
    static func write(_ catalogue: Catalogue, writer: Int, batches: Int) throws {
        for index in 0..<batches {
            try catalogue.write { db in
                for item in 0..<batch {
                    try db.insert(Product(name: "w\(writer)-\(index)-\(item)", type: "load", year: 2000, price: 1))
                }
            }
        }
    }

    /// Searches and counts until `stop()`; returns every product count seen.
    static func read(_ catalogue: Catalogue, until stop: () -> Bool) throws -> [Int] {
        var counts: [Int] = []
        repeat {
            let count = try catalogue.read { db in
                try db.fetchCount(FetchRequest<Product>(predicate: .equals("type", "load")))
            }
            counts.append(count)
            _ = try catalogue.search(CatalogueSearch.products(matching: "w1", scope: .type("load")), limit: 10)
            _ = try catalogue.search(CatalogueSearch.products(matching: "w2 1", scope: .all, mode: .words), limit: 10)
        } while !stop()
        return counts
    }

    @Test("Tasks sharing one catalogue: 4 writers and 4 readers")
    func sharedCatalogue() async throws {
        let catalogue = try emptyCatalogue()
        let done = Locked(0)
        try await withThrowingTaskGroup(of: [Int].self) { group in
            for writer in 0..<4 {
                group.addTask {
                    defer { done.withLock { $0 += 1 } }
                    try Self.write(catalogue, writer: writer, batches: 10)
                    return []
                }
            }
            for _ in 0..<4 {
                group.addTask { try Self.read(catalogue) { done.withLock { $0 } == 4 } }
            }
            for try await counts in group {
                #expect(counts.allSatisfy { $0 % Self.batch == 0 }, "a reader saw part of a transaction")
            }
        }
        #expect(try catalogue.rowCount("product") == 4 * 10 * Self.batch)
        try expectIntact(catalogue)
    }

    @Test("Connections on one file, from several threads: no SQLITE_BUSY, exact counts")
    func separateConnections() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("shared.sqlite")
        _ = try Catalogue(path: path, seed: false)
        let failures = Locked<[String]>([])
        let seen = Locked<[Int]>([])
        let writersDone = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 6) { index in
            do {
                let catalogue = try Catalogue(path: path, seed: false)
                if index < 2 {
                    defer { writersDone.withLock { $0 += 1 } }
                    try Self.write(catalogue, writer: index, batches: 15)
                } else {
                    let counts = try Self.read(catalogue) { writersDone.withLock { $0 } == 2 }
                    seen.withLock { $0 += counts }
                }
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(seen.withLock { $0 }.allSatisfy { $0 % Self.batch == 0 })
        let catalogue = try Catalogue(path: path, seed: false)
        #expect(try catalogue.rowCount("product") == 2 * 15 * Self.batch)
        try expectIntact(catalogue)
    }

    func expectIntact(_ catalogue: Catalogue) throws {
        try catalogue.database.inDatabase { db in
            #expect(try db.scalar("PRAGMA integrity_check") == "ok")
            try db.execute("INSERT INTO product_fts (product_fts) VALUES ('integrity-check')")
            #expect(try db.scalar("SELECT count(*) FROM product_fts") == db.scalar("SELECT count(*) FROM product") as Int?)
        }
    }
}
