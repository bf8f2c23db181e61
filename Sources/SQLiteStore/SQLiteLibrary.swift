import CSQLite

/// Settings of the SQLite library itself, shared by every connection of the process: made once,
/// before the process opens its first connection.
///
/// ```swift
/// // First thing in main, before any Connection or Catalogue is opened:
/// SQLiteLibrary.disableMemoryStatistics()
/// ```
public enum SQLiteLibrary {
    /// Stops SQLite from counting the memory it allocates, which it does by default under a
    /// lock that every connection of the process takes for each allocation; returns whether it
    /// took effect.
    ///
    /// It only can before SQLite starts, that is, before the process opens its first
    /// connection (with this library or any other): later, it changes nothing and returns
    /// false. Without the counts, `sqlite3_memory_used()`, `sqlite3_memory_highwater()` and
    /// `sqlite3_status64()` report nothing and the heap limits (`sqlite3_soft_heap_limit64()`,
    /// `sqlite3_hard_heap_limit64()`) are not enforced, so a library leaves the choice to the
    /// program. The `catalogue` tool makes it: SQLite allocates several times for each row it
    /// writes, and its import of 1,000,000 products took 3.5 % less time without the lock
    /// (10 interleaved runs, median 8.10 s against 8.40 s).
    ///
    /// ```swift
    /// if SQLiteLibrary.disableMemoryStatistics() {
    ///     // sqlite3_memory_used() now stays 0.
    /// }
    /// ```
    @discardableResult
    public static func disableMemoryStatistics() -> Bool {
        csqlite_config_memstatus(0) == SQLITE_OK
    }
}
