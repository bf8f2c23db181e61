import Foundation
import Testing
@testable import SQLiteStore

/// Opening options for readers that must not create files, switching to WAL later, and copying
/// a database.
@Suite("Open options, WAL switch and copies")
struct OpenOptionsTests {
    @Test("Immutable and readonly_shm open through a file: URI with the path escaped")
    func openNames() {
        var configuration = Configuration()
        #expect(Connection.openName(path: "/tmp/a b?.sqlite", configuration: configuration) == "/tmp/a b?.sqlite")
        configuration.immutable = true
        #expect(Connection.openName(path: "/tmp/a b?#%é.sqlite", configuration: configuration)
            == "file:/tmp/a%20b%3F%23%25%C3%A9.sqlite?mode=ro&immutable=1")
        configuration.immutable = false
        configuration.readOnlySharedMemory = true
        #expect(Connection.openName(path: "rel/c.sqlite", configuration: configuration) == "file:rel/c.sqlite?mode=ro&readonly_shm=1")
        #expect(Connection.openName(path: ":memory:", configuration: configuration) == ":memory:")
    }

    @Test("An immutable connection reads a WAL database and creates no file; it cannot write")
    func immutableReader() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("weird name ?.sqlite")
        do {
            let db = try Connection(path: path)
            try db.execute("CREATE TABLE t (a); INSERT INTO t VALUES ('x');")
        }
        #expect(try directory.fileNames() == ["weird name ?.sqlite"])
        var configuration = Configuration()
        configuration.immutable = true
        let reader = try Connection(path: path, configuration: configuration)
        #expect(reader.isReadOnly)
        #expect(try reader.scalar("SELECT a FROM t") == "x")
        #expect(throws: DatabaseError.self) { try reader.execute("INSERT INTO t VALUES ('y')") }
        #expect(try directory.fileNames() == ["weird name ?.sqlite"])
    }

    @Test("WAL is switched on later, once, without writing a database already in WAL mode")
    func enableWriteAheadLogging() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("later.sqlite")
        var configuration = Configuration()
        configuration.writeAheadLogging = false
        let db = try Connection(path: path, configuration: configuration)
        try db.execute("CREATE TABLE t (a)")
        #expect(try db.scalar("PRAGMA journal_mode") == "delete")
        try db.enableWriteAheadLogging()
        #expect(try db.scalar("PRAGMA journal_mode") == "wal")
        let changes = db.totalChangedRowCount
        try db.enableWriteAheadLogging()
        #expect(db.totalChangedRowCount == changes)
    }

    @Test("copy(into:) copies every table into another connection, which then writes on its own")
    func copy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try Connection(path: directory.path("source.sqlite"))
        try source.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1), (2);")
        let scratch = try Connection(path: ":memory:")
        try scratch.execute("CREATE TABLE old (x)")
        try source.copy(into: scratch)
        #expect(try scratch.scalar("SELECT count(*) FROM t") == 2)
        #expect(try scratch.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'old'") == 0)
        try scratch.execute("INSERT INTO t VALUES (3)")
        #expect(try source.scalar("SELECT count(*) FROM t") == 2)
    }
}
