import Foundation
import SQLiteStore
import Testing

@Suite("Connection")
struct ConnectionTests {
    @Test("opens and creates a database file in a directory")
    func openAndCreate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("new.sqlite")
        #expect(!directory.exists("new.sqlite"))
        let db = try Connection(path: path)
        #expect(db.path == path)
        #expect(!db.isInMemory)
        try db.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1);")
        #expect(directory.exists("new.sqlite"))
        #expect(try Connection(path: path).scalar("SELECT a FROM t") == 1)
    }

    @Test("write-ahead logging is on for files, off for memory or when configured off")
    func journalMode() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Connection(path: directory.path("wal.sqlite"))
        #expect(try db.scalar("PRAGMA journal_mode") == "wal")
        try db.execute("CREATE TABLE t (a)")
        #expect(directory.exists("wal.sqlite-wal"))
        #expect(try Connection(path: ":memory:").scalar("PRAGMA journal_mode") == "memory")
        #expect(try Connection(path: ":memory:").isInMemory)
        var configuration = Configuration()
        configuration.writeAheadLogging = false
        #expect(try Connection(path: directory.path("rollback.sqlite"), configuration: configuration)
            .scalar("PRAGMA journal_mode") == "delete")
    }

    @Test("foreign keys are enforced unless configured off")
    func foreignKeys() throws {
        let db = try Connection(path: ":memory:")
        #expect(try db.scalar("PRAGMA foreign_keys") == 1)
        var configuration = Configuration()
        configuration.foreignKeys = false
        #expect(try Connection(path: ":memory:", configuration: configuration).scalar("PRAGMA foreign_keys") == 0)
    }

    @Test("a read-only connection reads but refuses writes with SQLITE_READONLY")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("ro.sqlite")
        try Connection(path: path).execute("CREATE TABLE t (a); INSERT INTO t VALUES (1);")
        var configuration = Configuration()
        configuration.readOnly = true
        let db = try Connection(path: path, configuration: configuration)
        #expect(try db.scalar("SELECT a FROM t") == 1)
        let sql = "INSERT INTO t VALUES (?)"
        let error = try #require(throws: DatabaseError.self) { try db.execute(sql, [2]) }
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(error.extendedResultCode == .SQLITE_READONLY)
        #expect(error.message == "attempt to write a readonly database")
        #expect(error.sql == sql)
        let ddl = try #require(throws: DatabaseError.self) { try db.execute("CREATE TABLE u (b)") }
        expectError(ddl, primary: .SQLITE_READONLY, extended: .SQLITE_READONLY,
                    message: "attempt to write a readonly database", sql: "CREATE TABLE u (b)")
        #expect(try db.scalar("SELECT count(*) FROM t") == 1)
    }

    @Test("opening a missing file read-only, or without create, fails with SQLITE_CANTOPEN")
    func missingFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var readOnly = Configuration()
        readOnly.readOnly = true
        var noCreate = Configuration()
        noCreate.createIfMissing = false
        for configuration in [readOnly, noCreate] {
            let path = directory.path("missing.sqlite")
            let error = try #require(throws: DatabaseError.self) { try Connection(path: path, configuration: configuration) }
            #expect(error.resultCode == .SQLITE_CANTOPEN)
            #expect(error.extendedResultCode == .SQLITE_CANTOPEN)
            #expect(error.message == "unable to open database file (\(path))")
            #expect(error.sql == nil)
        }
        #expect(try directory.fileNames() == [])
        let nested = directory.path("no/such/dir.sqlite")
        let error = try #require(throws: DatabaseError.self) { try Connection(path: nested) }
        expectError(error, primary: .SQLITE_CANTOPEN, extended: .SQLITE_CANTOPEN,
                    message: "unable to open database file (\(nested))", sql: nil)
    }

    @Test("a text file is refused with SQLITE_NOTADB and left byte for byte unchanged", arguments: [false, true])
    func notADatabase(readOnly: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("notes.txt")
        let text = Data(String(repeating: "hello, this is not a database\n", count: 200).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        var configuration = Configuration()
        configuration.readOnly = readOnly
        let error = try #require(throws: DatabaseError.self) { try Connection(path: path, configuration: configuration) }
        #expect(error.resultCode == .SQLITE_NOTADB)
        #expect(error.extendedResultCode == .SQLITE_NOTADB)
        #expect(error.message == "file is not a database")
        #expect(error.sql == "SELECT count(*) FROM sqlite_master")
        #expect(directory.contents(of: "notes.txt") == text)
        #expect(try directory.fileNames() == ["notes.txt"])  // no -wal, -shm or -journal left behind
    }

    @Test("the busy timeout waits for a lock, then fails with SQLITE_BUSY", .timeLimit(.minutes(1)))
    func busyTimeout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let holder = try Connection(path: path)
        try holder.execute("CREATE TABLE t (a)")
        var configuration = Configuration()
        configuration.busyTimeout = .milliseconds(300)
        let db = try Connection(path: path, configuration: configuration)
        try holder.execute("BEGIN IMMEDIATE")  // the write lock

        let sql = "INSERT INTO t VALUES (?)"
        let start = ContinuousClock.now
        let error = try #require(throws: DatabaseError.self) { try db.execute(sql, [1]) }
        let waited = ContinuousClock.now - start
        #expect(error.resultCode == .SQLITE_BUSY)
        #expect(error.extendedResultCode == .SQLITE_BUSY)
        #expect(error.message == "database is locked")
        #expect(error.sql == sql)
        // A lower bound only: sleeping under load only makes the wait longer. (That it gives up
        // at all is the error above; the suite's time limit turns a hang into a failure.)
        #expect(waited >= .milliseconds(250), "gave up after \(waited)")
        #expect(holder.isInTransaction, "the holder still had the lock when the wait ended")
        #expect(!db.isInTransaction)

        // Readers are not blocked by the writer (WAL).
        #expect(try db.scalar("SELECT count(*) FROM t") == 0)
        try holder.execute("COMMIT")
        try db.execute(sql, [1])
        #expect(try holder.scalar("SELECT count(*) FROM t") == 1)
    }

    @Test("a zero write-lock timeout fails at once, without waiting")
    func zeroBusyTimeout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let holder = try Connection(path: path)
        try holder.execute("CREATE TABLE t (a); BEGIN IMMEDIATE;")
        var configuration = Configuration()
        configuration.busyTimeout = .zero
        configuration.writeLockTimeout = .zero
        let db = try Connection(path: path, configuration: configuration)
        var waited = false
        let error = try #require(throws: DatabaseError.self) {
            try db.transaction(.immediate, whileWaiting: { waited = true }) {}
        }
        #expect(!waited, "a zero timeout must not start to wait")
        expectError(error, primary: .SQLITE_BUSY, extended: .SQLITE_BUSY,
                    message: "database is locked", sql: "BEGIN IMMEDIATE TRANSACTION")
    }

    @Test("a write transaction waits for another writer, and reports that it waits", .timeLimit(.minutes(1)))
    func waitsForLock() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wait.sqlite")
        let db = try Connection(path: path)
        try db.execute("CREATE TABLE t (a)")
        let locked = DispatchSemaphore(value: 0)
        let waiting = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let holderError = ErrorBox()
        Thread.detachNewThread {
            do {
                let holder = try Connection(path: path)
                try holder.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES ('holder');")
                locked.signal()
                // Commit only once the writer says it is waiting: no clock involved.
                waiting.wait()
                try holder.execute("COMMIT")
            } catch {
                holderError.error = error
                locked.signal()
            }
            finished.signal()
        }
        locked.wait()
        var reported = 0
        try db.transaction(.immediate, whileWaiting: {
            reported += 1
            waiting.signal()
        }) {
            try db.execute("INSERT INTO t VALUES (?)", ["waiter"])
        }
        finished.wait()
        #expect(reported == 1)
        #expect(holderError.error == nil)
        #expect(try db.fetchAll("SELECT a FROM t ORDER BY rowid") { try $0.decode(String.self, at: 0) } == ["holder", "waiter"])
    }

    @Test("a write transaction waits past the busy timeout (by default as long as it takes)", .timeLimit(.minutes(1)))
    func waitsPastBusyTimeout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("patient.sqlite")
        var configuration = Configuration()
        configuration.busyTimeout = .milliseconds(50)
        nonisolated(unsafe) let db = try Connection(path: path, configuration: configuration)
        try db.execute("CREATE TABLE t (a)")
        let holder = try Connection(path: path)
        try holder.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES ('holder');")
        let waiting = DispatchSemaphore(value: 0)
        let result = ErrorBox()
        Thread.detachNewThread {
            do {
                try db.transaction(.immediate, whileWaiting: { waiting.signal() }) {
                    try db.execute("INSERT INTO t VALUES ('waiter')")
                }
            } catch {
                result.error = error
            }
            result.set()
        }
        waiting.wait()
        // Ten busy timeouts later the writer is still waiting, not failed.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!result.isSet, "the writer gave up: \(String(describing: result.error))")
        try holder.execute("COMMIT")
        while !result.isSet { Thread.sleep(forTimeInterval: 0.01) }
        #expect(result.error == nil)
        #expect(try holder.scalar("SELECT count(*) FROM t") == 2)
    }

    @Test("writeLockTimeout limits the wait: SQLITE_BUSY, after reporting the wait once", .timeLimit(.minutes(1)))
    func writeLockTimeout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("limited.sqlite")
        let holder = try Connection(path: path)
        try holder.execute("CREATE TABLE t (a); BEGIN IMMEDIATE;")
        var configuration = Configuration()
        configuration.writeLockTimeout = .milliseconds(500)
        let db = try Connection(path: path, configuration: configuration)
        var reported = 0
        let start = ContinuousClock.now
        let error = try #require(throws: DatabaseError.self) {
            try db.transaction(.immediate, whileWaiting: { reported += 1 }) {}
        }
        #expect(ContinuousClock.now - start >= .milliseconds(450))
        #expect(reported == 1)
        #expect(error.resultCode == .SQLITE_BUSY)
        #expect(holder.isInTransaction)
        // The busy timeout of other statements is back to its configured value.
        #expect(try db.scalar("PRAGMA busy_timeout") == 5000)
    }

    @Test("execute runs a script of several statements, with comments and empty statements")
    func script() throws {
        let db = try Connection(path: ":memory:")
        let compiled = db.compiledStatementCount
        try db.execute("""
            -- a comment
            CREATE TABLE t (a TEXT);;
            INSERT INTO t VALUES ('x; y'); /* block comment */ INSERT INTO t VALUES ('z');
            UPDATE t SET a = a || '!' WHERE a = 'z';

            """)
        #expect(db.compiledStatementCount == compiled + 4)
        #expect(try db.fetchAll("SELECT a FROM t ORDER BY rowid") { try $0.decode(String.self, at: 0) } == ["x; y", "z!"])
        #expect(db.changedRowCount == 1)
        try db.execute("  ")  // nothing to run
    }

    @Test("one statement only in makeStatement and in execute with arguments")
    func multipleStatementsRefused() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (a)")
        for sql in ["SELECT 1; SELECT 2", "INSERT INTO t VALUES (?); DELETE FROM t"] {
            let error = try #require(throws: DatabaseError.self) {
                if sql.contains("?") { try db.execute(sql, [1]) } else { _ = try db.makeStatement(sql) }
            }
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.extendedResultCode == .SQLITE_MISUSE)
            #expect(error.message == "more than one statement; use execute(_:) without arguments for SQL scripts")
            #expect(error.sql == sql)
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == 0)
        #expect(try db.makeStatement("SELECT 1; \n ;").sql == "SELECT 1; \n ;")
        let empty = try #require(throws: DatabaseError.self) { try db.makeStatement("  -- nothing") }
        #expect(empty.extendedResultCode == .SQLITE_MISUSE)
        #expect(empty.message == "no statement in SQL")
        #expect(empty.sql == "  -- nothing")
    }

    @Test("last inserted rowid, changed rows and total changes")
    func changeCounters() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a)")
        #expect(db.totalChangedRowCount == 0)
        try db.execute("INSERT INTO t (id, a) VALUES (?, ?)", [41, "x"])
        #expect(db.lastInsertedRowID == 41)
        try db.execute("INSERT INTO t (a) VALUES ('y'), ('z')")
        #expect(db.lastInsertedRowID == 43)
        #expect(db.changedRowCount == 2)
        try db.execute("UPDATE t SET a = 'w'")
        #expect(db.changedRowCount == 3)
        #expect(db.totalChangedRowCount == 6)
    }

    @Test("interrupt stops a running statement with SQLITE_INTERRUPT")
    func interrupt() throws {
        nonisolated(unsafe) let db = try Connection(path: ":memory:")
        let done = ErrorBox()
        Thread.detachNewThread {
            while !done.isSet {
                db.interrupt()
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        defer { done.set() }
        let sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        let error = try #require(throws: DatabaseError.self) { try db.scalar(sql) as Int? }
        done.set()
        expectError(error, primary: .SQLITE_INTERRUPT, extended: .SQLITE_INTERRUPT, message: "interrupted", sql: sql)
    }

    @Test("sqliteVersion is the library's version")
    func version() throws {
        let db = try Connection(path: ":memory:")
        #expect(try db.scalar("SELECT sqlite_version()") == Connection.sqliteVersion)
        #expect(Connection.sqliteVersion.hasPrefix("3."))
    }
}

/// A thread-safe slot for an error, and a flag, shared with a background thread.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storedError: (any Error)?
    private var flag = false

    var error: (any Error)? {
        get { lock.withLock { storedError } }
        set { lock.withLock { storedError = newValue } }
    }

    var isSet: Bool { lock.withLock { flag } }

    func set() { lock.withLock { flag = true } }
}
