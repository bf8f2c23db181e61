import Foundation
import SQLiteStore
import Testing

@Suite("DatabaseQueue")
struct DatabaseQueueTests {
    struct Failure: Error, Equatable {}

    /// A queue on a file in `directory`, with a table `t`.
    static func makeQueue(in directory: TemporaryDirectory) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: directory.path("queue.sqlite"))
        try queue.write { db in
            try db.execute("""
                CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER);
                INSERT INTO t (name, n) VALUES ('a', 1), ('b', 2), ('c', 3);
                """)
        }
        return queue
    }

    /// Every row of `t`, in order, as plain values.
    static func contents(_ queue: DatabaseQueue) throws -> [[DatabaseValue]] {
        try queue.read { db in try db.fetchAll("SELECT * FROM t ORDER BY id") { $0.values } }
    }

    @Test("a call nested in another's closure runs on the open connection, in its transaction")
    func reentrantCalls() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try Self.makeQueue(in: directory)
        try queue.write { db in
            try db.execute("INSERT INTO t (name) VALUES ('d')")
            // A read nested in the write sees the write's uncommitted row.
            #expect(try queue.read { try $0.scalar("SELECT count(*) FROM t") } == 4)
            // A nested write is a savepoint: its failure undoes only its own changes.
            #expect(throws: Failure.self) {
                try queue.write { inner in
                    try inner.execute("INSERT INTO t (name) VALUES ('e')")
                    throw Failure()
                }
            }
            #expect(try queue.inDatabase { try $0.scalar("SELECT count(*) FROM t") } == 4)
        }
        #expect(try Self.contents(queue).count == 4)
        // A write nested in a read is refused, with an error, not a crash.
        let error = try #require(throws: DatabaseError.self) {
            try queue.read { _ in try queue.write { db in try db.execute("INSERT INTO t (name) VALUES ('f')") } }
        }
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(try Self.contents(queue).count == 4)
    }

    @Test("write commits and returns the body's value; read sees it")
    func writeThenRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try Self.makeQueue(in: directory)
        #expect(queue.path == directory.path("queue.sqlite"))
        let id = try queue.write { db -> Int64 in
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO t (name) VALUES (?)", ["d"])
            return db.lastInsertedRowID
        }
        #expect(id == 4)
        #expect(try queue.read { db in try db.scalar("SELECT name FROM t WHERE id = ?", [id]) } == "d")
        #expect(try queue.inDatabase { db in db.isInTransaction } == false)
    }

    @Test("a thrown error inside write leaves the database unchanged")
    func writeRollsBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try Self.makeQueue(in: directory)
        let before = try Self.contents(queue)
        #expect(before.count == 3)
        #expect(throws: Failure()) {
            try queue.write { db in
                try db.execute("INSERT INTO t (name, n) VALUES (?, ?)", ["d", 4])
                try db.execute("UPDATE t SET n = n * 10")
                try db.execute("DELETE FROM t WHERE name = ?", ["a"])
                throw Failure()
            }
        }
        #expect(try Self.contents(queue) == before)
        // A database error thrown inside is rolled back the same way.
        let error = try #require(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute("UPDATE t SET n = 0")
                try db.execute("INSERT INTO t (name) VALUES (NULL)")
            }
        }
        expectError(error, primary: .SQLITE_CONSTRAINT, extended: .SQLITE_CONSTRAINT_NOTNULL,
                    message: "NOT NULL constraint failed: t.name", sql: "INSERT INTO t (name) VALUES (NULL)")
        #expect(try Self.contents(queue) == before)
        // And the same through a second connection to the file.
        let other = try Connection(path: queue.path)
        #expect(try other.fetchAll("SELECT * FROM t ORDER BY id") { $0.values } == before)
    }

    @Test("read refuses writes with SQLITE_READONLY; the queue writes again afterwards")
    func readRefusesWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try Self.makeQueue(in: directory)
        let before = try Self.contents(queue)
        let sql = "DELETE FROM t WHERE id = ?"
        let error = try #require(throws: DatabaseError.self) {
            try queue.read { db in try db.execute(sql, [1]) }
        }
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(error.extendedResultCode == .SQLITE_READONLY)
        #expect(error.message == "attempt to write a readonly database")
        #expect(error.sql == sql)
        #expect(try Self.contents(queue) == before)
        try queue.write { db in try db.execute(sql, [1]) }
        #expect(try Self.contents(queue).count == 2)
        try queue.inDatabase { db in try db.execute("DELETE FROM t") }
        #expect(try Self.contents(queue).isEmpty)
    }

    @Test("read sees one snapshot while another connection commits")
    func readSnapshot() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try Self.makeQueue(in: directory)
        let other = try Connection(path: queue.path)
        let counts = try queue.read { db -> [Int?] in
            let first: Int? = try db.scalar("SELECT count(*) FROM t")
            try other.execute("INSERT INTO t (name) VALUES ('from other')")
            let second: Int? = try db.scalar("SELECT count(*) FROM t")
            return [first, second]
        }
        #expect(counts == [3, 3])
        #expect(try queue.read { db in try db.scalar("SELECT count(*) FROM t") } == 4)
    }

    @Test("async read and write")
    func asyncReadWrite() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try Self.makeQueue(in: directory)
        let id = try await queue.write { db -> Int64 in
            try db.execute("INSERT INTO t (name, n) VALUES (?, ?)", ["async", 42])
            return db.lastInsertedRowID
        }
        let n: Int? = try await queue.read { db in try db.scalar("SELECT n FROM t WHERE id = ?", [id]) }
        #expect(n == 42)
        await #expect(throws: Failure()) {
            try await queue.write { db in
                try db.execute("DELETE FROM t")
                throw Failure()
            }
        }
        let readError = await #expect(throws: DatabaseError.self) {
            try await queue.read { db in try db.execute("DELETE FROM t") }
        }
        expectError(readError, primary: .SQLITE_READONLY, extended: .SQLITE_READONLY,
                    message: "attempt to write a readonly database", sql: "DELETE FROM t")
        #expect(try await queue.read { db in try db.scalar("SELECT count(*) FROM t") } == 4)
    }

    @Test("8 tasks × 100 async writes, with concurrent reads, give the exact count")
    func concurrentAsyncWrites() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try Self.makeQueue(in: directory)
        try await queue.write { db in try db.execute("DELETE FROM t") }
        // WAL without an fsync per commit: 800 commits stay fast on a busy disk.
        try queue.inDatabase { db in try db.execute("PRAGMA synchronous = NORMAL") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<100 {
                        try await queue.write { db in
                            try db.execute("INSERT INTO t (name, n) VALUES (?, ?)", ["task \(task)", index])
                        }
                    }
                }
                group.addTask {
                    var last = 0
                    for _ in 0..<20 {
                        let count: Int = try await queue.read { db in try db.scalar("SELECT count(*) FROM t") ?? -1 }
                        #expect(count >= last)  // counts never go backwards
                        last = count
                    }
                }
            }
            try await group.waitForAll()
        }
        let perTask = try await queue.read { db in
            try db.fetchAll("SELECT name, count(*), sum(n) FROM t GROUP BY name ORDER BY name") { row in
                [try row.decode(String.self, at: 0), String(try row.decode(Int.self, at: 1)),
                 String(try row.decode(Int.self, at: 2))]
            }
        }
        #expect(perTask == (0..<8).map { ["task \($0)", "100", "4950"] })
        #expect(try await queue.read { db in try db.scalar("SELECT count(*) FROM t") } == 800)
    }

    @Test("synchronous writes from many threads are serialized")
    func concurrentSyncWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try Self.makeQueue(in: directory)
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<50 {
                do {
                    try queue.write { db in
                        let next: Int = try db.scalar("SELECT coalesce(max(n), 0) + 1 FROM t") ?? 0
                        try db.execute("INSERT INTO t (name, n) VALUES (?, ?)", ["thread \(thread).\(index)", next])
                    }
                } catch {
                    errors.error = error
                }
            }
        }
        #expect(errors.error == nil)
        // Each write read the maximum and added one: serialized writes leave no duplicate.
        #expect(try queue.read { db in try db.scalar("SELECT count(DISTINCT n) FROM t") } == 203)
        #expect(try queue.read { db in try db.scalar("SELECT max(n) FROM t") } == 203)
    }

    @Test("a queue can take over an open connection")
    func takeOverConnection() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1);")
        let queue = DatabaseQueue(connection: db)
        #expect(queue.path == ":memory:")
        #expect(try queue.read { db in try db.scalar("SELECT a FROM t") } == 1)
    }
}
