import CatalogueKit
import Foundation
#if PostgreSQL
import CataloguePostgres
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the tool's catalogue is, and the one place that opens it.
///
/// `--db PATH`, else `$CATALOGUE_DB`, else the default location
/// (`$XDG_DATA_HOME/catalogue/catalogue.sqlite`). A `postgres://user@host:port/database` URL
/// there opens a PostgreSQL catalogue instead (a build with the `PostgreSQL` trait:
/// `swift build --traits PostgreSQL`; without it, one line says how to get it). A missing parent directory is created only for
/// the default location: an explicit path in a directory that does not exist is a mistyped path,
/// reported, with nothing created. A catalogue created by this run is announced once on stderr
/// when stderr is a terminal ("created a new catalogue at PATH").
///
/// ```swift
/// let catalogue = try CatalogueLocation(db: "x.sqlite").open(access: .readOnly)
/// ```
struct CatalogueLocation {
    /// The database path.
    let path: String
    /// Whether it is the default location (neither `--db` nor `$CATALOGUE_DB`).
    let isDefault: Bool

    init(db: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let db {
            path = db
            isDefault = false
        } else if let variable = environment["CATALOGUE_DB"], !variable.isEmpty {
            path = variable
            isDefault = false
        } else {
            path = Catalogue.defaultPath(environment: environment)
            isDefault = true
        }
    }

    /// Whether the location is a PostgreSQL URL rather than a file.
    var isPostgres: Bool {
        let lower = path.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// The directory the database file goes in.
    var directory: String {
        URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// Opens the catalogue, creating and seeding it on first use: `.readOnly` for the commands
    /// that only read (an existing file is never written, a missing one is created),
    /// `.readWrite` for those that write. A write waits for another writer up to
    /// `writeLockTimeout` (nil: as long as it takes). `concurrentReads` gives reads connections
    /// of their own (``SQLiteEngine/defaultReaderCount``), for the commands that read from
    /// several tasks at once (`serve`, `interactive`) or beside a write (`import`); a command
    /// that reads once and exits passes false and reads on the connection that opened the file,
    /// which spares it opening a second one and reading the schema again (about 5 % of a cold
    /// `catalogue search`). `hostChanged` is told, in a sentence, when a PostgreSQL catalogue
    /// with several hosts moves to another (``PostgresEngine/Options/hostChanged``).
    func open(
        access: CatalogueAccess, writeLockTimeout: Duration? = nil, concurrentReads: Bool = true,
        hostChanged: (@Sendable (String) -> Void)? = nil
    ) throws -> Catalogue {
        if isPostgres {
            #if PostgreSQL
            var options = PostgresEngine.Options()
            if let hostChanged {
                options.hostChanged = { from, to in
                    hostChanged("PostgreSQL host \(from.endpointDescription) stopped serving the catalogue; now on \(to.endpointDescription)")
                }
            }
            return try Catalogue.connect(to: path, options: options)
            #else
            throw CatalogueLocationError.postgresNotBuilt
            #endif
        }
        let existed = path == ":memory:" || FileManager.default.fileExists(atPath: path)
        if !existed { try createDirectoryIfDefault() }
        var configuration = Configuration()
        configuration.writeLockTimeout = writeLockTimeout
        let engine = try SQLiteEngine(
            path: path, configuration: configuration, access: access,
            readerCount: concurrentReads ? SQLiteEngine.defaultReaderCount : 0,
            whileWaitingForCreation: announceWaitForCreation)
        if engine.createdFile { announceCreation() }
        return Catalogue(engine: engine)
    }

    /// Says on stderr, when it is a terminal, that this run created the catalogue.
    func announceCreation() {
        if TerminalOutput.isTerminal(STDERR_FILENO) {
            standardError("catalogue: created a new catalogue at \(path)")
        }
    }

    /// Says on stderr, when it is a terminal, that another process is creating the catalogue
    /// (a first import, which can take seconds) and this run waits for it.
    private func announceWaitForCreation() {
        if TerminalOutput.isTerminal(STDERR_FILENO) {
            standardError("catalogue: waiting for another process to finish creating \(path)…")
        }
    }

    /// Imports into a new catalogue file at this location, created by the import (see
    /// `Catalogue.importRecords(_:from:options:intoNewCatalogueAt:…)`): nil, having read
    /// nothing, when the location is a PostgreSQL URL, `:memory:`, or a file that exists. It
    /// waits for another first import of the path up to `writeLockTimeout` (nil: as long as it
    /// takes). The caller announces the creation (``announceCreation()``), once its progress
    /// bar is cleared.
    ///
    /// ```swift
    /// let counts = try CatalogueLocation(db: "new.sqlite").importIntoNewCatalogue(
    ///     Product.self, from: input, options: options, writeLockTimeout: nil, progress: nil, skipped: nil)
    /// ```
    func importIntoNewCatalogue<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions, writeLockTimeout: Duration?,
        progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?
    ) throws -> ImportCounts? {
        guard !isPostgres, path != ":memory:", !FileManager.default.fileExists(atPath: path) else { return nil }
        try createDirectoryIfDefault()
        var configuration = Configuration()
        configuration.writeLockTimeout = writeLockTimeout
        return try Catalogue.importRecords(
            type, from: input, options: options, intoNewCatalogueAt: path, configuration: configuration,
            progress: progress, skipped: skipped)
    }

    /// Before a new file is made: a missing directory is created for the default location, and
    /// reported for any other path.
    private func createDirectoryIfDefault() throws {
        guard !FileManager.default.fileExists(atPath: directory) else { return }
        guard isDefault else { throw CatalogueLocationError.missingDirectory(path: path, directory: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// The catalogue when it exists and can be read as it is, opened without creating,
    /// migrating or seeding anything; nil otherwise. For help texts and completions.
    func openExisting() -> Catalogue? {
        // A server is not asked for help texts and completions.
        guard !isPostgres, path != ":memory:", FileManager.default.fileExists(atPath: path) else { return nil }
        return try? Catalogue(path: path, seed: false, access: .readOnly)
    }
}

/// The database path cannot be used.
enum CatalogueLocationError: Error, CustomStringConvertible {
    /// An explicit path in a directory that does not exist.
    case missingDirectory(path: String, directory: String)
    /// A `postgres://` location, in a build without the PostgreSQL trait.
    case postgresNotBuilt

    var description: String {
        switch self {
        case .postgresNotBuilt:
            "this catalogue was built without PostgreSQL support; build it with: swift build --traits PostgreSQL"
        case .missingDirectory(let path, let directory):
            "cannot create \(path): no directory \(directory) (create it first, or check the path)"
        }
    }
}
