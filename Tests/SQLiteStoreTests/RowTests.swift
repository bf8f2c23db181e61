import Foundation
import SQLiteStore
import Testing

@Suite("Row")
struct RowTests {
    let db: Connection

    init() throws {
        db = try Connection(path: ":memory:")
    }

    @Test("values, count, and subscripts by index and by name")
    func readingColumns() throws {
        let row = try db.fetchOne("SELECT 1 AS one, 'two' AS two, NULL AS three") { row in
            (row.count, row.values, row["two"], row["TWO"], row["missing"], row[0])
        }
        let (count, values, two, twoFolded, missing, first) = try #require(row)
        #expect(count == 3)
        #expect(values == [.integer(1), .text("two"), .null])
        #expect(two == .text("two"))
        #expect(twoFolded == .text("two"))
        #expect(missing == .null)
        #expect(first == .integer(1))
    }

    @Test("decoding NULL into a non-optional type throws RowDecodingError")
    func nullIntoNonOptional() throws {
        let sql = "SELECT NULL AS year"
        let error = try #require(throws: RowDecodingError.self) {
            try db.fetchOne(sql) { try $0.decode(Int.self, named: "year") }
        }
        #expect(error.column == "year")
        #expect(error.value == .null)
        #expect(error.type == "Int")
        #expect(error.sql == sql)
        #expect(error.description == "column year: cannot read NULL as Int - while reading `SELECT NULL AS year`")
    }

    @Test("decoding text into a number, or a fraction into an integer, throws")
    func mismatchedTypes() throws {
        let textError = try #require(throws: RowDecodingError.self) {
            try db.fetchOne("SELECT '12' AS n") { try $0.decode(Int.self, at: 0) }
        }
        #expect(textError.value == .text("12"))
        let fractionError = try #require(throws: RowDecodingError.self) {
            try db.fetchOne("SELECT 2.5 AS n") { try $0.decode(Int64.self, at: 0) }
        }
        #expect(fractionError.value == .real(2.5))
        #expect(fractionError.type == "Int64")
        // A whole double converts exactly.
        #expect(try db.fetchOne("SELECT 2.0") { try $0.decode(Int.self, at: 0) } == 2)
    }

    @Test("decoding a column that does not exist throws, with no value")
    func missingColumn() throws {
        let error = try #require(throws: RowDecodingError.self) {
            try db.fetchOne("SELECT 1 AS a") { try $0.decode(Int.self, named: "b") }
        }
        #expect(error.column == "b")
        #expect(error.value == nil)
        #expect(error.description == "no column named b - while reading `SELECT 1 AS a`")
    }

    @Test("fetchAll, fetchOne, forEachRow and scalar")
    func fetching() throws {
        try db.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (3), (1), (2);")
        #expect(try db.fetchAll("SELECT n FROM t ORDER BY n") { try $0.decode(Int.self, at: 0) } == [1, 2, 3])
        #expect(try db.fetchOne("SELECT n FROM t WHERE n > ? ORDER BY n", [1]) { try $0.decode(Int.self, at: 0) } == 2)
        #expect(try db.fetchOne("SELECT n FROM t WHERE n > 5") { try $0.decode(Int.self, at: 0) } == nil)
        var sum = 0
        try db.forEachRow("SELECT n FROM t") { sum += try $0.decode(Int.self, at: 0) }
        #expect(sum == 6)
        #expect(try db.scalar("SELECT count(*) FROM t") == 3)
        #expect(try db.scalar("SELECT NULL") as Int? == nil)
        #expect(try db.scalar("SELECT n FROM t WHERE n > 5") as Int? == nil)
    }

    @Test("an error thrown by a row transform stops the fetch and leaves the statement reusable")
    func transformError() throws {
        struct Stop: Error {}
        try db.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3);")
        var seen: [Int] = []
        #expect(throws: Stop.self) {
            try db.forEachRow("SELECT n FROM t ORDER BY n") { row in
                seen.append(try row.decode(Int.self, at: 0))
                if seen.count == 2 { throw Stop() }
            }
        }
        #expect(seen == [1, 2])
        #expect(try db.fetchAll("SELECT n FROM t ORDER BY n") { try $0.decode(Int.self, at: 0) } == [1, 2, 3])
    }
}
