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

/// How `Catalogue(path:…)` treats what it finds at the path: a new catalogue is created once,
/// atomically; anything that is not a catalogue is refused untouched; read-only access never
/// writes; a damaged file is never written.
@Suite("Opening a catalogue file", .serialized)
struct CatalogueOpeningTests {
    /// The file's bytes, with its -wal folded in first by a connection of its own.
    static func bytes(_ path: String) throws -> Data {
        try #require(FileManager.default.contents(atPath: path))
    }

    @Test("Read-only access creates a missing catalogue, and never writes an existing one")
    func readOnlyAccess() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        do {
            let created = try Catalogue(path: path, access: .readOnly)
            #expect(created.sqlite!.isReadOnly)
            #expect(try created.rowCount("country") == 250)
            #expect(throws: CatalogueError.readOnly(path: path)) {
                try created.write { db in try db.insert(Product(name: "No", type: "t")) }
            }
        }
        // A rollback-journal catalogue: opening it for writing would switch it to WAL.
        do {
            let db = try Connection(path: path)
            #expect(try db.scalar("PRAGMA journal_mode = DELETE") == "delete")
        }
        let before = try Self.bytes(path)
        do {
            let reader = try Catalogue(path: path, access: .readOnly)
            #expect(try reader.records(CatalogueSearch.countries(matching: "bog", scope: .capital)).map(\.name) == ["Colombia"])
        }
        #expect(try Self.bytes(path) == before)
        let writer = try Catalogue(path: path)
        #expect(!writer.sqlite!.isReadOnly)
        #expect(try writer.database.inDatabase { try $0.scalar("PRAGMA journal_mode") } == "wal")
    }

    @Test("Fuzzy searches read the word index through the connection's temp schema: a read-only or immutable catalogue answers them, and its file is unchanged")
    func fuzzyOnReadOnlyFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        do { _ = try Catalogue(path: path) }
        // A rollback-journal file: a reader in WAL mode would leave -wal and -shm files.
        do {
            let db = try Connection(path: path)
            #expect(try db.scalar("PRAGMA journal_mode = DELETE") == "delete")
        }
        let before = try Self.bytes(path)
        var immutable = Configuration()
        immutable.immutable = true
        for catalogue in [try Catalogue(path: path, access: .readOnly), try Catalogue(path: path, configuration: immutable)] {
            #expect(try catalogue.records(CatalogueSearch.countries(matching: "Columbia", mode: .fuzzy)).map(\.name) == ["Colombia"])
            #expect(try catalogue.records(CatalogueSearch.products(matching: "iphnoe 15", mode: .fuzzy)).map(\.name) == ["iPhone 15 Pro"])
        }
        #expect(try Self.bytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("A SQLite database that is not a catalogue is refused, byte for byte unchanged")
    func foreignDatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("other.sqlite")
        do {
            var configuration = Configuration()
            configuration.writeAheadLogging = false
            let db = try Connection(path: path, configuration: configuration)
            try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        }
        let before = try Self.bytes(path)
        for access in [CatalogueAccess.readWrite, .readOnly] {
            #expect(throws: CatalogueError.notACatalogue(path: path)) { try Catalogue(path: path, access: access) }
        }
        #expect(try Self.bytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["other.sqlite"])
    }

    @Test("Devices, FIFOs and empty files are refused before SQLite opens them")
    func notFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(throws: CatalogueError.notAFile(path: "/dev/null", kind: "a character device")) { try Catalogue(path: "/dev/null") }
        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: CatalogueError.notAFile(path: fifo, kind: "a FIFO (named pipe)")) { try Catalogue(path: fifo) }
        let empty = directory.path("empty")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(throws: CatalogueError.emptyFile(path: empty)) { try Catalogue(path: empty) }
        #expect(throws: CatalogueError.isDirectory(path: directory.url.path)) { try Catalogue(path: directory.url.path) }
    }

    @Test("Threads creating one catalogue at once: all succeed, the seed is loaded once, one says it created the file")
    func concurrentCreation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("nested/new.sqlite")
        let failures = Locked<[String]>([])
        let creators = Locked(0)
        runThreads(8) { _ in
            do {
                let engine = try SQLiteEngine(path: path, access: .readOnly)
                if engine.createdFile { creators.withLock { $0 += 1 } }
                _ = try Catalogue(engine: engine).rowCount("country")
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(creators.withLock { $0 } == 1)
        #expect(try SQLiteEngine(path: path).createdFile == false)
        let catalogue = try Catalogue(path: path)
        #expect(try catalogue.rowCount("country") == 250)
        #expect(try catalogue.rowCount("product") == (try SeedData.products()).count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("nested")).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("Opening a path another process is creating: told once, waits, then opens that catalogue without claiming it")
    func waitsForAnotherCreation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        // This test holds the temporary file's lock, as another process's creation does.
        let creation = try CreationLockHolder(catalogueAt: path)
        let waits = Locked(0)
        let outcome = Locked<String?>(nil)
        let opener = Thread {
            let result = Result {
                try SQLiteEngine(path: path, whileWaitingForCreation: { waits.withLock { $0 += 1 } }).createdFile
            }
            outcome.withLock { $0 = "\(result)" }
        }
        opener.start()
        let deadline = Date().addingTimeInterval(30)
        while waits.withLock({ $0 }) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(waits.withLock { $0 } == 1)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(outcome.withLock { $0 } == nil, "the open did not wait")
        // The other process links its catalogue into place and lets go of its file.
        _ = try Catalogue(path: directory.path("other.sqlite"))
        try #require(link(directory.path("other.sqlite"), path) == 0)
        unlink(creation.temporaryPath)
        creation.release()
        while outcome.withLock({ $0 }) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(outcome.withLock { $0 } == "success(false)")
        #expect(waits.withLock { $0 } == 1)
    }

    @Test("What a killed creation left next to the path is removed by the next open")
    func abandonedCreation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        let leftover = CatalogueCreation.temporaryPath(for: path)
        #expect(leftover == directory.path(".c.sqlite.creating"))
        #expect(CatalogueCreation.temporaryPath(for: "c.sqlite") == "./.c.sqlite.creating")
        #expect(CatalogueCreation.temporaryPath(for: "data/c.sqlite") == "data/.c.sqlite.creating")
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data("half a catalogue".utf8)))
        _ = try Catalogue(path: path)
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data("again".utf8)))
        _ = try Catalogue(path: path, access: .readOnly)
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    @Test("A log left by a deleted database is not replayed into a new catalogue at its path")
    func orphanedLog() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        // A database with committed pages still in its log, deleted without its log.
        let other = directory.path("other.sqlite")
        let db = try Connection(path: other)
        try db.execute("PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (a);")
        try db.execute("INSERT INTO t SELECT zeroblob(500) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) SELECT i FROM n)")
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: path + "-wal")
        try FileManager.default.copyItem(atPath: other + "-shm", toPath: path + "-shm")
        let catalogue = try Catalogue(path: path)
        #expect(try catalogue.rowCount("country") == 250)
        #expect(try catalogue.database.read { try $0.scalar("SELECT count(*) FROM sqlite_master WHERE name = 't'") } == 0)
        #expect(try catalogue.database.read { try $0.scalar("PRAGMA quick_check") } == "ok")
        _ = db
    }

    @Test("An app migration pending: read-only access refuses with what to do; read-write applies it")
    func pendingMigration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        let first = Migration(identifier: "0001_note", sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT);")
        let second = Migration(identifier: "0002_note_kind", sql: "ALTER TABLE note ADD COLUMN kind TEXT;")
        _ = try Catalogue(path: path, appMigrations: [first])
        #expect(throws: CatalogueError.needsMigration(path: path, migration: "0002_note_kind")) {
            try Catalogue(path: path, appMigrations: [first, second], access: .readOnly)
        }
        let upgraded = try Catalogue(path: path, appMigrations: [first, second])
        #expect(try upgraded.database.read { try $0.scalar("SELECT count(*) FROM pragma_table_info('note') WHERE name = 'kind'") } == 1)
        #expect(CatalogueError.needsMigration(path: "c", migration: "0002_x").description.contains("open it for writing once"))
    }

    @Test("A damaged file: the first write is refused by quick_check, nothing is written; reads still work")
    func corruptFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        let page: Int
        do {
            let catalogue = try Catalogue(path: path)
            page = try catalogue.database.read { try $0.scalar("SELECT max(pageno) FROM dbstat WHERE name = 'country'") } ?? 0
        }
        var bytes = try Self.bytes(path)
        bytes[(page - 1) * 4096 + 8] ^= 0x40  // a cell pointer now outside its page
        try bytes.write(to: URL(fileURLWithPath: path))
        let catalogue = try Catalogue(path: path)
        let error = try #require(throws: CatalogueError.self) {
            try catalogue.write { db in try db.insert(Product(name: "Into damage", type: "t")) }
        }
        guard case .corrupt(let errorPath, let detail) = error else {
            Issue.record("expected corrupt, got \(error)")
            return
        }
        #expect(errorPath == path)
        #expect(detail.contains("page \(page)"), "\(detail)")
        #expect(error.description.hasPrefix("\(path): database disk image is malformed ("))
        #expect(throws: CatalogueError.self) {
            try catalogue.importRecords(
                Product.self, from: ImportInput(text: "name,type\nx,y\n", name: "p.csv"), options: ImportOptions(format: .csv))
        }
        #expect(try Self.bytes(path) == bytes)
        #expect(try catalogue.records(CatalogueSearch.products(matching: "ip")).count > 0)
    }

    @Test("A file this user cannot write opens read-only: writes refused, a dry run works on a copy")
    func unwritableFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        _ = try Catalogue(path: path)
        let before = try Self.bytes(path)
        try setImmutable(path, true)
        defer { try? setImmutable(path, false) }
        let catalogue = try Catalogue(path: path)
        #expect(catalogue.sqlite!.isReadOnly)
        let input = { ImportInput(text: "name,type\nDry one,t\n", name: "p.csv") }
        let counts = try catalogue.importRecords(Product.self, from: input(), options: ImportOptions(format: .csv, dryRun: true))
        #expect(counts == ImportCounts(added: 1))
        #expect(throws: CatalogueError.readOnly(path: path)) {
            try catalogue.importRecords(Product.self, from: input(), options: ImportOptions(format: .csv))
        }
        #expect(try catalogue.records(CatalogueSearch.countries(matching: "bog", scope: .capital)).map(\.name) == ["Colombia"])
        #expect(try Self.bytes(path) == before)
        try catalogue.verifyUnchangedSinceOpened()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["c.sqlite"])
    }
}

/// `chattr +i` as root (root ignores permission bits), else `chmod a-w`.
func setImmutable(_ path: String, _ on: Bool) throws {
    if getuid() == 0 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [on ? "+i" : "-i", path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    } else {
        try FileManager.default.setAttributes([.posixPermissions: on ? 0o444 : 0o644], ofItemAtPath: path)
    }
}
