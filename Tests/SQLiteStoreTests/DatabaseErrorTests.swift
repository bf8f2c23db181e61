import SQLiteStore
import Testing

@Suite("DatabaseError and ResultCode")
struct DatabaseErrorTests {
    static func makeDatabase(publicArguments: Bool = false) throws -> Connection {
        var configuration = Configuration()
        configuration.publicStatementArguments = publicArguments
        let db = try Connection(path: ":memory:", configuration: configuration)
        try db.execute("""
            CREATE TABLE t (
                id INTEGER PRIMARY KEY,
                x INTEGER UNIQUE,
                y TEXT NOT NULL DEFAULT '',
                z INTEGER CHECK (z > 0),
                w INTEGER CONSTRAINT w_is_small CHECK (w < 10)
            );
            CREATE TABLE child (t_id INTEGER REFERENCES t (id));
            INSERT INTO t (id, x) VALUES (1, 1);
            """)
        return db
    }

    static let insertX = "INSERT INTO t (x) VALUES (?)"

    @Test("UNIQUE constraint: extended code, message, SQL; no arguments by default")
    func uniqueConstraint() throws {
        let db = try Self.makeDatabase()
        let error = try #require(throws: DatabaseError.self) { try db.execute(Self.insertX, [1]) }
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(error.extendedResultCode.rawValue == 2067)
        #expect(error.message == "UNIQUE constraint failed: t.x")
        #expect(error.sql == Self.insertX)
        #expect(error.arguments == nil)
        #expect(error.description
            == "SQLite error 19: UNIQUE constraint failed: t.x - while executing `INSERT INTO t (x) VALUES (?)`")
    }

    @Test("the same error from a script (execute without arguments) names the failing statement")
    func uniqueConstraintInScript() throws {
        let db = try Self.makeDatabase()
        let error = try #require(throws: DatabaseError.self) {
            try db.execute("INSERT INTO t (x) VALUES (2); INSERT INTO t (x) VALUES (1); INSERT INTO t (x) VALUES (3);")
        }
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(error.message == "UNIQUE constraint failed: t.x")
        #expect(error.sql == "INSERT INTO t (x) VALUES (1);")  // without the whitespace before it
        // Statements before the failing one ran; those after it did not.
        #expect(try db.fetchAll("SELECT x FROM t ORDER BY x") { try $0.decode(Int.self, at: 0) } == [1, 2])
    }

    @Test("PRIMARY KEY, NOT NULL, CHECK and FOREIGN KEY constraints", arguments: [
        ("INSERT INTO t (id) VALUES (1)", ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY, "UNIQUE constraint failed: t.id"),
        ("INSERT INTO t (y) VALUES (NULL)", .SQLITE_CONSTRAINT_NOTNULL, "NOT NULL constraint failed: t.y"),
        ("INSERT INTO t (z) VALUES (0)", .SQLITE_CONSTRAINT_CHECK, "CHECK constraint failed: z > 0"),
        ("INSERT INTO t (w) VALUES (10)", .SQLITE_CONSTRAINT_CHECK, "CHECK constraint failed: w_is_small"),
        ("INSERT INTO child (t_id) VALUES (99)", .SQLITE_CONSTRAINT_FOREIGNKEY, "FOREIGN KEY constraint failed"),
    ])
    func constraints(sql: String, code: ResultCode, message: String) throws {
        let db = try Self.makeDatabase()
        let statement = try db.makeStatement(sql)
        let error = try #require(throws: DatabaseError.self) { try statement.execute() }
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == code)
        #expect(error.extendedResultCode.isExtended)
        #expect(error.message == message)
        #expect(error.sql == sql)
    }

    @Test("a syntax error names the token and the SQL, through every entry point")
    func syntaxError() throws {
        let db = try Self.makeDatabase()
        let sql = "SELEC 1"
        let errors = [
            try #require(throws: DatabaseError.self) { try db.execute(sql) },
            try #require(throws: DatabaseError.self) { try db.execute(sql + " WHERE ?", [1]) },
            try #require(throws: DatabaseError.self) { try db.makeStatement(sql) },
            try #require(throws: DatabaseError.self) { try db.cachedStatement(sql) },
        ]
        for error in errors {
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.extendedResultCode == .SQLITE_ERROR)
            #expect(!error.extendedResultCode.isExtended)
            #expect(error.message.contains("near \"SELEC\": syntax error"))
            #expect(error.sql?.hasPrefix(sql) == true)
        }
        #expect(errors[0].sql == sql)
        #expect(errors[1].sql == sql + " WHERE ?")
        #expect(db.cachedStatementCount == 0)
    }

    @Test("a syntax error in the middle of a script names that statement")
    func syntaxErrorInScript() throws {
        let db = try Self.makeDatabase()
        let error = try #require(throws: DatabaseError.self) {
            try db.execute("INSERT INTO t (x) VALUES (5);\n  SELEC 1;\nINSERT INTO t (x) VALUES (6)")
        }
        expectError(error, primary: .SQLITE_ERROR, extended: .SQLITE_ERROR,
                    message: "near \"SELEC\": syntax error", sql: "SELEC 1")
        #expect(try db.scalar("SELECT count(*) FROM t WHERE x IN (5, 6)") == 1)
    }

    @Test("no such table, no such column")
    func missingTableAndColumn() throws {
        let db = try Self.makeDatabase()
        let table = try #require(throws: DatabaseError.self) { try db.makeStatement("SELECT * FROM nope") }
        #expect(table.resultCode == .SQLITE_ERROR)
        #expect(table.extendedResultCode == .SQLITE_ERROR)
        #expect(table.message == "no such table: nope")
        #expect(table.sql == "SELECT * FROM nope")
        let column = try #require(throws: DatabaseError.self) { try db.scalar("SELECT nope FROM t") as Int? }
        expectError(column, primary: .SQLITE_ERROR, extended: .SQLITE_ERROR,
                    message: "no such column: nope", sql: "SELECT nope FROM t")
    }

    @Test("arguments are hidden by default, even when binding fails")
    func argumentsHiddenByDefault() throws {
        let db = try Self.makeDatabase()
        let secret = "s3cr3t-user-data"
        let stepError = try #require(throws: DatabaseError.self) {
            try db.execute("INSERT INTO t (x, y) VALUES (?, ?)", [1, secret])
        }
        let bindError = try #require(throws: DatabaseError.self) { try db.execute(Self.insertX, [1, secret]) }
        expectError(stepError, primary: .SQLITE_CONSTRAINT, extended: .SQLITE_CONSTRAINT_UNIQUE,
                    message: "UNIQUE constraint failed: t.x", sql: "INSERT INTO t (x, y) VALUES (?, ?)")
        expectError(bindError, primary: .SQLITE_RANGE, extended: .SQLITE_RANGE,
                    message: "wrong number of statement arguments: expected 1, got 2", sql: Self.insertX)
        for error in [stepError, bindError] {
            #expect(error.arguments == nil)
            #expect(!error.description.contains(secret))
            #expect(!error.description.contains("with arguments"))
        }
    }

    @Test("arguments are kept with publicStatementArguments")
    func argumentsWhenPublic() throws {
        let db = try Self.makeDatabase(publicArguments: true)
        let sql = "INSERT INTO t (x, y) VALUES (?, ?)"
        let error = try #require(throws: DatabaseError.self) { try db.execute(sql, [1, "Bogotá"]) }
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(error.arguments == [.integer(1), .text("Bogotá")])
        #expect(error.description == """
            SQLite error 19: UNIQUE constraint failed: t.x - while executing `\(sql)` with arguments [1, "Bogotá"]
            """)
        let bindError = try #require(throws: DatabaseError.self) { try db.execute(Self.insertX, [7, 8]) }
        expectError(bindError, primary: .SQLITE_RANGE, extended: .SQLITE_RANGE,
                    message: "wrong number of statement arguments: expected 1, got 2", sql: Self.insertX)
        #expect(bindError.arguments == [.integer(7), .integer(8)])
        #expect(bindError.description == """
            SQLite error 25: wrong number of statement arguments: expected 1, got 2 - while executing \
            `INSERT INTO t (x) VALUES (?)` with arguments [7, 8]
            """)
        let named = try #require(throws: DatabaseError.self) {
            try db.execute("INSERT INTO t (x) VALUES (:x)", [":x": 1, ":nope": "n"])
        }
        expectError(named, primary: .SQLITE_RANGE, extended: .SQLITE_RANGE,
                    message: "no statement parameter named :nope", sql: "INSERT INTO t (x) VALUES (:x)")
        #expect(named.arguments == [.text("n"), .integer(1)])  // sorted by name
    }

    @Test("a primary pattern catches its extended codes; an extended pattern only itself")
    func catchPatterns() throws {
        let db = try Self.makeDatabase()
        var caughtBy: [String] = []
        do {
            try db.execute(Self.insertX, [1])
        } catch ResultCode.SQLITE_CONSTRAINT {
            caughtBy.append("primary")
        }
        do {
            try db.execute(Self.insertX, [1])
        } catch ResultCode.SQLITE_CONSTRAINT_NOTNULL {
            caughtBy.append("wrong extended")
        } catch ResultCode.SQLITE_CONSTRAINT_UNIQUE {
            caughtBy.append("extended")
        }
        do {
            try db.execute("INSERT INTO t (y) VALUES (NULL)")
        } catch ResultCode.SQLITE_BUSY {
            caughtBy.append("wrong primary")
        } catch ResultCode.SQLITE_CONSTRAINT_NOTNULL {
            caughtBy.append("not null")
        }
        #expect(caughtBy == ["primary", "extended", "not null"])
        struct Other: Error {}
        #expect(!(ResultCode.SQLITE_ERROR ~= Other()))
        #expect(ResultCode.SQLITE_ERROR ~= DatabaseError(code: .SQLITE_ERROR))
        #expect(!(ResultCode.SQLITE_CONSTRAINT_UNIQUE ~= DatabaseError(code: .SQLITE_CONSTRAINT)))
    }

    @Test("result codes: primary part, extended flag, description")
    func resultCodes() {
        #expect(ResultCode.SQLITE_CONSTRAINT_UNIQUE.primaryResultCode == .SQLITE_CONSTRAINT)
        #expect(ResultCode.SQLITE_BUSY_SNAPSHOT.primaryResultCode == .SQLITE_BUSY)
        #expect(ResultCode.SQLITE_CONSTRAINT.primaryResultCode == .SQLITE_CONSTRAINT)
        #expect(ResultCode.SQLITE_CONSTRAINT_UNIQUE.isExtended)
        #expect(!ResultCode.SQLITE_CONSTRAINT.isExtended)
        #expect(ResultCode.SQLITE_CONSTRAINT.description == "19 (constraint failed)")
        #expect(ResultCode.SQLITE_BUSY.description == "5 (database is locked)")
        #expect(ResultCode(rawValue: 1299) == .SQLITE_CONSTRAINT_NOTNULL)
    }

    @Test("an error made by hand: default message and description without SQL")
    func handMadeError() {
        let error = DatabaseError(code: .SQLITE_BUSY)
        #expect(error.message == "database is locked")
        #expect(error.resultCode == .SQLITE_BUSY)
        #expect(error.sql == nil)
        #expect(error.arguments == nil)
        #expect(error.description == "SQLite error 5: database is locked")
        let extended = DatabaseError(code: .SQLITE_CONSTRAINT_CHECK, message: "nope", sql: "SELECT 1", arguments: [])
        #expect(extended.resultCode == .SQLITE_CONSTRAINT)
        #expect(extended.description == "SQLite error 19: nope - while executing `SELECT 1`")
        #expect(extended == DatabaseError(code: .SQLITE_CONSTRAINT_CHECK, message: "nope", sql: "SELECT 1", arguments: []))
        #expect(extended != DatabaseError(code: .SQLITE_CONSTRAINT_CHECK, message: "nope", sql: "SELECT 2", arguments: []))
    }
}

/// Expects every part of a ``DatabaseError``: its primary and extended result codes, its message
/// and its SQL.
func expectError(
    _ error: DatabaseError?, primary: ResultCode, extended: ResultCode, message: String, sql: String?,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let error else {
        Issue.record("no DatabaseError", sourceLocation: sourceLocation)
        return
    }
    #expect(error.resultCode == primary, sourceLocation: sourceLocation)
    #expect(error.extendedResultCode == extended, sourceLocation: sourceLocation)
    #expect(error.message == message, sourceLocation: sourceLocation)
    #expect(error.sql == sql, sourceLocation: sourceLocation)
}
