import Foundation
import SQLiteStore
import Testing

/// Round-trips of every SQLite storage class through bind → column read, by index and by name.
@Suite("DatabaseValue round-trips")
struct DatabaseValueTests {
    let db: Connection

    init() throws {
        db = try Connection(path: ":memory:")
        // `v` has no declared type (BLOB affinity), so SQLite stores exactly what is bound.
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
    }

    /// What came back for one stored value.
    struct Stored {
        let byIndex: DatabaseValue
        let byName: DatabaseValue
        let statementValue: DatabaseValue
        let typeName: String
    }

    /// Inserts `value` with a bound parameter, then reads it back by column index, by column
    /// name and straight from the statement, along with SQLite's `typeof()`.
    func store(_ value: DatabaseValue) throws -> Stored {
        try db.execute("INSERT INTO t (v) VALUES (?)", [value])
        let id = db.lastInsertedRowID
        let stored = try db.fetchOne("SELECT v, typeof(v) AS type_name FROM t WHERE id = ?", [id]) { row in
            Stored(byIndex: row[0], byName: row["v"], statementValue: row.statement.value(at: 0),
                   typeName: try row.decode(String.self, named: "type_name"))
        }
        return try #require(stored)
    }

    /// `SELECT ?`: the bound value read back without any storage in between.
    func select(_ value: DatabaseValue) throws -> DatabaseValue {
        try #require(try db.fetchOne("SELECT ? AS value", [value]) { $0["value"] })
    }

    /// Equality that tells -0.0 from 0.0 and compares text byte for byte (Swift's `String ==`
    /// treats canonically equivalent strings as equal).
    static func identical(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        switch (a, b) {
        case let (.real(x), .real(y)): x.bitPattern == y.bitPattern
        case let (.text(x), .text(y)): Array(x.utf8) == Array(y.utf8)
        default: a == b
        }
    }

    static let samples: [DatabaseValue] = [
        .null, .integer(0), .integer(-1), .integer(.min), .integer(.max),
        .real(0.0), .real(-0.0), .real(1.5), .real(-2.25e-308), .real(.greatestFiniteMagnitude),
        .real(.leastNonzeroMagnitude), .real(.infinity), .real(-.infinity),
        .text(""), .text("a\u{0}b"), .text("Bogotá"), .text("e\u{301}"), .text("👩‍👩‍👧‍👦 🇨🇴 ✓"),
        .blob(Data()), .blob(Data([0, 1, 2, 0xff, 0])),
    ]

    @Test("every sample round-trips through a column, by index and by name", arguments: DatabaseValueTests.samples)
    func roundTripThroughColumn(value: DatabaseValue) throws {
        let stored = try store(value)
        #expect(Self.identical(stored.byIndex, value), "by index: \(stored.byIndex)")
        #expect(Self.identical(stored.byName, value), "by name: \(stored.byName)")
        #expect(Self.identical(stored.statementValue, value))
        let expectedType = switch value {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
        #expect(stored.typeName == expectedType)
    }

    @Test("every sample round-trips through SELECT ?", arguments: DatabaseValueTests.samples)
    func roundTripThroughSelect(value: DatabaseValue) throws {
        let selected = try select(value)
        #expect(Self.identical(selected, value), "got \(selected)")
    }

    @Test("NULL and the empty string are distinct")
    func emptyStringIsNotNull() throws {
        #expect(try store(.text("")).byIndex == .text(""))
        #expect(try store(.null).byIndex == .null)
        #expect(try db.scalar("SELECT count(*) FROM t WHERE v IS NULL") == 1)
        #expect(try db.scalar("SELECT count(*) FROM t WHERE v = ''") == 1)
        let strings = try db.fetchAll("SELECT v FROM t ORDER BY id") { try $0.decode(String?.self, at: 0) }
        #expect(strings == ["", nil])
    }

    @Test("NULL and the empty blob are distinct")
    func emptyBlobIsNotNull() throws {
        #expect(try store(.blob(Data())).byIndex == .blob(Data()))
        #expect(try store(.null).byIndex == .null)
        #expect(try db.scalar("SELECT count(*) FROM t WHERE v IS NULL") == 1)
        #expect(try db.scalar("SELECT count(*) FROM t WHERE v = x''") == 1)
        let blobs = try db.fetchAll("SELECT v FROM t ORDER BY id") { try $0.decode(Data?.self, at: 0) }
        #expect(blobs == [Data(), nil])
    }

    @Test("Int64.min and Int64.max")
    func integerExtremes() throws {
        try db.execute("INSERT INTO t (v) VALUES (?), (?)", [Int64.min, Int64.max])
        let values = try db.fetchAll("SELECT v FROM t ORDER BY id") { try $0.decode(Int64.self, named: "v") }
        #expect(values == [.min, .max])
        #expect(try db.scalar("SELECT max(v) - 1 FROM t") == Int64.max - 1)
    }

    @Test("-0.0 keeps its sign, infinities stay infinite")
    func specialDoubles() throws {
        let negativeZero = try #require(try store(.real(-0.0)).byIndex.asDouble)
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        let positiveZero = try #require(try store(.real(0.0)).byIndex.asDouble)
        #expect(positiveZero.sign == .plus)
        #expect(try store(.real(.infinity)).byName == .real(.infinity))
        #expect(try store(.real(-.infinity)).byName == .real(-.infinity))
        let doubles = try db.fetchAll("SELECT v FROM t ORDER BY id") { try $0.decode(Double.self, at: 0) }
        #expect(doubles.map(\.bitPattern) == [(-0.0).bitPattern, 0.0.bitPattern, Double.infinity.bitPattern,
                                              (-Double.infinity).bitPattern])
    }

    @Test("NaN is stored as NULL (SQLite has no NaN)")
    func nanBecomesNull() throws {
        #expect(Double.nan.databaseValue == .null)
        let stored = try store(.real(.nan))
        #expect(stored.byIndex == .null)
        #expect(stored.typeName == "null")
        try db.execute("INSERT INTO t (v) VALUES (?)", [Double.nan])
        #expect(try db.scalar("SELECT count(*) FROM t WHERE v IS NULL") == 2)
        #expect(try select(.real(.nan)) == .null)
        #expect(try db.fetchOne("SELECT ?", [Double.nan]) { try $0.decode(Double?.self, at: 0) } == .some(nil))
    }

    @Test("text keeps an embedded NUL")
    func textWithNul() throws {
        let text = "a\u{0}b"
        let stored = try store(.text(text))
        #expect(stored.byIndex == .text(text))
        #expect(try db.scalar("SELECT hex(v) FROM t") == "610062")
        #expect(try db.scalar("SELECT length(CAST(v AS BLOB)) FROM t") == 3)
        let statement = try db.makeStatement("SELECT v FROM t")
        #expect(try statement.step())
        #expect(statement.string(at: 0).utf8.count == 3)
        #expect(statement.string(at: 0) == text)
    }

    @Test("diacritics and emoji keep their exact bytes (NFC and NFD stay distinct)")
    func unicodeText() throws {
        let composed = "Bogot\u{E1}"
        let decomposed = "Bogota\u{301}"
        #expect(try store(.text(composed)).byIndex == .text(composed))
        #expect(try store(.text(decomposed)).byIndex == .text(decomposed))
        #expect(try db.fetchAll("SELECT hex(v) FROM t ORDER BY id") { try $0.decode(String.self, at: 0) }
            == ["426F676F74C3A1", "426F676F7461CC81"])
        #expect(try db.scalar("SELECT count(DISTINCT v) FROM t") == 2)
        let emoji = "👩‍👩‍👧‍👦🇨🇴"
        let read: String? = try db.fetchOne("SELECT ?", [emoji]) { try $0.decode(String.self, at: 0) }
        #expect(read.map { Array($0.utf8) } == Array(emoji.utf8))
    }

    @Test("a 1 MB blob of random bytes")
    func largeBlob() throws {
        var generator = SystemRandomNumberGenerator()
        let blob = Data((0..<1_048_576).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let stored = try store(.blob(blob))
        #expect(stored.byIndex == .blob(blob))
        #expect(stored.byName == .blob(blob))
        #expect(try db.scalar("SELECT length(v) FROM t") == 1_048_576)
        let statement = try db.makeStatement("SELECT v FROM t")
        #expect(try statement.step())
        #expect(statement.data(at: 0) == blob)
    }

    @Test("Bool, Int and Optional")
    func swiftConvenienceTypes() throws {
        try db.execute("INSERT INTO t (v) VALUES (?), (?), (?), (?), (?)",
                       [true, false, 42, Optional<Int>.none, Optional<Int>.some(-7)])
        #expect(try db.fetchAll("SELECT typeof(v), v FROM t ORDER BY id") { row in
            try row.decode(String.self, at: 0)
        } == ["integer", "integer", "integer", "null", "integer"])
        let bools = try db.fetchAll("SELECT v FROM t WHERE id <= 2 ORDER BY id") { try $0.decode(Bool.self, at: 0) }
        #expect(bools == [true, false])
        let ints = try db.fetchAll("SELECT v FROM t WHERE id > 2 ORDER BY id") { try $0.decode(Int?.self, named: "v") }
        #expect(ints == [42, nil, -7])
        #expect(Int.max.databaseValue == .integer(.max))
        #expect(try db.fetchOne("SELECT ?", [Int.min]) { try $0.decode(Int.self, at: 0) } == Int.min)
        #expect(try db.fetchOne("SELECT ?", [Optional<String>.none]) { try $0.decode(String?.self, at: 0) } == .some(nil))
        #expect(try db.fetchOne("SELECT 2") { try $0.decode(Bool.self, at: 0) } == true)
    }

    @Test("conversions between DatabaseValue and Swift types")
    func conversions() {
        #expect(Int64.fromDatabaseValue(.real(2.0)) == 2)
        #expect(Int64.fromDatabaseValue(.real(2.5)) == nil)
        #expect(Int64.fromDatabaseValue(.text("2")) == nil)
        #expect(Int.fromDatabaseValue(.null) == nil)
        #expect(Double.fromDatabaseValue(.integer(3)) == 3.0)
        #expect(String.fromDatabaseValue(.integer(3)) == nil)
        #expect(Data.fromDatabaseValue(.text("é")) == Data([0xC3, 0xA9]))
        #expect(Bool.fromDatabaseValue(.text("true")) == nil)
        #expect(Int?.fromDatabaseValue(.null) == .some(nil))
        #expect(Int?.fromDatabaseValue(.text("x")) == nil)
        #expect(DatabaseValue.null.isNull)
        #expect(!DatabaseValue.text("").isNull)
        #expect(!DatabaseValue.blob(Data()).isNull)
        #expect(DatabaseValue.text("x").description == "\"x\"")
        #expect(DatabaseValue.blob(Data([1, 2])).description == "<2 bytes>")
        #expect(DatabaseValue.null.description == "NULL")
    }
}

extension DatabaseValue {
    fileprivate var asDouble: Double? {
        if case .real(let double) = self { return double }
        return nil
    }
}
