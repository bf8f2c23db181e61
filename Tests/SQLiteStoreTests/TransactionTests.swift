import SQLiteStore
import Testing

@Suite("Transactions and savepoints")
struct TransactionTests {
    struct Failure: Error, Equatable { let tag: String }

    static func makeDatabase() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        return db
    }

    static func names(_ db: Connection) throws -> [String] {
        try db.fetchAll("SELECT name FROM t ORDER BY id") { try $0.decode(String.self, at: 0) }
    }

    @Test("a transaction commits when its body returns, and returns the body's value")
    func commit() throws {
        let db = try Self.makeDatabase()
        #expect(!db.isInTransaction)
        let value = try db.transaction { () -> Int in
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO t (name) VALUES (?)", ["a"])
            return 7
        }
        #expect(value == 7)
        #expect(!db.isInTransaction)
        #expect(try Self.names(db) == ["a"])
    }

    @Test("a thrown error rolls everything back and is rethrown as is", arguments: TransactionKind.allKinds)
    func rollbackOnError(kind: TransactionKind) throws {
        let db = try Self.makeDatabase()
        try db.execute("INSERT INTO t (name) VALUES ('keep')")
        #expect(throws: Failure(tag: kind.rawValue)) {
            try db.transaction(kind) {
                try db.execute("INSERT INTO t (name) VALUES (?)", ["gone"])
                try db.execute("UPDATE t SET name = ? WHERE name = ?", ["changed", "keep"])
                try db.execute("CREATE TABLE also_gone (a)")
                throw Failure(tag: kind.rawValue)
            }
        }
        #expect(!db.isInTransaction)
        #expect(try Self.names(db) == ["keep"])
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'also_gone'") == 0)
    }

    @Test("a nested transaction is a savepoint: its rollback undoes only the inner part")
    func nestedTransactionRollback() throws {
        let db = try Self.makeDatabase()
        try db.transaction {
            try db.execute("INSERT INTO t (name) VALUES ('outer 1')")
            #expect(throws: Failure(tag: "inner")) {
                try db.transaction {
                    try db.execute("INSERT INTO t (name) VALUES ('inner')")
                    throw Failure(tag: "inner")
                }
            }
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO t (name) VALUES ('outer 2')")
        }
        #expect(try Self.names(db) == ["outer 1", "outer 2"])
    }

    @Test("a nested transaction does not commit on its own: the outer rollback undoes it")
    func nestedTransactionIsNotACommit() throws {
        let db = try Self.makeDatabase()
        #expect(throws: Failure(tag: "outer")) {
            try db.transaction {
                try db.transaction { try db.execute("INSERT INTO t (name) VALUES ('inner')") }
                #expect(db.isInTransaction)
                #expect(try Self.names(db) == ["inner"])
                throw Failure(tag: "outer")
            }
        }
        #expect(try Self.names(db) == [])
    }

    @Test("savepoints nest three deep; a middle rollback also undoes the innermost")
    func deepSavepoints() throws {
        let db = try Self.makeDatabase()
        try db.transaction {
            try db.execute("INSERT INTO t (name) VALUES ('level 1')")
            try? db.savepoint {
                try db.execute("INSERT INTO t (name) VALUES ('level 2')")
                try db.savepoint { try db.execute("INSERT INTO t (name) VALUES ('level 3')") }
                throw Failure(tag: "level 2")
            }
            try db.savepoint { try db.execute("INSERT INTO t (name) VALUES ('level 2 again')") }
        }
        #expect(try Self.names(db) == ["level 1", "level 2 again"])
    }

    @Test("a savepoint outside a transaction commits on return and rolls back on error")
    func standaloneSavepoint() throws {
        let db = try Self.makeDatabase()
        try db.savepoint { try db.execute("INSERT INTO t (name) VALUES ('a')") }
        #expect(!db.isInTransaction)
        #expect(throws: Failure(tag: "b")) {
            try db.savepoint {
                try db.execute("INSERT INTO t (name) VALUES ('b')")
                throw Failure(tag: "b")
            }
        }
        #expect(!db.isInTransaction)
        #expect(try Self.names(db) == ["a"])
    }

    @Test("a commit that fails (deferred foreign key) throws and rolls back")
    func commitFailureForeignKey() throws {
        let db = try Self.makeDatabase()
        try db.execute("""
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent_id INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
            """)
        let error = try #require(throws: DatabaseError.self) {
            try db.transaction {
                try db.execute("INSERT INTO t (name) VALUES ('x')")
                try db.execute("INSERT INTO child (parent_id) VALUES (?)", [42])  // allowed until COMMIT
            }
        }
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(error.message == "FOREIGN KEY constraint failed")
        #expect(error.sql == "COMMIT TRANSACTION")
        #expect(!db.isInTransaction)
        #expect(try db.scalar("SELECT count(*) FROM child") == 0)
        #expect(try Self.names(db) == [])
    }

    @Test("a commit after SQLite rolled the transaction back itself fails")
    func commitFailureAfterRaiseRollback() throws {
        let db = try Self.makeDatabase()
        try db.execute("""
            CREATE TRIGGER t_no_bad BEFORE INSERT ON t WHEN NEW.name = 'bad'
            BEGIN SELECT RAISE(ROLLBACK, 'bad name'); END;
            """)
        let error = try #require(throws: DatabaseError.self) {
            try db.transaction {
                try db.execute("INSERT INTO t (name) VALUES ('good')")
                let raised = #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO t (name) VALUES (?)", ["bad"]) }
                expectError(raised, primary: .SQLITE_CONSTRAINT, extended: .SQLITE_CONSTRAINT_TRIGGER,
                            message: "bad name", sql: "INSERT INTO t (name) VALUES (?)")
            }
        }
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.extendedResultCode == .SQLITE_ERROR)
        #expect(error.message == "cannot commit - no transaction is active")
        #expect(error.sql == "COMMIT TRANSACTION")
        #expect(!db.isInTransaction)
        #expect(try Self.names(db) == [])
    }

    @Test("inside a savepoint, the error that rolled the whole transaction back is the one thrown")
    func savepointAfterRaiseRollback() throws {
        let db = try Self.makeDatabase()
        try db.execute("""
            CREATE TRIGGER t_no_bad BEFORE INSERT ON t WHEN NEW.name = 'bad'
            BEGIN SELECT RAISE(ROLLBACK, 'bad name'); END;
            """)
        let sql = "INSERT INTO t (name) VALUES (?)"
        let error = try #require(throws: DatabaseError.self) {
            try db.transaction {
                try db.execute(sql, ["good"])
                try db.savepoint { try db.execute(sql, ["bad"]) }
            }
        }
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_TRIGGER)
        #expect(error.message == "bad name")
        #expect(error.sql == sql)
        #expect(!db.isInTransaction)
        #expect(try Self.names(db) == [])
        try db.transaction { try db.execute(sql, ["works again"]) }
        #expect(try Self.names(db) == ["works again"])
    }

    @Test("readTransaction refuses writes with SQLITE_READONLY, then the connection writes again")
    func readTransactionRefusesWrites() throws {
        let db = try Self.makeDatabase()
        let sql = "INSERT INTO t (name) VALUES (?)"
        let error = try #require(throws: DatabaseError.self) {
            try db.readTransaction { try db.execute(sql, ["x"]) }
        }
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(error.extendedResultCode == .SQLITE_READONLY)
        #expect(error.message == "attempt to write a readonly database")
        #expect(error.sql == sql)
        #expect(!db.isInTransaction)
        #expect(try db.scalar("PRAGMA query_only") == 0)
        try db.execute(sql, ["y"])
        #expect(try Self.names(db) == ["y"])
    }

    @Test("readTransaction nested in a transaction forbids writes only while it runs")
    func nestedReadTransaction() throws {
        let db = try Self.makeDatabase()
        try db.transaction {
            try db.execute("INSERT INTO t (name) VALUES ('before')")
            let count: Int? = try db.readTransaction {
                let error = #expect(throws: DatabaseError.self) { try db.execute("DELETE FROM t") }
                expectError(error, primary: .SQLITE_READONLY, extended: .SQLITE_READONLY,
                            message: "attempt to write a readonly database", sql: "DELETE FROM t")
                return try db.scalar("SELECT count(*) FROM t")
            }
            #expect(count == 1)
            try db.execute("INSERT INTO t (name) VALUES ('after')")
        }
        #expect(try Self.names(db) == ["before", "after"])
    }
}

extension TransactionKind {
    static let allKinds: [TransactionKind] = [.deferred, .immediate, .exclusive]
}
