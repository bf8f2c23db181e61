import SQLiteStore
import Testing

@Suite("Statement cache")
struct StatementCacheTests {
    static func connection(capacity: Int = 64) throws -> Connection {
        var configuration = Configuration()
        configuration.statementCacheCapacity = capacity
        let db = try Connection(path: ":memory:", configuration: configuration)
        try db.execute("""
            CREATE TABLE product (id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL);
            CREATE INDEX product_name_key ON product (name_key);
            INSERT INTO product (name, name_key) VALUES ('Apple', 'apple'), ('Banana', 'banana'),
                ('Cherry', 'cherry'), ('Apricot', 'apricot');
            """)
        return db
    }

    @Test("a statement served twice is compiled once, and is the same object")
    func compiledOnce() throws {
        let db = try Self.connection()
        let sql = "SELECT name FROM product WHERE id = ?"
        let compiled = db.compiledStatementCount
        let first = try db.cachedStatement(sql)
        #expect(db.compiledStatementCount == compiled + 1)
        let second = try db.cachedStatement(sql)
        #expect(second === first)
        #expect(db.compiledStatementCount == compiled + 1)
        #expect(db.cachedStatementCount == 1)
        // The convenience methods use the cache too.
        _ = try db.fetchAll(sql, [1]) { $0[0] }
        _ = try db.scalar(sql, [2]) as String?
        #expect(db.compiledStatementCount == compiled + 1)
    }

    @Test("makeStatement compiles every time and does not touch the cache")
    func uncachedStatements() throws {
        let db = try Self.connection()
        let compiled = db.compiledStatementCount
        let first = try db.makeStatement("SELECT 1")
        let second = try db.makeStatement("SELECT 1")
        #expect(first !== second)
        #expect(db.compiledStatementCount == compiled + 2)
        #expect(db.cachedStatementCount == 0)
    }

    @Test("rebinding a cached statement returns the new rows")
    func rebindingReturnsNewRows() throws {
        let db = try Self.connection()
        let sql = "SELECT name FROM product WHERE name_key >= ? AND name_key < ? ORDER BY name_key"
        let names = { (from: String, to: String) in
            try db.fetchAll(sql, [from, to]) { try $0.decode(String.self, at: 0) }
        }
        #expect(try names("ap", "aq") == ["Apple", "Apricot"])
        #expect(try names("b", "c") == ["Banana"])
        #expect(try names("z", "zz") == [])
        #expect(try names("a", "d") == ["Apple", "Apricot", "Banana", "Cherry"])
        #expect(db.cachedStatementCount == 1)
    }

    @Test("a statement served from the cache has no bindings left from its last use")
    func bindingsCleared() throws {
        let db = try Self.connection()
        let sql = "SELECT ?1, ?2"
        let statement = try db.cachedStatement(sql)
        try statement.bind(["left", "over"])
        #expect(try statement.step())
        let again = try db.cachedStatement(sql)
        #expect(again === statement)
        try again.bind(.text("new"), at: 1)
        #expect(try again.step())
        #expect(again.value(at: 0) == .text("new"))
        #expect(again.value(at: 1) == .null)
    }

    @Test("the cache never exceeds its capacity and evicts the least recently used statement")
    func boundedLeastRecentlyUsed() throws {
        let db = try Self.connection(capacity: 4)
        let favorite = "SELECT name FROM product WHERE id = ?"
        let favoriteStatement = try db.cachedStatement(favorite)
        var compiled = db.compiledStatementCount
        for index in 0..<20 {
            let statement = try db.cachedStatement("SELECT \(index) AS n FROM product WHERE id = ?")
            compiled += 1
            #expect(db.compiledStatementCount == compiled)
            #expect(statement.sql.contains("\(index)"))
            #expect(db.cachedStatementCount <= 4)
            // Using the favorite keeps it the most recently used, so it is never evicted.
            #expect(try db.cachedStatement(favorite) === favoriteStatement)
            #expect(db.compiledStatementCount == compiled)
        }
        #expect(db.cachedStatementCount == 4)
        // The three most recent others are still cached; older ones were evicted.
        for index in 17..<20 {
            _ = try db.cachedStatement("SELECT \(index) AS n FROM product WHERE id = ?")
        }
        #expect(db.compiledStatementCount == compiled)
        _ = try db.cachedStatement("SELECT 0 AS n FROM product WHERE id = ?")
        #expect(db.compiledStatementCount == compiled + 1)
        #expect(db.cachedStatementCount == 4)
    }

    @Test("the least recently used entry goes first, not the oldest inserted")
    func evictionOrder() throws {
        let db = try Self.connection(capacity: 2)
        let a = try db.cachedStatement("SELECT 'a'")
        let b = try db.cachedStatement("SELECT 'b'")
        #expect(try db.cachedStatement("SELECT 'a'") === a)  // a is now more recent than b
        _ = try db.cachedStatement("SELECT 'c'")               // evicts b
        #expect(db.cachedStatementCount == 2)
        #expect(try db.cachedStatement("SELECT 'a'") === a)
        #expect(try db.cachedStatement("SELECT 'b'") !== b)
    }

    @Test("a capacity below one still caches one statement")
    func minimumCapacity() throws {
        let db = try Self.connection(capacity: 0)
        let statement = try db.cachedStatement("SELECT 1")
        #expect(try db.cachedStatement("SELECT 1") === statement)
        _ = try db.cachedStatement("SELECT 2")
        #expect(db.cachedStatementCount == 1)
    }

    @Test("purgeCaches empties the cache; the next use compiles again")
    func purge() throws {
        let db = try Self.connection()
        let statement = try db.cachedStatement("SELECT count(*) FROM product")
        _ = try db.cachedStatement("SELECT 1")
        #expect(db.cachedStatementCount == 2)
        db.purgeCaches()
        #expect(db.cachedStatementCount == 0)
        let compiled = db.compiledStatementCount
        let recompiled = try db.cachedStatement("SELECT count(*) FROM product")
        #expect(recompiled !== statement)
        #expect(db.compiledStatementCount == compiled + 1)
        #expect(try db.scalar("SELECT count(*) FROM product") == 4)
    }

    @Test("a schema change through execute empties the cache", arguments: [
        "CREATE TABLE other (a)",
        "CREATE INDEX product_name ON product (name)",
        "ALTER TABLE product ADD COLUMN price REAL",
        "CREATE VIEW product_names AS SELECT name FROM product",
        "DROP TABLE product",
    ])
    func schemaChangeThroughExecute(ddl: String) throws {
        let db = try Self.connection()
        let statement = try db.cachedStatement("SELECT 1")
        _ = try db.cachedStatement("SELECT 2")
        #expect(db.cachedStatementCount == 2)
        try db.execute(ddl)
        #expect(db.cachedStatementCount == 0)
        #expect(try db.cachedStatement("SELECT 1") !== statement)
    }

    @Test("CREATE TABLE then DROP TABLE each empty the cache; data statements do not")
    func createAndDrop() throws {
        let db = try Self.connection()
        _ = try db.scalar("SELECT count(*) FROM product") as Int?
        try db.execute("INSERT INTO product (name, name_key) VALUES ('Date', 'date')")
        try db.execute("UPDATE product SET name = ? WHERE id = ?", ["Apple!", 1])
        #expect(db.cachedStatementCount == 2)
        try db.execute("CREATE TABLE scratch (a)")
        #expect(db.cachedStatementCount == 0)
        _ = try db.scalar("SELECT count(*) FROM scratch") as Int?
        #expect(db.cachedStatementCount == 1)
        try db.execute("DROP TABLE scratch")
        #expect(db.cachedStatementCount == 0)
    }

    @Test("a schema-changing statement is never cached, and running it empties the cache")
    func schemaChangingStatement() throws {
        let db = try Self.connection()
        _ = try db.cachedStatement("SELECT 1")
        let create = try db.cachedStatement("CREATE TABLE scratch (a)")
        #expect(create.changesSchema)
        #expect(db.cachedStatementCount == 1)
        try create.execute()
        #expect(db.cachedStatementCount == 0)
        let drop = try db.makeStatement("DROP TABLE scratch")
        #expect(drop.changesSchema)
        _ = try db.cachedStatement("SELECT 1")
        try drop.execute()
        #expect(db.cachedStatementCount == 0)
        #expect(try !db.makeStatement("SELECT 1").changesSchema)
    }

    @Test("rebinding an indexed range query never re-prepares it")
    func noReprepareOnRebind() throws {
        let db = try Self.connection()
        try db.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO product (name, name_key) SELECT 'p' || i, printf('k%05d', i) FROM n;
            ANALYZE;
            """)
        let sql = "SELECT count(*) FROM product WHERE name_key >= ? AND name_key < ?"
        let statement = try db.cachedStatement(sql)
        for start in stride(from: 0, to: 2000, by: 37) {
            let from = "k" + String(repeating: "0", count: 5 - String(start).count) + String(start)
            let count: Int? = try db.scalar(sql, [from, "k99999"])
            #expect(count == 2001 - max(start, 1))
            #expect(try db.scalar(sql, ["a", "b"]) == 2)  // apple, apricot
        }
        #expect(try db.cachedStatement(sql) === statement)
        #expect(statement.reprepareCount == 0)
        #expect(statement.runCount > 100)
    }
}

@Suite("Statement cache edge cases")
struct StatementCacheEdgeCaseTests {
    @Test("The same SQL run inside its own row loop gets a statement of its own")
    func nestedUseOfTheSameSQL() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        var pairs: [[Int]] = []
        try db.forEachRow("SELECT x FROM t WHERE x >= ? ORDER BY x", [1]) { outer in
            let x = try outer.decode(Int.self, at: 0)
            let inner = try db.fetchAll("SELECT x FROM t WHERE x >= ? ORDER BY x", [x]) { try $0.decode(Int.self, at: 0) }
            pairs.append([x] + inner)
        }
        #expect(pairs == [[1, 1, 2, 3], [2, 2, 3], [3, 3]])
    }

    @Test("A trailing comment is not a second statement")
    func trailingComment() throws {
        let db = try Connection(path: ":memory:")
        let statement = try db.makeStatement("SELECT 1; -- a note")
        #expect(try statement.step())
        #expect(throws: DatabaseError.self) { try db.makeStatement("SELECT 1; SELECT 2") }
    }
}
