import Foundation
import Testing
import CatalogueKit
@testable import CatalogueSQLite
import CatalogueTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Catalogue.importRecords(_:from:options:intoNewCatalogueAt:…)`: a first import builds the
/// catalogue in a temporary file and links it into place, and the result is the catalogue an
/// import into a newly opened one makes.
@Suite("A first import creates the catalogue", .serialized)
struct CatalogueFirstImportTests {
    /// `count` products over a few types, with diacritics, and a duplicate name that updates.
    static func productsCSV(_ count: Int) -> String {
        var text = "name,type,year,price\n"
        let types = ["kitchen", "garden", "audio"]
        for index in 0..<count {
            text += "Crème brûlée torch \(index),\(types[index % 3]),\(1990 + index % 30),\(index % 97).50\n"
        }
        text += "Crème brûlée torch 0,kitchen,2024,1.00\n"
        return text
    }

    static func importNew(
        _ text: String, at path: String, onError: ImportErrorPolicy = .abort, dryRun: Bool = false
    ) throws -> ImportCounts? {
        try Catalogue.importRecords(
            Product.self, from: ImportInput(text: text, name: "products.csv"),
            options: ImportOptions(format: .csv, onError: onError, dryRun: dryRun), intoNewCatalogueAt: path)
    }

    /// The names in `directory` that start with a dot: what a creation or import left.
    static func hiddenFiles(_ directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(".") }
    }

    @Test("The same catalogue as opening a new one and importing into it, in WAL mode, nothing left beside it")
    func sameAsImportIntoNew() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = Self.productsCSV(3_000)
        let counts = try #require(try Self.importNew(text, at: directory.path("first.sqlite")))
        #expect(counts.added == 3_000 && counts.updated == 1)
        let opened = try Catalogue(path: directory.path("opened.sqlite"))
        #expect(try opened.importText(Product.self, text).counts == counts)

        let first = try Catalogue(path: directory.path("first.sqlite"))
        #expect(try CatalogueSnapshot(first) == CatalogueSnapshot(opened))
        let journal: String? = try first.database.inDatabase { try $0.scalar("PRAGMA journal_mode") }
        #expect(journal == "wal")
        let check: String? = try first.database.read { try $0.scalar("PRAGMA integrity_check") }
        #expect(check == "ok")
        #expect(try first.search(CatalogueSearch.products(matching: "creme brulee torch 12")).totalCount == 111)
        #expect(try first.fetch(CatalogueSearch.products(matching: "torch 299", mode: .contains)).map(\.name)
            == ["Crème brûlée torch 299"] + (2990...2999).map { "Crème brûlée torch \($0)" })
        #expect(try first.search(CatalogueSearch.products(matching: "brulee 2999", mode: .words)).totalCount == 1)
        #expect(try Self.hiddenFiles(directory).isEmpty)
        #expect(!directory.exists("first.sqlite-journal"))
    }

    @Test("A file, a directory or a link at the path, or no file for the name: nil, and nothing is read")
    func existingFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        let before: Int
        do {
            let catalogue = try Catalogue(path: path)
            before = try catalogue.rowCount("product")
        }
        let dangling = directory.path("dangling.sqlite")
        #expect(symlink(directory.path("nowhere.sqlite"), dangling) == 0)
        for name in [path, ":memory:", "", dangling, directory.url.path] {
            let input = ImportInput(text: Self.productsCSV(10), name: "products.csv")
            #expect(try Catalogue.importRecords(
                Product.self, from: input, options: ImportOptions(format: .csv), intoNewCatalogueAt: name) == nil)
            #expect(input.bytesRead == 0)
        }
        #expect(try Catalogue(path: path).rowCount("product") == before)
        #expect(!directory.exists("nowhere.sqlite"))
    }

    @Test("A failed import leaves the new catalogue as opening it makes it; a dry run leaves nothing")
    func failureAndDryRun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        let bad = "name,type,year,price\nLamp,office,2001,10\nChair,office,20x1,5\n"
        #expect(throws: ImportIssue.self) { try Self.importNew(bad, at: path) }
        let seeded = try Catalogue(path: directory.path("seeded.sqlite"))
        #expect(try CatalogueSnapshot(try Catalogue(path: path)) == CatalogueSnapshot(seeded))
        #expect(try Self.hiddenFiles(directory).isEmpty)

        let dry = directory.path("dry.sqlite")
        let counts = try #require(try Self.importNew(Self.productsCSV(20), at: dry, dryRun: true))
        #expect(counts.added == 20 && counts.updated == 1)
        #expect(!directory.exists("dry.sqlite"))
        #expect(try Self.hiddenFiles(directory).isEmpty)

        // Skipped rows are reported; the good ones land.
        var skipped: [String] = []
        let skipping = try #require(try Catalogue.importRecords(
            Product.self, from: ImportInput(text: bad, name: "bad.csv"),
            options: ImportOptions(format: .csv, onError: .skip), intoNewCatalogueAt: directory.path("skip.sqlite"),
            skipped: { skipped.append($0.description) }))
        #expect(skipping.added == 1 && skipping.skipped == 1)
        #expect(skipped.count == 1 && skipped[0].hasPrefix("bad.csv:3: year: "), "\(skipped)")
    }

    @Test("What a killed first import left is replaced by the next one, and removed by the next open")
    func abandonedImport() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        let leftover = Catalogue.firstImportTemporaryPath(for: path)
        #expect(leftover == directory.path(".c.sqlite.creating"))
        #expect(Catalogue.firstImportTemporaryPath(for: "c.sqlite") == "./.c.sqlite.creating")
        // Half a database and a hot journal: neither may reach the new catalogue.
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data("half a catalogue".utf8)))
        #expect(FileManager.default.createFile(atPath: leftover + "-journal", contents: Data(repeating: 7, count: 4096)))
        #expect(try Self.importNew(Self.productsCSV(5), at: path)?.added == 5)
        #expect(try Self.hiddenFiles(directory).isEmpty)

        let other = directory.path("d.sqlite")
        let otherLeftover = Catalogue.firstImportTemporaryPath(for: other)
        #expect(FileManager.default.createFile(atPath: otherLeftover, contents: Data("half a catalogue".utf8)))
        _ = try Catalogue(path: other)
        #expect(!FileManager.default.fileExists(atPath: otherLeftover))
        #expect(FileManager.default.createFile(atPath: otherLeftover, contents: Data("again".utf8)))
        _ = try Catalogue(path: other, access: .readOnly)
        #expect(!FileManager.default.fileExists(atPath: otherLeftover))
    }

    @Test("While a first import runs, opening the path and a second first import wait for it")
    func waitsForRunningImport() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")

        // This test holds the temporary file's lock, as a running import does.
        let running = try CreationLockHolder(catalogueAt: path)
        let opened = Locked<Int?>(nil)
        let opener = Thread {
            let count = try? Catalogue(path: path).rowCount("product")
            opened.withLock { $0 = count }
        }
        opener.start()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(opened.withLock { $0 } == nil, "the open did not wait")
        #expect(!directory.exists("c.sqlite"))
        // The import ends without a catalogue (it failed): the open creates one.
        running.release()
        let deadline = Date().addingTimeInterval(30)
        while opened.withLock({ $0 }) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(opened.withLock { $0 } == (try SeedData.products()).count)
        #expect(try Self.hiddenFiles(directory).isEmpty)

        // A second first import waits, then finds the first one's catalogue: nil.
        let second = directory.path("e.sqlite")
        let first = try CreationLockHolder(catalogueAt: second)
        let outcome = Locked<String?>(nil)
        let importer = Thread {
            let result = Result { try Self.importNew(Self.productsCSV(5), at: second) }
            outcome.withLock { $0 = "\(result)" }
        }
        importer.start()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(outcome.withLock { $0 } == nil, "the second import did not wait")
        try FileManager.default.copyItem(atPath: path, toPath: second)
        unlink(first.temporaryPath)
        first.release()
        while outcome.withLock({ $0 }) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(outcome.withLock { $0 } == "success(nil)")
        #expect(try Catalogue(path: second).rowCount("product") == (try SeedData.products()).count)
    }

    @Test("The first report comes once the temporary file is the import's, before its schema: a program can remove it on a signal from there")
    func firstReportAtTheClaim() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        let temporary = Catalogue.firstImportTemporaryPath(for: path)
        var reports: [(phase: ImportProgress.Phase, rows: Int, temporaryFileSize: Int?)] = []
        let counts = try Catalogue.importRecords(
            Product.self, from: ImportInput(text: Self.productsCSV(3_000), name: "products.csv"),
            options: ImportOptions(format: .csv), intoNewCatalogueAt: path,
            progress: { progress in
                let size = (try? FileManager.default.attributesOfItem(atPath: temporary))?[.size] as? Int
                reports.append((progress.phase, progress.rows, size))
            })
        #expect(counts?.added == 3_000)
        let first = try #require(reports.first)
        #expect(first.phase == .rows && first.rows == 0)
        #expect(first.temporaryFileSize == 0, "claimed, empty: nothing built in it yet")
        // Then the rows (from 0, every 1,024), their end (3,001 with the duplicate), the indexes
        // and the commit, as before.
        #expect(reports.dropFirst().map(\.rows).prefix(4) == [0, 1_024, 2_048, 3_001])
        #expect(reports.last?.phase == .committing)
    }

    @Test("A second first import waits up to writeLockTimeout, says that it waits, then throws SQLITE_BUSY")
    func waitTimeout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        let other = try CreationLockHolder(catalogueAt: path)
        var configuration = Configuration()
        configuration.writeLockTimeout = .milliseconds(300)
        var phases: [ImportProgress.Phase] = []
        let start = ContinuousClock.now
        do {
            _ = try Catalogue.importRecords(
                Product.self, from: ImportInput(text: Self.productsCSV(5), name: "products.csv"),
                options: ImportOptions(format: .csv), intoNewCatalogueAt: path, configuration: configuration,
                progress: { phases.append($0.phase) })
            Issue.record("the import did not give up waiting")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_BUSY)
        }
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(phases == [.waitingForWriter])
        #expect(!directory.exists("c.sqlite"))
        #expect(FileManager.default.fileExists(atPath: other.temporaryPath), "the other import's file is left alone")
        other.release()
    }
}
