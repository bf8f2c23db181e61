import CatalogueCore
import SQLiteStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens the connection of a ``Catalogue``: refuses what is not a catalogue file before SQLite
/// touches it, creates a missing catalogue atomically, and picks how to open an existing one.
///
/// An existing file is opened:
/// - read-write (write-ahead logging, migrations) for ``CatalogueAccess/readWrite`` when this
///   user can write it;
/// - read-only otherwise, creating no file this user would own next to it: when this user cannot
///   write the database, the `-shm` file is only read (`readonly_shm`), and when there is no
///   `-wal` file either the database is read as immutable, without WAL files or locks. (Files
///   a reader created would belong to the reader, and the owner could not write them.)
struct CatalogueOpener {
    let path: String
    let seed: Bool
    let configuration: Configuration
    let appMigrations: [Migration]
    let access: CatalogueAccess
    /// Called once, before waiting, when another process is creating the missing catalogue.
    var whileWaitingForCreation: () -> Void = {}

    /// The open connection, whether it is read-only, whether the file passed an integrity
    /// check on the way (a migration), whether this open created the file, and, when it is read
    /// as immutable, the file as it was before it was opened.
    struct Opened {
        let connection: Connection
        let isReadOnly: Bool
        let verified: Bool
        var created = false
        var immutableSnapshot: FileSnapshot? = nil
    }

    func open() throws -> Opened {
        guard !Self.isSpecialName(path) else { return try openSpecial() }
        switch DatabaseFileKind.at(path) {
        case .directory:
            throw CatalogueError.isDirectory(path: path)
        case .special(let kind):
            throw CatalogueError.notAFile(path: path, kind: kind)
        case .empty:
            throw CatalogueError.emptyFile(path: path)
        case .missing:
            guard !configuration.readOnly else {
                throw CatalogueError.cannotOpen(path: path, reason: "no such file")
            }
            let created = try CatalogueCreation(
                path: path, seed: seed, appMigrations: appMigrations, configuration: configuration
            ).run(whileWaiting: whileWaitingForCreation)
            return try openExisting(created: created)
        case .regular:
            CatalogueCreation.removeAbandonedFiles(for: path)
            return try openExisting(created: false)
        }
    }

    /// An in-memory database or a `file:` URI: no file checks; a database without tables
    /// becomes a new catalogue.
    private func openSpecial() throws -> Opened {
        let db = try connect(configuration)
        let tables: Int? = try db.scalar("SELECT count(*) FROM sqlite_master")
        if tables == 0, !configuration.readOnly {
            try CatalogueSetup.prepareNew(db, seed: seed, appMigrations: appMigrations)
            return Opened(connection: db, isReadOnly: false, verified: true)
        }
        let readOnly = configuration.readOnly || access == .readOnly || db.isReadOnly
        let verified = try CatalogueSetup.prepareExisting(db, path: path, readOnly: readOnly, appMigrations: appMigrations)
        return Opened(connection: db, isReadOnly: readOnly, verified: verified)
    }

    private func openExisting(created: Bool) throws -> Opened {
        var configuration = self.configuration
        let writable = DatabaseFileKind.isWritable(path)
        let readOnly = configuration.readOnly || access == .readOnly || !writable
        if readOnly {
            configuration.readOnly = true
            if !writable {
                if DatabaseFileKind.hasWriteAheadLog(path) {
                    configuration.readOnlySharedMemory = true
                } else {
                    configuration.immutable = true
                }
            }
        }
        // Write-ahead logging is switched on once the file is known to be a sound catalogue.
        configuration.writeAheadLogging = false
        // Should the file vanish meanwhile, SQLite must not make an empty one in its place.
        configuration.createIfMissing = false
        let snapshot = configuration.immutable ? FileSnapshot(path) : nil
        let db = try connect(configuration)
        let verified: Bool
        do {
            verified = try CatalogueSetup.prepareExisting(
                db, path: path, readOnly: readOnly || db.isReadOnly, appMigrations: appMigrations)
        } catch let error as DatabaseError {
            // Damaged or unreadable where identifying or migrating it: one error naming the file.
            throw CatalogueError.cannotOpen(path: path, reason: reason(for: error))
        }
        return Opened(
            connection: db, isReadOnly: readOnly || db.isReadOnly, verified: verified || created, created: created,
            immutableSnapshot: snapshot)
    }

    private func connect(_ configuration: Configuration) throws -> Connection {
        do {
            return try Connection(path: path, configuration: configuration)
        } catch let error as DatabaseError {
            throw CatalogueError.cannotOpen(path: path, reason: reason(for: error))
        }
    }

    /// SQLite's message, or, when it could not open or write a file and one of the catalogue's log files
    /// is a symbolic link (which SQLite never follows: someone who can write the directory may
    /// have put it there, to have SQLite write another file), what is wrong and what to do.
    func reason(for error: DatabaseError) -> String {
        // A link at `-journal` reads as a hot journal SQLite cannot open: "readonly database".
        guard error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY else { return error.message }
        for suffix in ["-wal", "-shm", "-journal"] {
            var info = stat()
            if lstat(path + suffix, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                return "\(path + suffix) is a symbolic link, which SQLite does not follow; remove it (the catalogue's own is a file)"
            }
        }
        return error.message
    }

    /// `:memory:`, the empty path (a private temporary database) and `file:` URIs.
    static func isSpecialName(_ path: String) -> Bool {
        path == ":memory:" || path.isEmpty || path.hasPrefix("file:")
    }
}
