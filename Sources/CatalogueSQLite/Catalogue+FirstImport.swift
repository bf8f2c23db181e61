import CatalogueCore
import SQLiteStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Catalogue {
    /// Creates the SQLite catalogue at `path` with the records of a file in it: a first import,
    /// about 12 % faster than opening the new catalogue and importing into it. Returns nil,
    /// having read nothing, when something is already at `path` (a file, a directory, a
    /// symbolic link, even a dangling one) or `path` names no file (`":memory:"`, the empty
    /// path, a `file:` URI); then open it and import as usual.
    ///
    /// ```swift
    /// let input = try ImportInput(path: "products.csv")
    /// let options = ImportOptions(format: .csv)
    /// if let counts = try Catalogue.importRecords(Product.self, from: input, options: options,
    ///                                             intoNewCatalogueAt: "shop.sqlite") {
    ///     print("created shop.sqlite with \(counts.added) products")
    /// } else {
    ///     try Catalogue(path: "shop.sqlite").importRecords(Product.self, from: input, options: options)
    /// }
    /// ```
    ///
    /// An import into a catalogue goes through its write-ahead log, so that readers never wait
    /// for it: each page is written twice, to the log and then into the file. Nobody can read a
    /// catalogue that does not exist yet, so this one is built in a temporary file next to
    /// `path` (`.NAME.creating`, as every new catalogue is), without a log, and linked into place once it is whole:
    /// - a reader finds no file at `path`, then the whole catalogue, never a part of it;
    /// - opening `path` to create it (``init(path:seed:configuration:appMigrations:access:)``)
    ///   waits for the import, then opens its catalogue; a second first import of the same path
    ///   waits too, reporting ``ImportProgress/Phase/waitingForWriter``, up to the
    ///   configuration's `writeLockTimeout` (then it throws a `SQLITE_BUSY` `DatabaseError`), and
    ///   returns nil;
    /// - a process killed during the import leaves no catalogue, only the temporary file, which
    ///   the next open of `path` removes.
    ///
    /// The rows, their checks and the error policies are those of
    /// ``importRecords(_:from:options:progress:skipped:)-hqp``. An import that throws, or changes no
    /// row, leaves the catalogue as opening `path` would have made it (its schema and, with
    /// `seed`, the seed) and throws or returns as that method does; a dry run leaves nothing.
    /// Throws ``CatalogueError/cannotCreate(path:reason:)`` when the file cannot be made.
    ///
    /// - Parameters:
    ///   - path: the new catalogue's file.
    ///   - seed, configuration, appMigrations: as for ``init(path:seed:configuration:appMigrations:access:)``.
    ///   - progress: called once the temporary file is this import's (no rows yet, before the
    ///     schema is built in it), every 1,024 rows and at the end, on the calling thread. From
    ///     ``ImportProgress/Phase/committing`` on, the catalogue is being linked into place.
    ///   - skipped: called with each row left out under the skip policy.
    @discardableResult
    public static func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions, intoNewCatalogueAt path: String,
        seed: Bool = true, configuration: Configuration = Configuration(), appMigrations: [Migration] = [],
        progress: ((ImportProgress) -> Void)? = nil, skipped: ((ImportIssue) -> Void)? = nil
    ) throws -> ImportCounts? {
        // A dangling symbolic link counts as a file: opening it reports it as before.
        var status = stat()
        guard !CatalogueOpener.isSpecialName(path), lstat(path, &status) != 0 else { return nil }
        // A stream is read to its end first: others wait for the creation as long as it runs.
        try input.spoolIfStreaming()
        let creation = CatalogueCreation(path: path, seed: seed, appMigrations: appMigrations, configuration: configuration)
        var imported = false
        let outcome = try creation.run(whileWaiting: {
            progress?(ImportProgress(phase: .waitingForWriter, bytesRead: 0, totalBytes: input.size, rows: 0))
        }, claimed: {
            // The temporary file is this import's from here: a program may remove it on a signal.
            progress?(ImportProgress(bytesRead: 0, totalBytes: input.size, rows: 0))
        }, populate: { db in
            imported = true
            // A failed import leaves the catalogue as opening the path makes it; a dry run, none.
            let result = Result { try db.importRecords(type, from: input, options: options, progress: progress, skipped: skipped) }
            return (result, !options.dryRun)
        })
        guard let outcome else {
            guard !imported else {
                throw CatalogueError.cannotCreate(
                    path: path, reason: "another program created it during the import; nothing was imported")
            }
            return nil
        }
        return try outcome.get()
    }

    /// Where ``importRecords(_:from:options:intoNewCatalogueAt:seed:configuration:appMigrations:progress:skipped:)``
    /// builds the catalogue for `path` (`/data/shop.sqlite` → `/data/.shop.sqlite.creating`, where
    /// opening a missing path builds its empty catalogue too):
    /// a program that ends itself on a signal during that import may remove it (`unlink` is
    /// async-signal-safe) rather than leave it for the next open of `path`.
    ///
    /// ```swift
    /// let temporary = Catalogue.firstImportTemporaryPath(for: "shop.sqlite")   // "./.shop.sqlite.creating"
    /// ```
    public static func firstImportTemporaryPath(for path: String) -> String {
        CatalogueCreation.temporaryPath(for: path)
    }
}
