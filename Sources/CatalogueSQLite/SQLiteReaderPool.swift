import CatalogueCore
import Dispatch
import SQLiteStore

/// Read-only connections to one database file, so that reads run in parallel with each other
/// and beside the writer: in write-ahead-logging mode a reader sees the last commit while a
/// write (a long import) holds the write lock.
///
/// At most ``capacity`` connections, opened on first need and kept; a read that finds them all
/// busy waits for one. A read nested in another read on the same thread runs on the connection
/// already in use (a second connection would see another snapshot, and could wait for itself).
///
/// ```swift
/// let pool = try SQLiteReaderPool(path: "catalogue.sqlite", configuration: Configuration(), capacity: 4)
/// let count: Int? = try pool.withReader { db in try db.scalar("SELECT count(*) FROM country") }
/// ```
final class SQLiteReaderPool: Sendable {
    /// The database file.
    let path: String
    /// The most connections open at once.
    let capacity: Int
    private let configuration: Configuration
    private let idle = Locked<[PooledReader]>([])
    private let opened = Locked(0)
    private let available: DispatchSemaphore

    /// A pool of at most `capacity` read-only connections to `path`, opened with `configuration`
    /// (made read-only).
    init(path: String, configuration: Configuration, capacity: Int) {
        precondition(capacity > 0, "a reader pool needs at least one connection")
        self.path = path
        self.capacity = capacity
        var readOnly = configuration
        readOnly.readOnly = true
        readOnly.writeAheadLogging = false
        self.configuration = readOnly
        self.available = DispatchSemaphore(value: capacity)
    }

    /// Whether the calling thread is inside ``withReader(_:)`` of this pool.
    var isReadingOnCurrentThread: Bool {
        PooledReader.current?.pool === self
    }

    /// How many connections are open (busy or idle).
    var openedCount: Int {
        opened.withLock { $0 }
    }

    /// Runs `body` with a connection of the pool, waiting for one when all are busy.
    func withReader<T>(_ body: (Connection) throws -> T) throws -> T {
        if let current = PooledReader.current, current.pool === self {
            return try body(current.connection)
        }
        available.wait()
        defer { available.signal() }
        let reader = try idle.withLock { $0.popLast() } ?? open()
        defer { idle.withLock { $0.append(reader) } }
        let outer = PooledReader.current
        PooledReader.current = reader
        defer { PooledReader.current = outer }
        return try body(reader.connection)
    }

    /// Empties the statement caches of the idle connections (busy ones keep theirs).
    func purgeCaches() {
        idle.withLock { readers in
            for reader in readers { reader.connection.purgeCaches() }
        }
    }

    /// How many statements the idle connections hold in their caches.
    var idleCachedStatementCount: Int {
        idle.withLock { readers in readers.reduce(0) { $0 + $1.connection.cachedStatementCount } }
    }

    private func open() throws -> PooledReader {
        let connection = try Connection(path: path, configuration: configuration)
        try SQLiteEngine.registerFunctions(on: connection)
        opened.withLock { $0 += 1 }
        return PooledReader(pool: self, connection: connection)
    }
}

/// One connection of a ``SQLiteReaderPool``, used by one thread at a time.
///
/// `@unchecked Sendable`: the pool hands a reader to one thread at a time (it is either in the
/// pool's idle list, under its lock, or held by the thread running `withReader`).
final class PooledReader: @unchecked Sendable {
    unowned let pool: SQLiteReaderPool
    let connection: Connection

    init(pool: SQLiteReaderPool, connection: Connection) {
        self.pool = pool
        self.connection = connection
    }

    /// The reader the calling thread is using, if any: a per-thread slot (not a task-local,
    /// which a task started inside a read would inherit on another thread).
    static var current: PooledReader? {
        get { slot.value }
        set { slot.value = newValue }
    }

    private static let slot = ThreadSlot<PooledReader>()
}

/// The engine whose write the calling thread is running, if any (a per-thread slot).
enum WritingEngine {
    private static let slot = ThreadSlot<SQLiteEngine>()

    static var current: SQLiteEngine? {
        get { slot.value }
        set { slot.value = newValue }
    }
}
