import CatalogueCore
import SQLiteStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates a new catalogue at a path with the records of a file in it: the first import, built
/// where nobody can read it yet, so it needs neither a write-ahead log nor a journal on disk.
///
/// A catalogue that readers may have open takes an import through its write-ahead log: every
/// page is written to the log, then copied into the file (its checkpoint). A file no other
/// process has open needs none of that. This builds the catalogue (schema, migrations, seed,
/// then the import) in `.NAME.importing` in the same directory, with the rollback journal in
/// memory and no `fsync` until the end; then switches the file to write-ahead logging, syncs it
/// and links it to the path, as ``CatalogueCreation`` does, so that a reader finds either no
/// file or the whole catalogue. The 1,000,000-row products CSV, static release build: 7.85 s
/// into a new seeded catalogue, 7.03 s this way (medians of 3, the two ways alternately; see
/// BENCHMARKS.md).
///
/// The temporary file is guarded by an exclusive `flock` its creator holds until the catalogue
/// is linked:
/// - a second first import of the same path waits for the first (up to the configuration's
///   `writeLockTimeout`, reporting ``ImportProgress/Phase/waitingForWriter``), then returns nil
///   (its caller imports into the first one's catalogue);
/// - a process that would create the catalogue (``CatalogueCreation``) waits for it too, and
///   then opens the imported catalogue instead of making an empty one;
/// - a temporary file nobody holds is what a killed import left: the next open of the path
///   removes it (``CatalogueCreation/removeAbandonedFiles(for:)``).
///
/// An import that fails or changes nothing leaves the new catalogue as opening the path would
/// have made it (schema and seed), as an import into a catalogue just opened does; a dry run
/// leaves nothing.
///
/// ```swift
/// let creation = CatalogueImportCreation(
///     path: "/tmp/c.sqlite", seed: true, appMigrations: [], configuration: Configuration())
/// let counts = try creation.run(Product.self, from: try ImportInput(path: "products.csv"),
///                               options: ImportOptions(format: .csv), progress: nil, skipped: nil)
/// ```
struct CatalogueImportCreation {
    let path: String
    let seed: Bool
    let appMigrations: [Migration]
    let configuration: Configuration

    /// The temporary file of an import that creates `path` (`/data/c.sqlite` →
    /// `/data/.c.sqlite.importing`).
    static func temporaryPath(for path: String) -> String {
        let (directory, name) = CatalogueCreation.split(path)
        return directory + "/." + name + ".importing"
    }

    /// Runs the import into a new catalogue at `path`, or returns nil, having read nothing, when
    /// a file is already there (then import into it as usual). Throws what the import throws
    /// (after linking the catalogue without the import, as above), and
    /// ``CatalogueError/cannotCreate(path:reason:)``.
    func run<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions,
        progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?
    ) throws -> ImportCounts? {
        try CatalogueCreation.createDirectory(for: path)
        let temporary = Self.temporaryPath(for: path)
        let waiting: () -> Void = {
            progress?(ImportProgress(phase: .waitingForWriter, bytesRead: 0, totalBytes: input.size, rows: 0))
        }
        guard let guardFile = try claim(temporary, whileWaiting: waiting) else { return nil }
        defer { close(guardFile) }
        var linked = false
        defer { if !linked { CatalogueCreation.removeFiles(startingWith: temporary) } }

        let outcome: Result<ImportCounts, any Error>
        do {
            outcome = try build(at: temporary) { db in
                Result { try db.importRecords(type, from: input, options: options, progress: progress, skipped: skipped) }
            }
        } catch let error as DatabaseError {
            throw CatalogueError.cannotCreate(path: path, reason: error.message)
        }
        if options.dryRun { return try outcome.get() }
        // Everything the build wrote reaches the disk before the file gets its name.
        guard fsync(guardFile) == 0 else {
            throw CatalogueError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        try linkIntoPlace(temporary)
        linked = true
        return try outcome.get()
    }

    /// Takes the temporary file for this process: returns its descriptor, holding the `flock`,
    /// or nil when a file appeared at the path. While another import holds it, calls
    /// `whileWaiting` once and waits, up to the configuration's `writeLockTimeout`.
    private func claim(_ temporary: String, whileWaiting: () -> Void) throws -> Int32? {
        var reported = false
        while true {
            let lock = DirectoryLock(CatalogueCreation.split(path).directory, waiting: true)
            defer { lock?.release() }
            guard DatabaseFileKind.at(path) == .missing else { return nil }
            let descriptor = open(temporary, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw CatalogueError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            // Without `flock` on this file system, imports go on unguarded: `link(2)` still
            // never replaces a file.
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK {
                // Whatever is in it, a killed import left: start from an empty file.
                for suffix in ["-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
                guard ftruncate(descriptor, 0) == 0 else {
                    let reason = String(cString: strerror(errno))
                    close(descriptor)
                    throw CatalogueError.cannotCreate(path: path, reason: reason)
                }
                return descriptor
            }
            // Another import is making this catalogue: wait for it, without the directory lock
            // it takes to link its file, then look again.
            lock?.release()
            if !reported { whileWaiting() }
            reported = true
            defer { close(descriptor) }
            try waitForImport(holding: descriptor)
        }
    }

    /// Waits until the import that holds `descriptor`'s `flock` ends, up to the configuration's
    /// `writeLockTimeout` (nil: as long as it takes), as a write waits for another writer.
    /// Throws a `SQLITE_BUSY` ``DatabaseError`` when that time is up.
    private func waitForImport(holding descriptor: Int32) throws {
        guard let timeout = configuration.writeLockTimeout else {
            while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
            return
        }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_SH | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { return }
            guard ContinuousClock.now < deadline else {
                throw DatabaseError(
                    code: .SQLITE_BUSY, message: "another import is creating \(path); gave up waiting for it")
            }
            usleep(10_000)
        }
    }

    /// Builds the catalogue with the import in `temporary` (made empty by ``claim(_:)``): runs
    /// `populate` on it, then leaves it in write-ahead-logging mode, closed. A dry run is rolled
    /// back inside `populate`; what it leaves is removed.
    private func build<T>(at temporary: String, _ populate: (Connection) throws -> T) throws -> T {
        var configuration = self.configuration
        configuration.readOnly = false
        configuration.createIfMissing = true
        configuration.writeAheadLogging = false
        configuration.immutable = false
        configuration.readOnlySharedMemory = false
        let db = try Connection(path: temporary, configuration: configuration)
        // Nobody else opens this file, and a crash leaves it under its temporary name, never
        // linked to the path: no journal on disk, no sync before the one at the end. A rollback
        // (a failed import) still works, from the journal in memory.
        let journal: String? = try db.scalar("PRAGMA journal_mode = MEMORY")
        guard journal?.lowercased() == "memory" else {
            throw DatabaseError(code: .SQLITE_ERROR, message: "cannot keep the journal of \(temporary) in memory")
        }
        try db.execute("PRAGMA synchronous = OFF")
        try CatalogueSetup.prepareNew(db, seed: seed, appMigrations: appMigrations)
        let result = try populate(db)
        try db.enableWriteAheadLogging()
        return result
    }

    /// Gives the built file its name, under the directory lock, never replacing a file.
    private func linkIntoPlace(_ temporary: String) throws {
        let lock = DirectoryLock(CatalogueCreation.split(path).directory, waiting: true)
        defer { lock?.release() }
        guard try CatalogueCreation.linkNewFile(temporary, to: path) else {
            throw CatalogueError.cannotCreate(
                path: path, reason: "another program created it during the import; nothing was imported")
        }
        CatalogueCreation.removeFiles(startingWith: temporary)
        lock?.synchronize()
    }
}
