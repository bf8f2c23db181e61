import SQLiteStore
import Testing

/// `Connection.remembered(_:_:)`: a value is computed again only when the database changed.
@Suite("Remembered values")
struct RememberedTests {
    @Test("Reused while nothing changes; computed again after a row change here, a commit elsewhere, a schema change")
    func invalidation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Connection(path: directory.path("remembered.sqlite"))
        let other = try Connection(path: directory.path("remembered.sqlite"))
        try db.execute("CREATE TABLE t (x INTEGER)")
        var computed = 0
        func count() throws -> Int {
            try db.remembered("count") {
                computed += 1
                return try db.scalar("SELECT count(*) FROM t") ?? -1
            }
        }
        #expect(try count() == 0 && computed == 1)
        #expect(try count() == 0 && computed == 1, "nothing changed")
        try db.execute("INSERT INTO t VALUES (1)")
        #expect(try count() == 1 && computed == 2, "a row changed on this connection")
        try other.execute("INSERT INTO t VALUES (2)")
        #expect(try count() == 2 && computed == 3, "another connection committed")
        try db.execute("CREATE TABLE u (y)")
        #expect(try count() == 2 && computed == 4, "the schema changed")
        #expect(try count() == 2 && computed == 4)
        // Inside a write transaction every call computes, and nothing is kept after a rollback.
        struct Rollback: Error {}
        #expect(throws: Rollback.self) {
            try db.transaction(.immediate) {
                try db.execute("DELETE FROM t")
                #expect(try count() == 0 && computed == 5)
                #expect(try count() == 0 && computed == 6)
                throw Rollback()
            }
        }
        #expect(try count() == 2 && computed == 7)
        // Another key, another value; a value of another type under the key is computed again.
        #expect(try db.remembered("name") { "t" } == "t")
        #expect(try db.remembered("count") { "not an Int" } == "not an Int")
    }
}
