@testable import CatalogueSQLite
import CatalogueKit
import Testing

/// Bulk loads of an FTS5 table set merging aside, merge the whole index once at the end, and
/// leave the table's stored settings, and the connection's, as they were.
@Suite("Full-text bulk load")
struct FullTextBulkLoadTests {
    let db: Connection

    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("CREATE VIRTUAL TABLE note_fts USING fts5 (body)")
    }

    /// Each statement outside a transaction writes its own segment: `count` of them.
    func insertOneByOne(_ count: Int, from start: Int = 0) throws {
        for number in start..<(start + count) {
            try db.execute("INSERT INTO note_fts (body) VALUES (?)", ["note \(number) word\(number)"])
        }
    }

    func segments() throws -> Int {
        try db.scalar("SELECT count(DISTINCT segid) FROM note_fts_idx") ?? -1
    }

    func storedSettings() throws -> [String] {
        try db.fetchAll("SELECT k || '=' || v FROM note_fts_config ORDER BY k") { try $0.decode(String.self, at: 0) }
    }

    @Test("The rows end in one segment; the settings stay as they were, in the table and on the connection")
    func oneSegmentAndSettingsKept() throws {
        let before = try storedSettings()
        var duringLoad: Int?
        try FullTextBulkLoad.run(into: "note_fts", on: db) {
            try insertOneByOne(40)
            duringLoad = try segments()
        }
        #expect(duringLoad == 40, "nothing merged while loading")
        #expect(try segments() == 1)
        #expect(try storedSettings() == before)
        #expect(try db.scalar("SELECT count(*) FROM note_fts WHERE note_fts MATCH 'word39'") as Int? == 1)
        #expect(try db.scalar("SELECT count(*) FROM note_fts") as Int? == 40)

        // The connection merges again as FTS5 does by default: 40 more segments do not stay 40.
        try insertOneByOne(40, from: 40)
        let merged = try segments()
        #expect(merged < 20, "\(merged) segments: automerge is still off")
        try db.execute("INSERT INTO note_fts (note_fts, rank) VALUES ('integrity-check', 1)")
    }

    @Test("Settings the table stored before are stored again, with their values")
    func storedSettingsRestored() throws {
        try db.execute("INSERT INTO note_fts (note_fts, rank) VALUES ('automerge', 8)")
        let before = try storedSettings()
        #expect(before.contains("automerge=8"))
        try FullTextBulkLoad.run(into: "note_fts", on: db) { try insertOneByOne(10) }
        #expect(try storedSettings() == before)
        #expect(try segments() == 1)
    }

    @Test("A table that is not FTS5's is loaded as it is")
    func otherTable() throws {
        try db.execute("CREATE TABLE note (body TEXT)")
        try FullTextBulkLoad.run(into: "note", on: db) {
            try db.execute("INSERT INTO note (body) VALUES ('plain')")
        }
        #expect(try db.scalar("SELECT count(*) FROM note") as Int? == 1)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name LIKE 'note\\_%' ESCAPE '\\' AND name NOT LIKE 'note_fts%'") as Int? == 0)
    }
}
