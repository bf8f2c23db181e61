import Dispatch
import Foundation
import Testing
@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite

/// The SQLite engine's read-only connections: reads of a file catalogue run in parallel with
/// each other and beside a write (an import holding the write lock), and see only whole
/// transactions; in memory, reads share the writing connection.
@Suite("SQLite reader pool", .serialized)
struct ReaderPoolTests {
    /// Runs `body` on a thread of its own; the returned group is left when it ends.
    static func inBackground(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            body()
            group.leave()
        }
        return group
    }

    /// `count` products of type `bulk` as CSV.
    static func productsCSV(_ count: Int, prefix: String) -> String {
        var csv = "name,type,year,price\n"
        for index in 0..<count {
            csv += "\(prefix) \(index),bulk,2000,\(index % 1000)\n"
        }
        return csv
    }

    static func bulkCount(_ catalogue: Catalogue) throws -> Int {
        try catalogue.fetchCount(FetchRequest<Product>(predicate: .equals("type", "bulk")))
    }

    @Test("A file catalogue gets read connections; an in-memory one shares its writer")
    func readerCounts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Catalogue(path: directory.path("catalogue.sqlite"))
        #expect(file.sqlite?.readerCount == SQLiteEngine.defaultReaderCount)
        let memory = try Catalogue(path: ":memory:")
        #expect(memory.sqlite?.readerCount == 0)
        let single = try SQLiteEngine(path: directory.path("single.sqlite"), readerCount: 0)
        #expect(single.readerCount == 0)
        #expect(try Catalogue(engine: single).fetchCount(FetchRequest<Country>()) == 250)
    }

    @Test("A catalogue's connections keep 8 MiB of pages unless the configuration says otherwise")
    func pageCache() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        func cacheSizes(_ engine: SQLiteEngine) throws -> (reader: Int?, writer: Int?) {
            let reader = try engine.reading { try ($0 as! Connection).scalar("PRAGMA cache_size") as Int? }
            let writer = try engine.database.inDatabase { try $0.scalar("PRAGMA cache_size") as Int? }
            return (reader, writer)
        }
        let path = directory.path("catalogue.sqlite")
        let standard = try SQLiteEngine(path: path)
        #expect(standard.readerCount > 0)
        #expect(try cacheSizes(standard) == (-SQLiteEngine.defaultPageCacheKiB, -SQLiteEngine.defaultPageCacheKiB))
        var configuration = Configuration()
        configuration.pageCacheKiB = 1024
        let small = try SQLiteEngine(path: path, configuration: configuration)
        #expect(try cacheSizes(small) == (-1024, -1024))
        // Reads that share the writing connection have the same cache.
        let single = try SQLiteEngine(path: path, readerCount: 0)
        #expect(try single.reading { try ($0 as! Connection).scalar("PRAGMA cache_size") as Int? }
            == -SQLiteEngine.defaultPageCacheKiB)
    }

    @Test("A read proceeds while a write holds the write lock, and sees the last commit")
    func readBesideWrite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = try Catalogue(path: directory.path("catalogue.sqlite"))
        let before = try catalogue.fetchCount(FetchRequest<Product>())
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = Self.inBackground {
            _ = try? catalogue.write { db in
                try db.insert(Product(name: "Held", type: "bulk", year: 2001, price: 1))
                inside.signal()
                release.wait()
            }
        }
        #expect(inside.wait(timeout: .now() + 10) == .success)
        // Reads on other threads, while the write transaction is open.
        let seen = Locked<[Int]>([])
        let readers = Self.inBackground {
            let counts = (try? (0..<4).map { _ in try catalogue.fetchCount(FetchRequest<Product>()) }) ?? []
            let search = (try? catalogue.search(CatalogueSearch.products(matching: "held"), limit: 5).totalCount) ?? -1
            seen.withLock { $0 = counts + [search] }
        }
        let finished = readers.wait(timeout: .now() + 10)
        release.signal()
        #expect(writer.wait(timeout: .now() + 10) == .success)
        #expect(finished == .success, "a read waited for the write to finish")
        _ = readers.wait(timeout: .now() + 10)
        #expect(seen.withLock { $0 } == [before, before, before, before, 0], "a read saw an uncommitted row")
        #expect(try catalogue.fetchCount(FetchRequest<Product>()) == before + 1)
        #expect(try catalogue.search(CatalogueSearch.products(matching: "held"), limit: 5).records.map(\.name) == ["Held"])
    }

    @Test("Reads run in parallel, on at most readerCount connections")
    func parallelReads() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = try Catalogue(path: directory.path("catalogue.sqlite"))
        let capacity = SQLiteEngine.defaultReaderCount
        let inside = Locked(0)
        let most = Locked(0)
        // Threads of their own: `concurrentPerform` would use only as many as there are cores.
        let threads = (0..<capacity * 2).map { _ in Self.inBackground {
            _ = try? catalogue.read { db in
                let now = inside.withLock { count in
                    count += 1
                    return count
                }
                most.withLock { $0 = max($0, now) }
                // Stay inside until `capacity` readers are in at once (or give up after 5 s).
                let deadline = Date().addingTimeInterval(5)
                while inside.withLock({ $0 }) < capacity, most.withLock({ $0 }) < capacity, Date() < deadline {
                    usleep(1_000)
                }
                _ = try db.fetchCount(FetchRequest<Country>())
                inside.withLock { $0 -= 1 }
            }
        } }
        for thread in threads {
            #expect(thread.wait(timeout: .now() + 30) == .success)
        }
        #expect(most.withLock { $0 } == capacity)
    }

    @Test("Searches go on during an import, which lands whole: readers see all of it or none")
    func readsDuringImport() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = try Catalogue(path: directory.path("catalogue.sqlite"))
        let rows = 20_000
        let csv = Self.productsCSV(rows, prefix: "Bulk")
        let started = DispatchSemaphore(value: 0)
        let readersDone = DispatchSemaphore(value: 0)
        let once = Locked(false)
        let importer = Self.inBackground {
            let input = ImportInput(text: csv, name: "bulk.csv")
            _ = try? catalogue.importRecords(Product.self, from: input, options: ImportOptions(format: .csv), progress: { _ in
                // The first progress report comes from inside the import's transaction: hold it
                // there until the readers have read.
                if once.withLock({ flag in defer { flag = true }; return !flag }) {
                    started.signal()
                    _ = readersDone.wait(timeout: .now() + 10)
                }
            })
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        let counts = Locked<[Int]>([])
        let readers = Self.inBackground {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<5 {
                    if let count = try? Self.bulkCount(catalogue) { counts.withLock { $0.append(count) } }
                    _ = try? catalogue.search(CatalogueSearch.products(matching: "bu"), limit: 50)
                }
            }
        }
        let readDuringImport = readers.wait(timeout: .now() + 10)
        readersDone.signal()
        #expect(readDuringImport == .success, "searches waited for the import")
        #expect(importer.wait(timeout: .now() + 60) == .success)
        #expect(counts.withLock { $0 } == [Int](repeating: 0, count: 20), "a read saw part of the import")
        // After the commit, every reader sees every row.
        let after = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let count = try? Self.bulkCount(catalogue) { after.withLock { $0.append(count) } }
        }
        #expect(after.withLock { $0 } == [Int](repeating: rows, count: 8))
    }

    @Test("A read nested in a write runs on the writing connection and sees the write's rows")
    func readInsideWrite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = try Catalogue(path: directory.path("catalogue.sqlite"))
        let before = try catalogue.fetchCount(FetchRequest<Product>())
        let seen = try catalogue.write { db in
            try db.insert(Product(name: "Nested", type: "bulk"))
            return (try catalogue.fetchCount(FetchRequest<Product>()), try catalogue.read { try $0.fetchCount(FetchRequest<Product>()) })
        }
        #expect(seen.0 == before + 1)
        #expect(seen.1 == before + 1)
    }

    @Test("A write nested in a read fails, as on one connection")
    func writeInsideRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = try Catalogue(path: directory.path("catalogue.sqlite"))
        #expect(throws: DatabaseError.self) {
            try catalogue.read { _ in
                try catalogue.write { db in try db.insert(Product(name: "Refused", type: "bulk")) }
            }
        }
        #expect(try catalogue.search(CatalogueSearch.products(matching: "refused")).totalCount == 0)
    }

    @Test("Change tokens and change streams still see every commit, this catalogue's and another's")
    func changesWithReaders() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("catalogue.sqlite")
        let catalogue = try Catalogue(path: path)
        let other = try Catalogue(path: path)
        let token = try catalogue.engine.changeToken()
        var iterator = catalogue.changes(pollingInterval: .milliseconds(20)).makeAsyncIterator()
        let inserted = try await catalogue.write { db in try db.insert(Product(name: "Mine", type: "bulk")) }
        let mine = try await iterator.next()
        #expect(mine?.origin == .thisCatalogue)
        #expect(mine?.changedIDs(of: Product.self) == [inserted.id!])
        #expect(try catalogue.engine.changeToken() != token)
        let afterMine = try catalogue.engine.changeToken()
        try await other.write { db in try db.insert(Product(name: "Theirs", type: "bulk")) }
        let theirs = try await iterator.next()
        #expect(theirs?.origin == .elsewhere)
        #expect(try catalogue.engine.changeToken() != afterMine)
        #expect(try await catalogue.search(CatalogueSearch.products(matching: "theirs")).totalCount == 1)
    }

    @Test("purgeCaches empties the read connections' statement caches too")
    func purgeCaches() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = try Catalogue(path: directory.path("catalogue.sqlite"))
        let readers = try #require(catalogue.sqlite?.readers)
        let request = CatalogueSearch.countries(matching: "bo")
        let names = try catalogue.fetch(request).map(\.name)
        #expect(readers.idleCachedStatementCount > 0)
        try catalogue.purgeCaches()
        #expect(readers.idleCachedStatementCount == 0)
        #expect(try catalogue.fetch(request).map(\.name) == names)
        #expect(readers.idleCachedStatementCount > 0)
    }
}
