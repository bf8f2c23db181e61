import CSQLite
import Testing
import SQLiteStore

/// Settings of the SQLite library itself, made before the process opens its first connection.
@Suite("The SQLite library's process-wide settings")
struct SQLiteLibraryTests {
    @Test("Memory statistics turn off only before SQLite starts; later nothing changes")
    func memoryStatistics() throws {
        // Other tests of this process may have started SQLite already: then this is too late.
        let tookEffect = SQLiteLibrary.disableMemoryStatistics()
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (b); INSERT INTO t VALUES (randomblob(100000))")
        // The connection holds memory: counted only while statistics are kept.
        #expect((sqlite3_memory_used() == 0) == tookEffect)
        // SQLite has started now, so this is too late whatever came before.
        #expect(!SQLiteLibrary.disableMemoryStatistics())
        #expect((sqlite3_memory_used() == 0) == tookEffect)
    }
}
