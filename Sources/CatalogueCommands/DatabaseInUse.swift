import CatalogueKit
import Foundation

/// The database the running command opened, and how long it waits for another writer: what
/// an error from the database layer is reported against ("PATH: database disk image is
/// malformed"), since SQLite's own errors do not name the file.
enum DatabaseInUse {
    /// The path, once a command opened it.
    static let path = CommandState<String?>(nil)
    /// How long the running command waits for another writer, for its error line; nil when it
    /// did not say.
    static let waitLimit = CommandState<WaitLimit?>(nil)

    /// How long a command waits for another writer.
    enum WaitLimit {
        /// The `--wait-timeout` option, in seconds (nil: no limit).
        case option(Double?)
        /// A limit of the command's own, in seconds (`interactive`'s).
        case fixed(Double)
    }
    /// The catalogue the command opened.
    static let catalogue = CommandState<Catalogue?>(nil)

    /// Opens the catalogue at `location` as the command's own: errors are reported against its
    /// path, and ``close()`` lets it go (see ``CatalogueLocation/open(access:writeLockTimeout:concurrentReads:hostChanged:)``).
    ///
    /// ```swift
    /// let catalogue = try DatabaseInUse.open(CatalogueLocation(db: nil), access: .readOnly)
    /// ```
    static func open(
        _ location: CatalogueLocation, access: CatalogueAccess, writeLockTimeout: Duration? = nil, concurrentReads: Bool = true,
        hostChanged: (@Sendable (String) -> Void)? = nil
    ) throws -> Catalogue {
        path.withLock { $0 = location.path }
        let catalogue = try location.open(
            access: access, writeLockTimeout: writeLockTimeout, concurrentReads: concurrentReads, hostChanged: hostChanged)
        self.catalogue.withLock { $0 = catalogue }
        return catalogue
    }

    /// Imports into a new catalogue at `location`, reporting errors against its path (see
    /// ``CatalogueLocation/importIntoNewCatalogue(_:from:options:writeLockTimeout:progress:skipped:)``); nil when
    /// that does not apply.
    ///
    /// ```swift
    /// let counts = try DatabaseInUse.importIntoNewCatalogue(location, Product.self, from: input, options: options)
    /// ```
    static func importIntoNewCatalogue<R: ImportableRecord>(
        _ location: CatalogueLocation, _ type: R.Type, from input: ImportInput, options: ImportOptions,
        writeLockTimeout: Duration? = nil,
        progress: ((ImportProgress) -> Void)? = nil, skipped: ((ImportIssue) -> Void)? = nil
    ) throws -> ImportCounts? {
        path.withLock { $0 = location.path }
        return try location.importIntoNewCatalogue(
            type, from: input, options: options, writeLockTimeout: writeLockTimeout, progress: progress, skipped: skipped)
    }

    /// Before a command's output goes out: throws when the catalogue was read without locks
    /// and changed meanwhile (see ``Catalogue/verifyUnchangedSinceOpened()``).
    static func verifyReads() throws {
        try catalogue.withLock { $0 }?.verifyUnchangedSinceOpened()
    }

    /// Lets go of the catalogue, so its connection closes (and, after a write, SQLite folds its
    /// log into the file and removes the `-wal` and `-shm` files) before the process exits.
    static func close() {
        catalogue.withLock { $0 = nil }
    }

    /// One line for a database error: the file, SQLite's message, and for a write lock that
    /// was not released in time, what to do. Never the SQL.
    static func describe(_ error: DatabaseError) -> String {
        let file = path.withLock { $0 } ?? "the database"
        switch error.resultCode {
        case .SQLITE_BUSY:
            let locked = "\(file) is locked by another process writing to it; gave up waiting"
            switch waitLimit.withLock({ $0 }) {
            case .option(let seconds?):
                return "\(locked) after \(Self.seconds(seconds)) (--wait-timeout sets how long to wait)"
            case .option(nil):
                return "\(locked) (--wait-timeout sets how long to wait)"
            case .fixed(let seconds):
                return "\(locked) after \(Self.seconds(seconds))"
            case nil:
                return locked
            }
        case .SQLITE_READONLY:
            return "cannot write \(file): \(error.message)"
        default:
            return "\(file): \(error.message)"
        }
    }

    /// 5 → "5 s", 0.5 → "0.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && value < 1e15 ? "\(Int64(value)) s" : "\(value) s"
    }
}

/// A value a command sets once and its error report reads.
final class CommandState<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
