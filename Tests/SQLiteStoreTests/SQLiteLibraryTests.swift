import CSQLite
import Foundation
import Testing
import SQLiteStore

/// Settings of the SQLite library itself, made before the process opens its first connection.
@Suite("The SQLite library's process-wide settings")
struct SQLiteLibraryTests {
    @Test("In a new process, memory statistics turn off before the first connection and stay off")
    func memoryStatisticsInNewProcess() async {
        // A child process of its own: nothing has started SQLite there yet.
        await #expect(processExitsWith: .success) {
            guard SQLiteLibrary.disableMemoryStatistics() else { exit(1) }
            let db = try Connection(path: ":memory:")
            try db.execute("CREATE TABLE t (b); INSERT INTO t VALUES (randomblob(100000))")
            // The connection holds memory, and none of it was counted.
            guard sqlite3_memory_used() == 0 else { exit(2) }
            // SQLite has started: too late now.
            guard !SQLiteLibrary.disableMemoryStatistics() else { exit(3) }
        }
    }

    @Test("Once SQLite has started, turning memory statistics off changes nothing")
    func memoryStatisticsTooLate() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (b)")
        #expect(!SQLiteLibrary.disableMemoryStatistics())
        // This process's count goes on (other tests change it too, but never to exactly the same
        // value after a 100 KB blob is stored).
        let before = sqlite3_memory_used()
        try db.execute("INSERT INTO t VALUES (randomblob(100000))")
        #expect(sqlite3_memory_used() != before)
    }
}
