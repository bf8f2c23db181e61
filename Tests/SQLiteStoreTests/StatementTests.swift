import Foundation
import SQLiteStore
import Testing

@Suite("Statement")
struct StatementTests {
    let db: Connection

    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE product (id INTEGER PRIMARY KEY, name TEXT NOT NULL, year INTEGER, price REAL);
            INSERT INTO product (name, year, price) VALUES ('iPod', 2001, 399.0), ('iPhone', 2007, 599.0),
                ('iPad', 2010, 499.0);
            """)
    }

    @Test("named parameters with :name, @name and $name, one name used twice")
    func namedParameters() throws {
        let names = try db.fetchAll(
            "SELECT name FROM product WHERE year >= :from AND year <= :to ORDER BY year",
            [":from": 2005, ":to": 2010]) { try $0.decode(String.self, at: 0) }
        #expect(names == ["iPhone", "iPad"])

        let statement = try db.makeStatement("SELECT @a, $b, @a + 1, :a")
        #expect(statement.parameterCount == 3)
        try statement.bind(["$b": "b", "@a": 41])
        #expect(try statement.step())
        #expect(statement.value(at: 0) == .integer(41))
        #expect(statement.value(at: 1) == .text("b"))
        #expect(statement.value(at: 2) == .integer(42))
        #expect(statement.value(at: 3) == .null)  // the prefix is part of the name: :a is not @a
    }

    @Test("a named parameter left out is NULL")
    func missingNamedParameterIsNull() throws {
        let statement = try db.makeStatement("SELECT :a, :b")
        try statement.bind([":a": 1])
        #expect(try statement.step())
        #expect(statement.isNull(at: 1))
        #expect(!statement.isNull(at: 0))
    }

    @Test("an unknown parameter name is SQLITE_RANGE")
    func unknownParameterName() throws {
        let sql = "SELECT name FROM product WHERE id = :id"
        for name in [":nope", "id"] {  // unknown, and missing its prefix
            let error = try #require(throws: DatabaseError.self) {
                try db.fetchAll(sql, StatementArguments(named: [name: .integer(1)])) { $0[0] }
            }
            #expect(error.resultCode == .SQLITE_RANGE)
            #expect(error.extendedResultCode == .SQLITE_RANGE)
            #expect(error.message == "no statement parameter named \(name)")
            #expect(error.sql == sql)
            #expect(error.arguments == nil)
        }
    }

    @Test("too few or too many positional arguments is SQLITE_RANGE", arguments: [0, 1, 3])
    func wrongArgumentCount(count: Int) throws {
        let sql = "INSERT INTO product (name, year) VALUES (?, ?)"
        let arguments = StatementArguments((0..<count).map { .integer(Int64($0)) })
        let before: Int? = try db.scalar("SELECT count(*) FROM product")
        let error = try #require(throws: DatabaseError.self) { try db.makeStatement(sql).execute(arguments) }
        #expect(error.resultCode == .SQLITE_RANGE)
        #expect(error.extendedResultCode == .SQLITE_RANGE)
        #expect(error.message == "wrong number of statement arguments: expected 2, got \(count)")
        #expect(error.sql == sql)
        #expect(try db.scalar("SELECT count(*) FROM product") == before)
    }

    @Test("the same check applies through execute and fetchAll")
    func wrongArgumentCountThroughConnection() throws {
        let insert = "INSERT INTO product (name, year) VALUES (?, ?)"
        let error = try #require(throws: DatabaseError.self) { try db.execute(insert, ["x"]) }
        expectError(error, primary: .SQLITE_RANGE, extended: .SQLITE_RANGE,
                    message: "wrong number of statement arguments: expected 2, got 1", sql: insert)
        let select = "SELECT name FROM product WHERE id = ?"
        let fetchError = try #require(throws: DatabaseError.self) { try db.fetchAll(select) { $0[0] } }
        expectError(fetchError, primary: .SQLITE_RANGE, extended: .SQLITE_RANGE,
                    message: "wrong number of statement arguments: expected 1, got 0", sql: select)
    }

    @Test("binding one value at an index out of range is SQLITE_RANGE")
    func bindAtIndexOutOfRange() throws {
        let sql = "SELECT ?"
        let statement = try db.makeStatement(sql)
        try statement.bind(.integer(1), at: 1)
        let error = try #require(throws: DatabaseError.self) { try statement.bind(.integer(2), at: 2) }
        #expect(error.resultCode == .SQLITE_RANGE)
        #expect(error.extendedResultCode == .SQLITE_RANGE)
        #expect(error.message == "column index out of range")
        #expect(error.sql == sql)
    }

    @Test("bind replaces every earlier binding; reset keeps them")
    func rebinding() throws {
        let statement = try db.makeStatement("SELECT :a, :b")
        try statement.bind([":a": 1, ":b": 2])
        #expect(try statement.step())
        #expect([statement.int64(at: 0), statement.int64(at: 1)] == [1, 2])
        try statement.bind([":b": 3])
        #expect(try statement.step())
        #expect(statement.value(at: 0) == .null)
        #expect(statement.value(at: 1) == .integer(3))
        statement.reset()
        #expect(try statement.step())
        #expect(statement.value(at: 1) == .integer(3))
        #expect(try !statement.step())
    }

    @Test("step walks the rows, then reports done; reset starts over")
    func steppingAndReset() throws {
        let statement = try db.makeStatement("SELECT name FROM product ORDER BY id")
        var names: [String] = []
        while try statement.step() { names.append(statement.string(at: 0)) }
        #expect(names == ["iPod", "iPhone", "iPad"])
        #expect(statement.runCount == 1)
        statement.reset()
        #expect(try statement.step())
        #expect(statement.string(at: 0) == "iPod")
    }

    @Test("virtualMachineSteps grows with the rows a statement reads; a limit of 0 reads none")
    func virtualMachineSteps() throws {
        try db.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO product (name) SELECT 'p' || i FROM n")
        func steps(_ sql: String) throws -> Int {
            let statement = try db.makeStatement(sql)
            #expect(statement.virtualMachineSteps == 0)
            while try statement.step() {}
            return statement.virtualMachineSteps
        }
        let all = try steps("SELECT count(*) FROM product WHERE name <> ''")
        let few = try steps("SELECT count(*) FROM product WHERE id <= 10")
        let none = try steps("SELECT count(*) FROM (SELECT id FROM product WHERE name <> '' LIMIT CASE WHEN (SELECT count(*) FROM product WHERE id = -1) > 0 THEN 2000 ELSE 0 END)")
        #expect(all > 2_000, "one step or more a row read: \(all)")
        #expect(few < 200, "\(few)")
        #expect(none < 100, "\(none)")
    }

    @Test("execute runs to completion and can run again with new arguments")
    func executeStatement() throws {
        let statement = try db.makeStatement("INSERT INTO product (name, year) VALUES (?, ?)")
        try statement.execute(["Mac", 1984])
        try statement.execute(["Watch", 2015])
        #expect(statement.runCount == 2)
        #expect(db.changedRowCount == 1)
        let years = try db.fetchAll("SELECT year FROM product WHERE id > 3 ORDER BY id") { try $0.decode(Int.self, at: 0) }
        #expect(years == [1984, 2015])
    }

    @Test("column names, counts and lookup by name")
    func columns() throws {
        let statement = try db.makeStatement("SELECT id, name AS Title, year, name FROM product")
        #expect(statement.columnCount == 4)
        #expect(statement.columnNames == ["id", "Title", "year", "name"])
        #expect(statement.columnName(at: 1) == "Title")
        #expect(statement.columnIndex(named: "Title") == 1)
        #expect(statement.columnIndex(named: "title") == 1)  // case-insensitive fallback
        #expect(statement.columnIndex(named: "YEAR") == 2)
        #expect(statement.columnIndex(named: "price") == nil)
        #expect(statement.parameterCount == 0)
        #expect(statement.sql == "SELECT id, name AS Title, year, name FROM product")
    }

    @Test("an exact column name wins over a case-insensitive one")
    func exactColumnNameFirst() throws {
        let statement = try db.makeStatement("SELECT 1 AS Name, 2 AS name")
        #expect(try statement.step())
        #expect(statement.columnIndex(named: "name") == 1)
        #expect(statement.columnIndex(named: "Name") == 0)
        #expect(statement.columnIndex(named: "NAME") == 0)
    }

    @Test("isReadOnly tells queries from writes")
    func readOnlyStatements() throws {
        #expect(try db.makeStatement("SELECT * FROM product").isReadOnly)
        #expect(try !db.makeStatement("DELETE FROM product").isReadOnly)
        #expect(try !db.makeStatement("CREATE TABLE x (a)").isReadOnly)
    }

    @Test("typed column readers convert like SQLite and read NULL as zero or empty")
    func typedReaders() throws {
        let statement = try db.makeStatement("SELECT NULL, '12', 3.75, x'6869', 'é'")
        #expect(try statement.step())
        #expect(statement.isNull(at: 0))
        #expect(statement.int64(at: 0) == 0)
        #expect(statement.double(at: 0) == 0)
        #expect(statement.string(at: 0) == "")
        #expect(statement.data(at: 0) == Data())
        #expect(statement.int64(at: 1) == 12)
        #expect(statement.int64(at: 2) == 3)
        #expect(statement.double(at: 2) == 3.75)
        #expect(statement.string(at: 3) == "hi")
        #expect(statement.data(at: 4) == Data([0xC3, 0xA9]))
    }

    @Test("a runtime error in step is thrown, and the statement can run again")
    func stepErrorThenReuse() throws {
        let sql = "INSERT INTO product (name) VALUES (?)"
        let statement = try db.makeStatement(sql)
        let error = try #require(throws: DatabaseError.self) { try statement.execute([Optional<String>.none]) }
        expectError(error, primary: .SQLITE_CONSTRAINT, extended: .SQLITE_CONSTRAINT_NOTNULL,
                    message: "NOT NULL constraint failed: product.name", sql: sql)
        try statement.execute(["Newton"])
        #expect(try db.scalar("SELECT name FROM product WHERE id = ?", [db.lastInsertedRowID]) == "Newton")
    }
}
