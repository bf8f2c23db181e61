import Foundation
import Testing
@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite

/// Threads sharing a catalogue, and several connections on one file: no SQLITE_BUSY reaches the
/// caller, readers only ever see whole transactions, final counts are exact, and the work
/// provably overlapped (a reader saw a count between the first and the last). Work starts
/// behind a barrier on threads or tasks of its own: `DispatchQueue.concurrentPerform` runs only
/// as many iterations at once as there are cores, so its "concurrent" work may not overlap.
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

    @Test("Tasks sharing one catalogue: 4 writers and 4 readers", .timeLimit(.minutes(2)))
    func sharedCatalogue() async throws {
        let catalogue = try emptyCatalogue()
        let done = Locked(0)
        let started = Locked(0)
        let total = 4 * 10 * Self.batch
        var seen: [Int] = []
        try await withThrowingTaskGroup(of: [Int].self) { group in
            for writer in 0..<4 {
                group.addTask {
                    started.withLock { $0 += 1 }
                    while started.withLock({ $0 }) < 8 { await Task.yield() }
                    defer { done.withLock { $0 += 1 } }
                    for batch in 0..<10 {
                        try Self.write(catalogue, writer: writer * 100 + batch, batches: 1)
                        await Task.yield()
                    }
                    return []
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    started.withLock { $0 += 1 }
                    while started.withLock({ $0 }) < 8 { await Task.yield() }
                    var counts: [Int] = []
                    repeat {
                        counts += try Self.read(catalogue) { true }
                        await Task.yield()
                    } while done.withLock({ $0 }) < 4
                    return counts
                }
            }
            for try await counts in group {
                #expect(counts.allSatisfy { $0 % Self.batch == 0 }, "a reader saw part of a transaction")
                seen += counts
            }
        }
        #expect(try catalogue.rowCount("product") == total)
        #expect(seen.contains { $0 > 0 && $0 < total }, "no reader ran while the writers did: \(Set(seen).sorted())")
        try expectIntact(catalogue)
        print("concurrency (library): 4 writer and 4 reader tasks on one catalogue: \(total) rows exact, \(seen.count) reads (\(Set(seen).count) distinct counts)")
    }

    @Test("Connections on one file, from several threads: no SQLITE_BUSY, exact counts", .timeLimit(.minutes(2)))
    func separateConnections() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("shared.sqlite")
        _ = try Catalogue(path: path, seed: false)
        let failures = Locked<[String]>([])
        let seen = Locked<[Int]>([])
        let writersDone = Locked(0)
        let writing = Locked<[(writer: Int, start: Date, end: Date)]>([])
        let total = 2 * 15 * Self.batch
        // Open every connection first, then start all the work at once.
        let catalogues = try (0..<6).map { _ in try Catalogue(path: path, seed: false) }
        runThreads(6) { index in
            do {
                if index < 2 {
                    defer { writersDone.withLock { $0 += 1 } }
                    for batch in 0..<15 {
                        let start = Date()
                        try Self.write(catalogues[index], writer: index * 100 + batch, batches: 1)
                        writing.withLock { $0.append((index, start, Date())) }
                    }
                } else {
                    let counts = try Self.read(catalogues[index]) { writersDone.withLock { $0 } == 2 }
                    seen.withLock { $0 += counts }
                }
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let counts = seen.withLock { $0 }
        #expect(counts.allSatisfy { $0 % Self.batch == 0 })
        #expect(counts.contains { $0 > 0 && $0 < total }, "no reader ran while the writers did: \(Set(counts).sorted())")
        let intervals = writing.withLock { $0 }
        let overlaps = intervals.filter { first in
            intervals.contains { $0.writer != first.writer && $0.start < first.end && first.start < $0.end }
        }
        #expect(!overlaps.isEmpty, "the two writers never wrote at the same time")
        let catalogue = try Catalogue(path: path, seed: false)
        #expect(try catalogue.rowCount("product") == total)
        try expectIntact(catalogue)
        print("concurrency (library): 2 writer and 4 reader threads on their own connections: \(total) rows exact, \(overlaps.count) overlapping write transactions, \(counts.count) reads (\(Set(counts).count) distinct counts)")
    }

    func expectIntact(_ catalogue: Catalogue) throws {
        try catalogue.database.inDatabase { db in
            #expect(try db.scalar("PRAGMA integrity_check") == "ok")
            try db.execute("INSERT INTO product_fts (product_fts) VALUES ('integrity-check')")
            #expect(try db.scalar("SELECT count(*) FROM product_fts") == db.scalar("SELECT count(*) FROM product") as Int?)
        }
    }
}

/// Starts `count` threads running `body(index)` at the same moment (each waits until all have
/// started) and waits for all of them to finish.
func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let condition = NSCondition()
    let arrived = Locked(0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            condition.lock()
            let now = arrived.withLock { $0 += 1; return $0 }
            if now == count {
                condition.broadcast()
            } else {
                while arrived.withLock({ $0 }) < count { condition.wait() }
            }
            condition.unlock()
            body(index)
            done.leave()
        }.start()
    }
    done.wait()
}
