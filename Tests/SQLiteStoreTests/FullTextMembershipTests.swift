import SQLiteStore
import Testing

/// `catalogue_in_matches(id, 'table_fts', pattern)`: the same answer as `id IN (SELECT rowid
/// FROM table_fts WHERE table_fts MATCH pattern)`, with the matches collected once per execution.
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

    @Test("It is not allowed in the schema, so no view or trigger of the file depends on it")
    func notInTheSchema() throws {
        try db.execute("CREATE VIEW lamps AS SELECT id FROM item WHERE catalogue_in_matches(id, 'item_fts', '\"lamp\"')")
        let error = try #require(throws: DatabaseError.self) { try db.scalar("SELECT count(*) FROM lamps") as Int? }
        #expect(error.message.contains("unsafe use of catalogue_in_matches"), "\(error.message)")
    }
}
