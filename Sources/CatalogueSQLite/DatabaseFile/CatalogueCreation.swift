import CatalogueCore
import SQLiteStore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates a new catalogue at a path atomically: any number of processes may start at once, and
/// a creation killed half-way leaves either nothing at the path or a whole catalogue. The same
/// way makes an empty catalogue (schema, migrations, seed) when a path is first opened, and a
/// catalogue with the rows of a first import in it
/// (``Catalogue/importRecords(_:from:options:intoNewCatalogueAt:seed:configuration:appMigrations:progress:skipped:)``).
///
/// - The creator builds the catalogue in a temporary file in the same directory,
///   `.NAME.creating`, and holds an exclusive `flock` on it until the catalogue has its name.
///   Nobody else opens that file, so it needs no write-ahead log and no journal on disk: the
///   journal is in memory (a failed import still rolls back) and nothing is synced until one
///   `fsync` at the end. An import into an existing catalogue writes each page twice, to the
///   log and then into the file; this writes it once (the 1,000,000-row products CSV, static
///   release build: 7.85 s into a new seeded catalogue, 7.03 s as a first import, medians of 3,
///   the two ways alternately; see BENCHMARKS.md).
/// - The file is then switched to write-ahead logging and linked to the path with `link(2)`,
///   under an exclusive `flock` on the directory, which never replaces a file that appeared
///   meanwhile. Before that, the `-wal`, `-shm` and `-journal` files a deleted database may
///   have left at the path are removed: SQLite would replay such a log into the new file.
/// - Another process creating the same path waits for the creator's `flock` (up to the
///   configuration's `writeLockTimeout`), then finds the catalogue at the path; a first import
///   can take seconds, and a process opening the path meanwhile waits for it.
/// - A temporary file nobody holds is what a killed creation left: the next process to open the
///   path removes it, and the next creation starts it again.
/// - Whatever else is at the temporary name (a symbolic or hard link to another file, a FIFO,
///   another user's file: planted by someone who can write the directory) is refused and left
///   as it is, never followed, emptied or waited on; SQLite's open of the file and the link at
///   the end are checked to name the file claimed.
///
/// ```swift
/// try CatalogueCreation(path: "/tmp/c.sqlite", seed: true, appMigrations: [], configuration: Configuration()).run()
/// ```
struct CatalogueCreation {
    let path: String
    let seed: Bool
    let appMigrations: [Migration]
    let configuration: Configuration

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

    /// The temporary file of a creation (`/data/c.sqlite` → `/data/.c.sqlite.creating`;
    /// `c.sqlite` → `./.c.sqlite.creating`). Only the holder of its `flock` builds in it, so
    /// one name is enough; where `flock` does not work, each process uses its own.
    static func temporaryPath(for path: String) -> String {
        let (directory, name) = split(path)
        return directory + "/." + name + ".creating"
    }

    /// Removes what a killed creation left next to `path`, if anything, when no creation is
    /// running. Costs one `access(2)` when there is nothing to remove.
    ///
    /// The directory lock is tried for up to 100 ms: a process that spawns programs from other
    /// threads (a test runner, an app) briefly shares the descriptor of a lock it just released
    /// with a child that has not yet run `exec`, which closes it. Files left after that are
    /// removed by the next open.
    static func removeAbandonedFiles(for path: String) {
        let temporary = temporaryPath(for: path)
        guard access(temporary, F_OK) == 0 else { return }
        let directory = split(path).directory
        for attempt in 0..<20 {
            if let lock = DirectoryLock(directory, waiting: false) {
                defer { lock.release() }
                // Never through a symbolic link, and without waiting for a writer of a FIFO planted there.
                let descriptor = open(temporary, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
                guard descriptor >= 0 else { return }
                defer { close(descriptor) }
                // Held: a creation is running. Where `flock` does not work, leave it.
                if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { removeFiles(startingWith: temporary) }
                return
            }
            if attempt < 19 { usleep(5_000) }
        }
    }

    /// Creates an empty catalogue (schema, migrations, seed) unless a file appeared at the path
    /// first (made by another process); either way, returns once something is there: true when
    /// this call made it. `whileWaiting` is called once when another creation of the path is
    /// running, before this one waits for it. Throws ``CatalogueError/cannotCreate(path:reason:)``,
    /// and a `SQLITE_BUSY` `DatabaseError` when another creation of the path outlasts the
    /// configuration's `writeLockTimeout`.
    @discardableResult
    func run(whileWaiting: () -> Void = {}) throws -> Bool {
        try run(whileWaiting: whileWaiting) { _ in ((), true) } != nil
    }

    /// Creates the catalogue with `populate` run in it first, and returns what `populate`
    /// returned; nil when a file is at the path (before, or at the link: nothing replaces it),
    /// then `populate` may have run on a catalogue that was thrown away. `populate` also says
    /// whether to keep the catalogue; one not kept is removed. `whileWaiting` is called once
    /// when another creation of the path is running, before this one waits for it; `claimed`
    /// once the temporary file is this process's, before anything is built in it.
    func run<T>(
        whileWaiting: () -> Void = {}, claimed: () -> Void = {}, populate: (Connection) throws -> (value: T, keep: Bool)
    ) throws -> T? {
        try Self.createDirectory(for: path)
        guard let claim = try claim(whileWaiting: whileWaiting) else { return nil }
        defer { claim.release() }
        claimed()
        var linked = false
        defer { if !linked { Self.removeFiles(startingWith: claim.temporary) } }
        let outcome: (value: T, keep: Bool)
        do {
            outcome = try build(at: claim.temporary, holding: claim.descriptor, populate)
        } catch let error as DatabaseError {
            throw CatalogueError.cannotCreate(path: path, reason: error.message)
        }
        guard outcome.keep else { return outcome.value }
        // Everything the build wrote reaches the disk before the file gets its name.
        guard fsync(claim.descriptor) == 0 else {
            throw CatalogueError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        let lock = DirectoryLock(Self.split(path).directory, waiting: true)
        defer { lock?.release() }
        guard try Self.linkNewFile(claim.temporary, to: path) else { return nil }
        // The name given is the file built, not one put in its place meanwhile by someone who can
        // write the directory (the entry is the one just made: link(2) never replaces a file).
        guard Self.names(path, fileOf: claim.descriptor) else {
            unlink(path)
            throw CatalogueError.cannotCreate(path: path, reason: "\(claim.temporary) was replaced while the catalogue was built in it")
        }
        linked = true
        Self.removeFiles(startingWith: claim.temporary)
        lock?.synchronize()
        return outcome.value
    }

    /// The temporary file this process builds in, and its descriptor, which holds the `flock`.
    private struct Claim {
        let temporary: String
        let descriptor: Int32

        func release() {
            close(descriptor)
        }
    }

    /// Takes the temporary file, made empty, for this process; nil when a file is at the path.
    /// While another creation holds it, calls `whileWaiting` once and waits for it.
    private func claim(whileWaiting: () -> Void) throws -> Claim? {
        var reported = false
        while true {
            let lock = DirectoryLock(Self.split(path).directory, waiting: true)
            defer { lock?.release() }
            guard DatabaseFileKind.at(path) == .missing else { return nil }
            // Without the directory lock (a file system without `flock`), a name of its own.
            let temporary = Self.temporaryPath(for: path) + (lock == nil ? "-\(getpid())" : "")
            let descriptor = try openTemporaryFile(temporary)
            if lock == nil || flock(descriptor, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK {
                // Nobody holds it: what is there must be a file a creation made, before it is emptied.
                try checkMadeByACreation(descriptor, temporary)
                // Whatever is in it, a killed creation left: start from an empty file.
                for suffix in ["-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
                guard ftruncate(descriptor, 0) == 0 else {
                    let reason = String(cString: strerror(errno))
                    close(descriptor)
                    throw CatalogueError.cannotCreate(path: path, reason: reason)
                }
                return Claim(temporary: temporary, descriptor: descriptor)
            }
            // Another process is creating this catalogue: wait for it, without the directory
            // lock it takes to link its file, then look again.
            lock?.release()
            if !reported { whileWaiting() }
            reported = true
            defer { close(descriptor) }
            try waitForCreation(holding: descriptor)
        }
    }

    /// Opens (creating it if need be) the temporary file, never through a symbolic link (which
    /// a creation never makes: one planted by someone who can write the directory would have
    /// the creation empty and overwrite the file it names) and without waiting on a FIFO.
    private func openTemporaryFile(_ temporary: String) throws -> Int32 {
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            let reason = code == ELOOP
                ? "\(temporary), where a new catalogue is built, is a symbolic link, which catalogue never makes; remove it"
                : String(cString: strerror(code))
            throw CatalogueError.cannotCreate(path: path, reason: reason)
        }
        return descriptor
    }

    /// Checks, before a creation empties the temporary file it holds, that it is a file a
    /// creation made: a regular file of this user's with no other name. Anything else (a hard
    /// link to another file, a FIFO, another user's file) is refused and left as it is; the
    /// descriptor is closed. (A file another creation holds is waited for, not checked.)
    private func checkMadeByACreation(_ descriptor: Int32, _ temporary: String) throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw CatalogueError.cannotCreate(path: path, reason: reason)
        }
        let problem: String? =
            if info.st_mode & S_IFMT != S_IFREG { "is not a regular file" }
            else if info.st_nlink != 1 { "has other names (hard links)" }
            else if info.st_uid != geteuid() { "belongs to another user" }
            else { nil }
        if let problem {
            close(descriptor)
            throw CatalogueError.cannotCreate(
                path: path, reason: "\(temporary), where a new catalogue is built, \(problem), so catalogue did not make it; remove it")
        }
    }

    /// Whether `path` names the file open as `descriptor` (same device and inode).
    static func names(_ path: String, fileOf descriptor: Int32) -> Bool {
        var named = stat()
        var open = stat()
        return lstat(path, &named) == 0 && fstat(descriptor, &open) == 0 && named.st_dev == open.st_dev && named.st_ino == open.st_ino
    }

    /// Waits until the creation that holds `descriptor`'s `flock` ends, up to the
    /// configuration's `writeLockTimeout` (nil: as long as it takes), as a write waits for
    /// another writer. Throws a `SQLITE_BUSY` ``DatabaseError`` when that time is up.
    private func waitForCreation(holding descriptor: Int32) throws {
        guard let timeout = configuration.writeLockTimeout else {
            while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
            return
        }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_SH | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { return }
            guard ContinuousClock.now < deadline else {
                throw DatabaseError(
                    code: .SQLITE_BUSY, message: "another process is creating \(path); gave up waiting for it")
            }
            usleep(10_000)
        }
    }

    /// Builds the catalogue in `temporary` (made empty by ``claim(whileWaiting:)``, open as
    /// `descriptor`), runs `populate` on it, and leaves it closed, in write-ahead-logging mode
    /// when it is kept.
    private func build<T>(
        at temporary: String, holding descriptor: Int32, _ populate: (Connection) throws -> (value: T, keep: Bool)
    ) throws -> (value: T, keep: Bool) {
        var configuration = self.configuration
        configuration.readOnly = false
        configuration.createIfMissing = true
        configuration.writeAheadLogging = false
        configuration.immutable = false
        configuration.readOnlySharedMemory = false
        let db = try Connection(path: temporary, configuration: configuration)
        // SQLite opened the file by its name: it must be the one claimed (opening writes nothing).
        guard Self.names(temporary, fileOf: descriptor) else {
            throw DatabaseError(code: .SQLITE_CANTOPEN, message: "\(temporary) was replaced before the catalogue was built in it")
        }
        // Nobody else opens this file, and a crash leaves it under its temporary name, never
        // linked to the path: no journal on disk, no sync before the one at the end. A rollback
        // (a failed import) still works, from the journal in memory.
        let journal: String? = try db.scalar("PRAGMA journal_mode = MEMORY")
        guard journal?.lowercased() == "memory" else {
            throw DatabaseError(code: .SQLITE_ERROR, message: "cannot keep the journal of \(temporary) in memory")
        }
        try db.execute("PRAGMA synchronous = OFF")
        try CatalogueSetup.prepareNew(db, seed: seed, appMigrations: appMigrations)
        let outcome = try populate(db)
        // Closing the connection folds the switch's small log into the file and removes it.
        if outcome.keep { try db.enableWriteAheadLogging() }
        return outcome
    }

    /// Gives the whole catalogue built in `temporary` the name `path`, under the directory
    /// lock: returns false when a file is already there (it is never replaced). First removes
    /// the `-wal`, `-shm` and `-journal` files at the path: they belong to a database deleted
    /// without them, and SQLite would replay such a log into the new catalogue. `makeLink` is
    /// `link(2)`; tests pass one that fails as a file system without hard links does.
    static func linkNewFile(
        _ temporary: String, to path: String, makeLink: (String, String) -> Int32 = { link($0, $1) }
    ) throws -> Bool {
        for suffix in ["-wal", "-shm", "-journal"] { unlink(path + suffix) }
        guard makeLink(temporary, path) != 0 else { return true }
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
