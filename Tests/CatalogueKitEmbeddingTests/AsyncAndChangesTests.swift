import CatalogueKit
import Foundation
import Testing

/// The library as an app meets it: async calls from the main actor, change streams without a
/// controller, nested calls, and the small things an app trips over. Public API only.
@Suite("Embedding: async API, changes, nested calls")
struct AsyncAndChangesTests {
    /// A temporary database file, removed at the end.
    struct TemporaryFile {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-\(UUID().uuidString)")
        var path: String { directory.appendingPathComponent("catalogue.sqlite").path }

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        func remove() {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The next element of `iterator`, or a failure after `seconds` (a regression must fail the
    /// test, not hang it). The limit guards against a hang; it is not a latency check (the
    /// benchmarks measure that): in a full `swift test`, long synchronous tests of other suites
    /// can hold every thread of the cooperative pool for tens of seconds, and neither the stream
    /// nor this timer runs meanwhile.
    static func next<Element: Sendable>(
        _ iterator: inout AsyncThrowingStream<Element, any Error>.Iterator, within seconds: Double = 120
    ) async throws -> Element? {
        let box = IteratorBox(iterator)
        defer { iterator = box.iterator }
        return try await withThrowingTaskGroup(of: Element?.self) { group in
            group.addTask { try await box.next() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw TimedOut(seconds: seconds)
            }
            let first = try await group.next()!
            group.cancelAll()
            return first
        }
    }

    struct TimedOut: Error, CustomStringConvertible {
        let seconds: Double
        var description: String { "nothing arrived within \(seconds) s" }
    }

    /// Lets a task group's child advance an iterator (one at a time).
    final class IteratorBox<Element: Sendable>: @unchecked Sendable {
        var iterator: AsyncThrowingStream<Element, any Error>.Iterator
        init(_ iterator: AsyncThrowingStream<Element, any Error>.Iterator) { self.iterator = iterator }
        func next() async throws -> Element? { try await iterator.next() }
    }

    @MainActor
    @Test("async search, fetch, count and write from the main actor")
    func asyncFromMainActor() async throws {
        let file = try TemporaryFile()
        defer { file.remove() }
        let catalogue = try Catalogue(path: file.path)
        let results = try await catalogue.search(CatalogueSearch.countries(matching: "bog", scope: .capital), limit: 10)
        #expect(results.records.map(\.name) == ["Colombia"])
        let saved = try await catalogue.write { db in try db.insert(Product(name: "Brio train", type: "toy")) }
        #expect(saved.id != nil)
        #expect(try await catalogue.fetchCount(CatalogueSearch.products(matching: "brio")) == 1)
        #expect(try await catalogue.record(Product.self, id: saved.id!)?.name == "Brio train")
        let names = try await catalogue.read { db in try db.fetch(CatalogueSearch.products(matching: "bri")).map(\.name) }
        #expect(names == ["Brio train"])
    }

    @Test("changes(): this catalogue's write arrives at once, with its rows")
    func changesFromThisCatalogue() async throws {
        let file = try TemporaryFile()
        defer { file.remove() }
        let catalogue = try Catalogue(path: file.path, seed: false)
        var iterator = catalogue.changes(pollingInterval: .seconds(60)).makeAsyncIterator()
        let saved = try await catalogue.write { db in try db.insert(Product(name: "Lamp", type: "thing")) }
        let change = try #require(try await Self.next(&iterator))
        #expect(change.origin == .thisCatalogue)
        #expect(change.affects(Product.self))
        #expect(!change.affects(Country.self))
        #expect(change.changedIDs(of: Product.self) == [saved.id!])
        #expect(change.description.hasPrefix("change (thisCatalogue): "))
    }

    @Test("changes(): another connection's commit arrives within the polling interval")
    func changesFromElsewhere() async throws {
        let file = try TemporaryFile()
        defer { file.remove() }
        let catalogue = try Catalogue(path: file.path, seed: false)
        let other = try Catalogue(path: file.path, seed: false)
        var iterator = catalogue.changes(pollingInterval: .milliseconds(20)).makeAsyncIterator()
        try await other.write { db in _ = try db.insert(Product(name: "Lamp", type: "thing")) }
        let change = try #require(try await Self.next(&iterator))
        #expect(change.origin == .elsewhere)
        #expect(change.tables == nil)
        #expect(change.affects(Product.self))
    }

    @Test("a row the sqlite3 shell inserts is reported by changes() and found by BEGINSWITH[cd] at once")
    func shellInsertReportedAndFound() async throws {
        let file = try TemporaryFile()
        defer { file.remove() }
        let catalogue = try Catalogue(path: file.path)
        var iterator = catalogue.changes(pollingInterval: .milliseconds(20)).makeAsyncIterator()
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [file.path, "INSERT INTO product (name, type, year, price) VALUES ('Crème brûlée torch', 'kitchen', 2019, 34.5)"]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let change = try #require(try await Self.next(&iterator))
        #expect(change.origin == .elsewhere)
        #expect(change.affects(Product.self))
        let found = try await catalogue.fetch(CatalogueSearch.products(matching: "creme"))
        #expect(found.contains { $0.name == "Crème brûlée torch" && $0.year == 2019 })
    }

    @Test("importRecords from the main actor: the import runs off it, its counts and rows arrive")
    @MainActor
    func asyncImport() async throws {
        let catalogue = try Catalogue(path: ":memory:", seed: false)
        let input = ImportInput(bytes: Array("name,type,year\nAsync lamp,thing,2024\nAsync desk,thing,\n".utf8), name: "async.csv")
        let counts = try await catalogue.importRecords(Product.self, from: input, options: ImportOptions(format: .csv))
        #expect(counts.added == 2)
        let found = try await catalogue.fetch(CatalogueSearch.products(matching: "async"))
        #expect(found.map(\.name).sorted() == ["Async desk", "Async lamp"])
    }

    @Test("a search inside a write runs on the write's connection and sees it")
    func nestedSearch() throws {
        let catalogue = try Catalogue(path: ":memory:", seed: false)
        let count = try catalogue.write { db in
            try db.insert(Product(name: "Lamp", type: "thing"))
            // The catalogue's own methods, nested, no longer stop the program.
            let outer = try catalogue.search(CatalogueSearch.products(matching: "la"))
            let inner = try db.search(CatalogueSearch.products(matching: "la"))
            return (outer.totalCount, inner.totalCount)
        }
        #expect(count == (1, 1))
    }

    @Test("search honours the request's fetchLimit when no limit is passed")
    func searchHonoursFetchLimit() throws {
        let catalogue = try Catalogue(path: ":memory:")
        var request = CatalogueSearch.countries(matching: "s")
        request.fetchLimit = 3
        let results = try catalogue.search(request)
        #expect(results.records.count == 3)
        #expect(results.totalCount > 3)
        #expect(try catalogue.search(request, limit: 5).records.count == 5)
    }

    @Test("sort descriptors by name read as .byName; change sets read as sentences")
    func smallThings() throws {
        let request = FetchRequest<Product>(sortDescriptors: .byName)
        #expect(request.sortDescriptors == FetchSortDescriptor.byName)
        let change = ChangeSet.Change.insertRow(ResultIndexPath(row: 3, section: 0))
        #expect(String(describing: change) == "insert row 3 in section 0")
        #expect(String(describing: ChangeSet.Change.moveRow(
            from: ResultIndexPath(row: 1, section: 2), to: ResultIndexPath(row: 5, section: 0))) == "move row 2/1 → 0/5")
    }
}
