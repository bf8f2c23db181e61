import CatalogueCore
import SQLiteStore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates a new catalogue at a path atomically: any number of processes may start at once, and
/// a creation killed half-way leaves either nothing at the path or a whole catalogue.
///
/// The creator takes an exclusive `flock` on the directory (the others wait for it), checks the
/// path is still free, removes the `-wal`, `-shm` and `-journal` files a deleted database may
/// have left there (SQLite would replay such a log into the new file), builds the catalogue (schema, migrations, seed) in a temporary file in the
/// same directory, closes it (so its write-ahead log is folded in and removed), and links it to
/// the path with `link(2)`, which never replaces a file that appeared meanwhile. A process killed
/// during creation leaves only its temporary file, `.NAME.creating`, which the next process to
/// open the path removes once it holds the lock (so no creation is running).
///
/// While a first import makes the catalogue (``CatalogueImportCreation``), a creator waits for
/// it, without the directory lock, and then opens its catalogue.
///
/// ```swift
/// try CatalogueCreation(path: "/tmp/c.sqlite", seed: true, appMigrations: [], configuration: Configuration()).run()
/// ```
struct CatalogueCreation {
    let path: String
    let seed: Bool
    let appMigrations: [Migration]
    let configuration: Configuration

    private var directory: String {
        Self.split(path).directory
    }

    /// The directory holding `path` and the file's name in it (`/data/c.sqlite` → `/data` and
    /// `c.sqlite`; `c.sqlite` → `.`; `/c.sqlite` → `/`).
    ///
    /// Split at the last slash, not through `URL`: every open asks for the temporary path, and
    /// `URL.path`'s first use has the Swift runtime scan every protocol conformance record of
    /// the binary (about 1 % of a cold `catalogue search`).
    static func split(_ path: String) -> (directory: String, name: Substring) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path[...]) }
        let directory = path[..<slash]
        return (directory.isEmpty ? "/" : String(directory), path[path.index(after: slash)...])
    }

    /// The temporary file of a creation under the lock (`/data/c.sqlite` →
    /// `/data/.c.sqlite.creating`; `c.sqlite` → `./.c.sqlite.creating`). Only the lock holder
    /// creates, so one name is enough; without a lock, each process uses its own.
    static func temporaryPath(for path: String) -> String {
        let (directory, name) = split(path)
        return directory + "/." + name + ".creating"
    }

    /// Removes what a killed creation or first import (``CatalogueImportCreation``) left next
    /// to `path`, if anything, when neither is running. Costs two `access(2)` when there is
    /// nothing to remove.
    ///
    /// The lock is tried for up to 100 ms: a process that spawns programs from other threads
    /// (a test runner, an app) briefly shares the descriptor of a lock it just released with a
    /// child that has not yet run `exec`, which closes it. A creation still running after that
    /// keeps its files; the next open removes them.
    static func removeAbandonedFiles(for path: String) {
        let temporary = temporaryPath(for: path)
        let importing = CatalogueImportCreation.temporaryPath(for: path)
        let created = access(temporary, F_OK) == 0
        guard created || access(importing, F_OK) == 0 else { return }
        let directory = split(path).directory
        for attempt in 0..<20 {
            if let lock = DirectoryLock(directory, waiting: false) {
                defer { lock.release() }
                if created { removeFiles(startingWith: temporary) }
                removeAbandonedImport(importing)
                return
            }
            if attempt < 19 { usleep(5_000) }
        }
    }

    /// Under the directory lock: removes the temporary file of a first import into `path`
    /// when no import holds it (and leaves it where `flock` does not work).
    private static func removeAbandonedImport(_ importing: String) {
        let descriptor = open(importing, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { removeFiles(startingWith: importing) }
    }

    /// Under the directory lock `lock`: when a first import into `path` is running, releases
    /// the lock, waits for the import to end, and returns true (look again: the path may now
    /// be its catalogue). Removes what a killed import left, and returns false, otherwise.
    private static func waitForImport(into path: String, releasing lock: DirectoryLock) -> Bool {
        let importing = CatalogueImportCreation.temporaryPath(for: path)
        guard access(importing, F_OK) == 0 else { return false }
        let descriptor = open(importing, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            removeFiles(startingWith: importing)
            return false
        }
        guard errno == EWOULDBLOCK else { return false }
        lock.release()
        while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
        return true
    }

    /// Creates the catalogue unless a file appeared at the path first (made by another process);
    /// either way, returns once something is there: true when this call made it. Throws
    /// ``CatalogueError/cannotCreate(path:reason:)``.
    @discardableResult
    func run() throws -> Bool {
        try Self.createDirectory(for: path)
        let lock = DirectoryLock(directory, waiting: true)
        defer { lock?.release() }
        guard DatabaseFileKind.at(path) == .missing else { return false }
        if let lock, Self.waitForImport(into: path, releasing: lock) {
            // An import made the catalogue meanwhile, or failed: look again.
            return try run()
        }
        let temporary = Self.temporaryPath(for: path) + (lock == nil ? "-\(getpid())" : "")
        // Under the lock, a temporary file is what a killed creation left.
        Self.removeFiles(startingWith: temporary)
        do {
            try build(at: temporary)
        } catch {
            Self.removeFiles(startingWith: temporary)
            if let error = error as? DatabaseError {
                throw CatalogueError.cannotCreate(path: path, reason: error.message)
            }
            throw error
        }
        defer { Self.removeFiles(startingWith: temporary) }
        guard try Self.linkNewFile(temporary, to: path) else {
            return false  // another process (without the lock) made one: use it
        }
        lock?.synchronize()
        return true
    }

    /// Gives the whole catalogue built in `temporary` the name `path`, under the directory
    /// lock: returns false when a file is already there (it is never replaced). First removes
    /// the `-wal`, `-shm` and `-journal` files at the path: they belong to a database deleted
    /// without them, and SQLite would replay such a log into the new catalogue.
    static func linkNewFile(_ temporary: String, to path: String) throws -> Bool {
        for suffix in ["-wal", "-shm", "-journal"] { unlink(path + suffix) }
        guard link(temporary, path) != 0 else { return true }
        let code = errno
        switch code {
        case EEXIST:
            return false
        case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, EXDEV:
            // No hard links on this file system: rename, which would replace a file.
            guard DatabaseFileKind.at(path) == .missing else { return false }
            guard rename(temporary, path) == 0 else {
                throw CatalogueError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            return true
        default:
            throw CatalogueError.cannotCreate(path: path, reason: String(cString: strerror(code)))
        }
    }

    /// Builds a whole catalogue in `temporary` and closes it.
    private func build(at temporary: String) throws {
        var configuration = self.configuration
        configuration.readOnly = false
        configuration.createIfMissing = true
        configuration.writeAheadLogging = true
        configuration.immutable = false
        configuration.readOnlySharedMemory = false
        let db = try Connection(path: temporary, configuration: configuration)
        try CatalogueSetup.prepareNew(db, seed: seed, appMigrations: appMigrations)
        // Fold the log into the file, so the file alone is the whole catalogue once linked.
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Creates the parent directories of a new file at `path`.
    static func createDirectory(for path: String) throws {
        let directory = split(path).directory
        guard !FileManager.default.fileExists(atPath: directory) else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CatalogueError.cannotCreate(path: path, reason: "cannot create its directory: \((error as NSError).localizedDescription)")
        }
    }

    static func removeFiles(startingWith base: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            unlink(base + suffix)
        }
    }
}

/// An exclusive `flock` on a directory, held while a catalogue is created in it. When the lock
/// cannot be taken (a file system without `flock`), creation goes on without it: `link(2)`
/// still never replaces a file.
final class DirectoryLock {
    private var descriptor: Int32

    /// Takes the lock, waiting for it unless `waiting` is false; nil when it is not taken.
    init?(_ directory: String, waiting: Bool) {
        descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        while flock(descriptor, LOCK_EX | (waiting ? 0 : LOCK_NB)) != 0 {
            if errno != EINTR {
                close(descriptor)
                return nil
            }
        }
    }

    /// Makes the directory's new entry durable.
    func synchronize() {
        if descriptor >= 0 { _ = fsync(descriptor) }
    }

    /// Releases the lock.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit {
        release()
    }
}
