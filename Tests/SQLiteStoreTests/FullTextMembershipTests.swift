import CSQLite
@testable import SQLiteStore
import Testing

/// `catalogue_in_matches(id, 'table_fts', pattern)`: the same answer as `id IN (SELECT rowid
/// FROM table_fts WHERE table_fts MATCH pattern)`, with the matches collected once per execution;
/// `catalogue_collect_matches` and `catalogue_collected_count`, which collect them once for a
/// statement's count and all its checks.
@Suite("Full-text membership")
struct FullTextMembershipTests {
    let db: Connection

    /// 300 rows named from a few words, and their FTS5 index.
    init() throws {
        db = try Connection(path: ":memory:")
        try db.registerFullTextMembership()
        try db.execute("""
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE VIRTUAL TABLE item_fts USING fts5 (name, content="item", content_rowid="id");
            """)
        let words = ["lamp", "lampshade", "kettle", "amber", "copper", "desk", "lamb", "mug"]
        for id in 1...300 {
            let name = "\(words[id % words.count]) \(words[(id / 3) % words.count]) \(id)"
            try db.execute("INSERT INTO item (id, name) VALUES (?, ?)", [id, name])
            try db.execute("INSERT INTO item_fts (rowid, name) VALUES (?, ?)", [id, name])
        }
    }

    func ids(_ sql: String, _ pattern: String) throws -> [Int64] {
        try db.fetchAll(sql, [pattern]) { try $0.decode(Int64.self, at: 0) }
    }

    @Test("It keeps the rows the IN list keeps, read in another order", arguments: [
        "\"lamp\"*", "\"lamp\"", "\"lam\"*", "\"kettle\" \"amber\"*", "(\"coper\"* OR \"copper\")", "\"zzz\"*", "\"1\"*",
    ])
    func sameAsTheInList(pattern: String) throws {
        let function = try ids("SELECT id FROM item WHERE catalogue_in_matches(id, 'item_fts', ?) ORDER BY name DESC", pattern)
        let list = try ids("SELECT id FROM item WHERE +id IN (SELECT rowid FROM item_fts WHERE item_fts MATCH ?) ORDER BY name DESC", pattern)
        #expect(function == list)
        if pattern == "\"lamp\"*" { #expect(function.count > 50) }
    }

    @Test("The same statement, executed again, answers for its new pattern and for rows written since")
    func freshOnEveryExecution() throws {
        let sql = "SELECT count(*) FROM item WHERE catalogue_in_matches(id, 'item_fts', ?)"
        let lamps: Int = try #require(try db.scalar(sql, ["\"lamp\""]))
        let mugs: Int = try #require(try db.scalar(sql, ["\"mug\""]))
        #expect(lamps > 0 && mugs > 0 && lamps != mugs)
        try db.execute("INSERT INTO item (id, name) VALUES (1000, 'lamp 1000')")
        try db.execute("INSERT INTO item_fts (rowid, name) VALUES (1000, 'lamp 1000')")
        #expect(try db.scalar(sql, ["\"lamp\""]) == lamps + 1)
        try db.transaction {
            try db.execute("INSERT INTO item (id, name) VALUES (1001, 'lamp 1001')")
            try db.execute("INSERT INTO item_fts (rowid, name) VALUES (1001, 'lamp 1001')")
            #expect(try db.scalar(sql, ["\"lamp\""]) == lamps + 2, "its own transaction's writes")
        }
    }

    @Test("NULL for a NULL id; an error for a table that is not a plain name, or not there; the connection goes on")
    func errors() throws {
        #expect(try db.fetchOne("SELECT catalogue_in_matches(NULL, 'item_fts', '\"lamp\"')") { $0[0] } == .null)
        #expect(try db.scalar("SELECT catalogue_in_matches(6, 'item_fts', '\"lamp\"')") == 0)
        let badName = try #require(throws: DatabaseError.self) {
            try db.scalar("SELECT catalogue_in_matches(1, 'item_fts\"; DROP TABLE item; --', 'x')") as Int?
        }
        #expect(badName.message.contains("catalogue_in_matches"), "\(badName.message)")
        let missing = try #require(throws: DatabaseError.self) {
            try db.scalar("SELECT catalogue_in_matches(1, 'nothing_fts', 'x')") as Int?
        }
        #expect(missing.message.contains("no such table"), "\(missing.message)")
        #expect(try db.scalar("SELECT count(*) FROM item") == 300)
        #expect(FullTextMembership.isPlainIdentifier("product_fts") && !FullTextMembership.isPlainIdentifier("main.item_fts")
                && !FullTextMembership.isPlainIdentifier("9fts") && !FullTextMembership.isPlainIdentifier(""))
    }

    /// A statement that collects the matches once (`set`), counts them, and checks each row
    /// against them; its rows are the ids matched, then the count.
    static let collectedOnce = """
        WITH s AS MATERIALIZED (SELECT catalogue_collect_matches('item_fts', ?1) AS collected),
             c AS MATERIALIZED (SELECT catalogue_collected_count(collected, 'item_fts', ?1) AS matches, collected FROM s)
        SELECT id FROM item WHERE catalogue_in_matches(id, 'item_fts', ?1, (SELECT collected FROM c))
        UNION ALL SELECT matches FROM c
        """

    @Test("Collected once for a count and the checks: the same rows and count as the IN list", arguments: [
        "\"lamp\"*", "\"lamp\"", "\"kettle\" \"amber\"*", "(\"coper\"* OR \"copper\")", "\"zzz\"*",
    ])
    func collectedOnceSameAsTheInList(pattern: String) throws {
        let rows = try ids(Self.collectedOnce, pattern)
        let count = try #require(rows.last)
        let list = try ids("SELECT id FROM item WHERE +id IN (SELECT rowid FROM item_fts WHERE item_fts MATCH ?)", pattern)
        #expect(rows.dropLast() == list[...])
        #expect(count == Int64(list.count))
    }

    @Test("The count and every check of one execution read the index once; each execution collects afresh")
    func readsTheIndexOnce() throws {
        let statements = try countingCollections {
            let statement = try db.cachedStatement(Self.collectedOnce)
            for pattern in ["\"lamp\"*", "\"mug\"", "\"lamp\"*"] {
                try statement.bind(.text(pattern), at: 1)
                var rows = 0
                while try statement.step() { rows += 1 }
                statement.reset()
                #expect(rows > 1)
            }
        }
        #expect(statements == 3, "one collection per execution, not one per reader")
        // Without the set, the count and the check each collect for themselves.
        let separate = try countingCollections {
            _ = try ids("""
                SELECT id FROM item WHERE catalogue_in_matches(id, 'item_fts', ?1)
                UNION ALL SELECT catalogue_collected_count(NULL, 'item_fts', ?1)
                """, "\"lamp\"*")
        }
        #expect(separate == 2)
    }

    @Test("A set from another execution, or for another pattern, is not taken: the call collects its own")
    func staleOrForeignSetsAreNotTaken() throws {
        let lampSet: Int64 = try #require(try db.scalar("SELECT catalogue_collect_matches('item_fts', '\"lamp\"*')"))
        // The statement that collected it has been reset: the set is gone, and a row written since counts.
        try db.execute("INSERT INTO item (id, name) VALUES (2000, 'lamp 2000')")
        try db.execute("INSERT INTO item_fts (rowid, name) VALUES (2000, 'lamp 2000')")
        let list = try ids("SELECT id FROM item WHERE +id IN (SELECT rowid FROM item_fts WHERE item_fts MATCH ?)", "\"lamp\"*")
        let stale = try db.fetchAll(
            "SELECT id FROM item WHERE catalogue_in_matches(id, 'item_fts', ?, ?)", ["\"lamp\"*", lampSet]
        ) { try $0.decode(Int64.self, at: 0) }
        #expect(stale == list && stale.contains(2000))
        #expect(try db.scalar("SELECT catalogue_collected_count(?, 'item_fts', '\"lamp\"*')", [lampSet]) == list.count)
        // A live set collected for "lamp" does not answer a check of "mug".
        let mugs = try ids("SELECT id FROM item WHERE +id IN (SELECT rowid FROM item_fts WHERE item_fts MATCH ?)", "\"mug\"")
        let foreign = try ids("""
            WITH s AS MATERIALIZED (SELECT catalogue_collect_matches('item_fts', '"lamp"*') AS collected)
            SELECT id FROM item WHERE catalogue_in_matches(id, 'item_fts', ?, (SELECT collected FROM s))
            """, "\"mug\"")
        #expect(foreign == mugs && !mugs.isEmpty)
        let next: Int64 = try #require(try db.scalar("SELECT catalogue_collect_matches('item_fts', '\"lamp\"*')"))
        #expect(next > lampSet, "numbers are never reused")
    }

    @Test("The collecting functions refuse a table that is not a plain name, naming themselves")
    func collectingErrors() throws {
        for sql in [
            "SELECT catalogue_collect_matches('item_fts\"; DROP TABLE item; --', 'x')",
            "SELECT catalogue_collected_count(1, 'main.item_fts', 'x')",
            "SELECT catalogue_in_matches(1, 'x y', 'x', 1)",
        ] {
            let error = try #require(throws: DatabaseError.self) { try db.scalar(sql) as Int? }
            let function = String(sql.dropFirst("SELECT ".count).prefix { $0 != "(" })
            #expect(error.message.contains(function), "\(error.message)")
        }
        #expect(try db.scalar("SELECT count(*) FROM item") == 300)
    }

    @Test("In a read transaction, the next statement takes the matches collected; not outside one, in a write transaction, or after it")
    func sharedWithinReadTransactions() throws {
        let pattern = "\"lamp\"*"
        let known = "SELECT catalogue_known_match_count('item_fts', ?)"
        let check = "SELECT count(*) FROM item WHERE catalogue_in_matches(id, 'item_fts', ?)"
        let lamps = try ids("SELECT id FROM item WHERE +id IN (SELECT rowid FROM item_fts WHERE item_fts MATCH ?)", pattern).count
        #expect(try db.fetchOne(known, [pattern]) { $0[0] } == .null, "no transaction")
        let collections = try countingCollections {
            try db.readTransaction { () throws in
                #expect(try db.fetchOne(known, [pattern]) { $0[0] } == .null, "nothing collected yet")
                #expect(try db.scalar(check, [pattern]) == lamps)
                #expect(try db.scalar(check, [pattern]) == lamps)
                #expect(try db.scalar(known, [pattern]) == lamps)
                #expect(try db.fetchOne(known, ["\"mug\""]) { $0[0] } == .null, "another pattern")
            }
        }
        #expect(collections == 1, "the second check and the count take the first check's matches")
        #expect(try db.fetchOne(known, [pattern]) { $0[0] } == .null, "the read transaction ended")
        // A write transaction may change the index between two statements: nothing is shared,
        // not even in a read transaction nested in it.
        try db.transaction { () throws in
            #expect(try db.scalar(check, [pattern]) == lamps)
            #expect(try db.fetchOne(known, [pattern]) { $0[0] } == .null)
            try db.execute("INSERT INTO item (id, name) VALUES (3000, 'lamp 3000')")
            try db.execute("INSERT INTO item_fts (rowid, name) VALUES (3000, 'lamp 3000')")
            try db.readTransaction { () throws in
                #expect(try db.scalar(check, [pattern]) == lamps + 1)
                #expect(try db.fetchOne(known, [pattern]) { $0[0] } == .null)
            }
        }
        try db.readTransaction { () throws in
            #expect(try db.scalar(check, [pattern]) == lamps + 1, "collected afresh after the write")
            #expect(try db.scalar(known, [pattern]) == lamps + 1)
        }
    }

    /// How many times `body` had the matches of `item_fts` collected: statements SQLite started
    /// whose text is the functions' read of the matches by rowid.
    func countingCollections(_ body: () throws -> Void) throws -> Int {
        let counter = StatementCounter()
        let context = Unmanaged.passRetained(counter)
        defer { context.release() }
        sqlite3_trace_v2(db.handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            guard let context, let statement, let sql = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
            let text = String(cString: sql)
            if text.hasPrefix("SELECT rowid FROM \"item_fts\"") {
                Unmanaged<StatementCounter>.fromOpaque(context).takeUnretainedValue().count += 1
            }
            return 0
        }, context.toOpaque())
        defer { sqlite3_trace_v2(db.handle, 0, nil, nil) }
        try body()
        return counter.count
    }

    @Test("It is not allowed in the schema, so no view or trigger of the file depends on it")
    func notInTheSchema() throws {
        try db.execute("CREATE VIEW lamps AS SELECT id FROM item WHERE catalogue_in_matches(id, 'item_fts', '\"lamp\"')")
        let error = try #require(throws: DatabaseError.self) { try db.scalar("SELECT count(*) FROM lamps") as Int? }
        #expect(error.message.contains("unsafe use of catalogue_in_matches"), "\(error.message)")
    }
}

/// A count that a C callback adds to.
private final class StatementCounter {
    var count = 0
}
