import Foundation
import SQLiteStore
import Testing

@Suite("Functions")
struct FunctionTests {
    struct Refusal: Error, CustomStringConvertible {
        let value: String
        var description: String { "refused \(value)" }
    }

    let db: Connection

    init() throws {
        db = try Connection(path: ":memory:")
        try db.registerFunction("reverse", argumentCount: 1) { arguments in
            guard case .text(let text) = arguments[0] else { return arguments[0] }
            return .text(String(text.reversed()))
        }
    }

    @Test("a registered function works in a query, on bound values and on columns")
    func callFromSQL() throws {
        #expect(try db.scalar("SELECT reverse('abc')") == "cba")
        #expect(try db.scalar("SELECT reverse(?)", ["Bogotá"]) == "átogoB")
        try db.execute("CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('ab'), ('cd');")
        #expect(try db.fetchAll("SELECT reverse(name) FROM t WHERE reverse(name) LIKE 'b%' OR name = 'cd' ORDER BY 1") {
            try $0.decode(String.self, at: 0)
        } == ["ba", "dc"])
    }

    @Test("NULL passes through")
    func nullPassesThrough() throws {
        #expect(try db.fetchOne("SELECT reverse(NULL)") { $0[0] } == .null)
        #expect(try db.fetchOne("SELECT reverse(?)", [Optional<String>.none]) { $0[0] } == .null)
    }

    @Test("a thrown error becomes an SQL error with the error's description")
    func thrownError() throws {
        try db.registerFunction("refuse", argumentCount: 1) { arguments in
            throw Refusal(value: "\(arguments[0])")
        }
        let sql = "SELECT refuse(?)"
        let error = try #require(throws: DatabaseError.self) { try db.scalar(sql, [42]) as Int? }
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.extendedResultCode == .SQLITE_ERROR)
        #expect(error.message == "refused 42")
        #expect(error.sql == sql)
        // The connection is fine afterwards.
        #expect(try db.scalar("SELECT reverse('ok')") == "ko")
    }

    @Test("every kind of value arrives as it was bound and returns as it was made")
    func valuesInAndOut() throws {
        try db.registerFunction("identity", argumentCount: 1) { $0[0] }
        try db.registerFunction("kind", argumentCount: 1) { arguments in
            switch arguments[0] {
            case .null: .text("null")
            case .integer: .text("integer")
            case .real: .text("real")
            case .text: .text("text")
            case .blob: .text("blob")
            }
        }
        let values: [DatabaseValue] = [
            .null, .integer(.min), .integer(.max), .real(-0.0), .real(.infinity), .real(1.5),
            .text(""), .text("a\u{0}b"), .text("👩‍👩‍👧"), .blob(Data()), .blob(Data([0, 255, 0])),
        ]
        for value in values {
            let echoed = try #require(try db.fetchOne("SELECT identity(?), kind(?), typeof(identity(?))",
                                                      [value, value, value]) { $0.values })
            let (returned, kind, sqliteType) = (echoed[0], echoed[1], echoed[2])
            #expect(DatabaseValueTests.identical(returned, value), "\(value) came back as \(returned)")
            #expect(kind == sqliteType, "\(value)")
        }
    }

    @Test("a variadic function receives every argument")
    func variadic() throws {
        try db.registerFunction("total_length", argumentCount: -1) { arguments in
            .integer(Int64(arguments.reduce(0) { sum, value in
                if case .text(let text) = value { return sum + text.count }
                return sum
            }))
        }
        #expect(try db.scalar("SELECT total_length()") == 0)
        #expect(try db.scalar("SELECT total_length('ab', NULL, 'cde', 7)") == 5)
    }

    @Test("registering again replaces the function")
    func replace() throws {
        try db.registerFunction("reverse", argumentCount: 1) { _ in .text("replaced") }
        #expect(try db.scalar("SELECT reverse('abc')") == "replaced")
    }

    @Test("a function exists only on the connection that registered it")
    func perConnection() throws {
        let other = try Connection(path: ":memory:")
        let error = try #require(throws: DatabaseError.self) { try other.scalar("SELECT reverse('abc')") as String? }
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.extendedResultCode == .SQLITE_ERROR)
        #expect(error.message == "no such function: reverse")
        #expect(error.sql == "SELECT reverse('abc')")
    }

    @Test("the wrong number of arguments is an SQL error")
    func wrongArity() throws {
        let error = try #require(throws: DatabaseError.self) { try db.scalar("SELECT reverse('a', 'b')") as String? }
        expectError(error, primary: .SQLITE_ERROR, extended: .SQLITE_ERROR,
                    message: "wrong number of arguments to function reverse()", sql: "SELECT reverse('a', 'b')")
    }

    @Test("a function SQLite refuses to register throws")
    func registrationFailure() throws {
        let error = try #require(throws: DatabaseError.self) {
            try db.registerFunction("too_many", argumentCount: 1000) { _ in .null }
        }
        #expect(error.resultCode == .SQLITE_MISUSE)
        #expect(error.extendedResultCode == .SQLITE_MISUSE)
        #expect(error.message == "bad parameter or other API misuse")
        #expect(error.sql == nil)
    }

    @Test("the closure is released when the connection closes")
    func closureReleased() throws {
        final class Token: Sendable {}
        weak var weakToken: Token?
        do {
            let connection = try Connection(path: ":memory:")
            let token = Token()
            weakToken = token
            try connection.registerFunction("token", argumentCount: 0) { _ in
                withExtendedLifetime(token) { .integer(1) }
            }
            #expect(try connection.scalar("SELECT token()") == 1)
            #expect(weakToken != nil)
        }
        #expect(weakToken == nil)
    }

    @Test("a function may interrupt its own connection's statement")
    func interruptFromFunction() throws {
        let db = try Connection(path: ":memory:")
        try db.registerFunction("stop", argumentCount: 0) { [unowned db] _ in
            db.interrupt()
            return .null
        }
        let sql = "SELECT stop() FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3)"
        let error = try #require(throws: DatabaseError.self) { try db.fetchAll(sql) { $0[0] } }
        #expect(error.resultCode == .SQLITE_INTERRUPT)
        #expect(error.extendedResultCode == .SQLITE_INTERRUPT)
        #expect(error.message == "interrupted")
        #expect(error.sql == sql)
        #expect(try db.scalar("SELECT 1") == 1)
    }
}
