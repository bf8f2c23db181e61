@testable import SQLiteStore
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    @Test("defaults: read-write, create, WAL, foreign keys, 5 s busy timeout, 64 statements, private arguments")
    func defaults() {
        let configuration = Configuration()
        #expect(!configuration.readOnly)
        #expect(configuration.createIfMissing)
        #expect(configuration.writeAheadLogging)
        #expect(configuration.foreignKeys)
        #expect(configuration.busyTimeout == .seconds(5))
        #expect(configuration.busyTimeoutMilliseconds == 5000)
        #expect(configuration.statementCacheCapacity == 64)
        #expect(!configuration.publicStatementArguments)
        #expect(configuration.pageCacheKiB == nil)
    }

    @Test("the busy timeout converts to whole milliseconds, clamped to Int32", arguments: [
        (Duration.zero, Int32(0)),
        (.milliseconds(1500), 1500),
        (.microseconds(1999), 1),
        (.seconds(-3), 0),
        (.seconds(3_000_000), Int32.max),
    ])
    func busyTimeoutMilliseconds(timeout: Duration, milliseconds: Int32) {
        var configuration = Configuration()
        configuration.busyTimeout = timeout
        #expect(configuration.busyTimeoutMilliseconds == milliseconds)
    }

    @Test("a connection keeps the configuration it was opened with")
    func connectionKeepsConfiguration() throws {
        var configuration = Configuration()
        configuration.statementCacheCapacity = 3
        configuration.publicStatementArguments = true
        let db = try Connection(path: ":memory:", configuration: configuration)
        #expect(db.configuration == configuration)
        #expect(db.configuration != Configuration())
    }

    @Test("the page cache is the configured size in KiB; without one, SQLite's own")
    func pageCache() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("cache.sqlite")
        let plain = try Connection(path: path)
        let sqliteDefault: Int? = try plain.scalar("PRAGMA cache_size")
        #expect(sqliteDefault == -2000)
        var configuration = Configuration()
        configuration.pageCacheKiB = 4096
        let sized = try Connection(path: path, configuration: configuration)
        #expect(try sized.scalar("PRAGMA cache_size") as Int? == -4096)
        // The other connection keeps its own.
        #expect(try plain.scalar("PRAGMA cache_size") as Int? == -2000)
    }
}
