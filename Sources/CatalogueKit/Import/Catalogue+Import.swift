extension Catalogue {
    /// Imports the records of a CSV, JSON or NDJSON file, upserting each by its natural key (a
    /// country's code; a product's name and type) in one transaction.
    ///
    /// - With ``ImportErrorPolicy/abort``, the first bad row throws an ``ImportIssue``
    ///   (`FILE:LINE: column: reason`) and the database is left exactly as it was.
    /// - With ``ImportErrorPolicy/skip``, bad rows are left out and passed to `skipped`; the
    ///   good ones land.
    /// - With ``ImportOptions/dryRun``, every row is checked and counted, then the transaction is
    ///   rolled back.
    ///
    /// An import that changes no row (a header-only file, a re-import of the same rows) is
    /// rolled back, so the file is not touched. An existing record is updated only in the
    /// columns the file has: importing `code,name` renames a country and keeps its capital.
    ///
    /// The import waits for another connection's write transaction to end (see
    /// ``Configuration/writeLockTimeout``), reporting ``ImportProgress/Phase/waitingForWriter``
    /// meanwhile; its first write checks the file (`PRAGMA quick_check`) and throws
    /// ``CatalogueError/corrupt(path:detail:)`` without writing when it is damaged. A read-only
    /// catalogue throws ``CatalogueError/readOnly(path:)``, except for a dry run, which then runs
    /// on a copy in memory.
    ///
    /// A bad header (an unknown, duplicate or missing column) and a syntax error in a JSON array
    /// stop the import under either policy. The input is read in chunks: memory does not grow
    /// with its size. Folded keys, aliases and the full-text index are written with each row.
    ///
    /// ```swift
    /// let counts = try catalogue.importRecords(
    ///     Product.self, from: try ImportInput(path: "products.csv"),
    ///     options: ImportOptions(format: .csv, onError: .skip),
    ///     skipped: { issue in print(issue) })  // products.csv:7: year: not a whole number: "20x7"
    /// print(counts.added, counts.updated, counts.skipped)
    /// ```
    ///
    /// - Parameters:
    ///   - progress: called every 1,024 rows and at the end, on the calling thread.
    ///   - skipped: called with each row left out under the skip policy.
    @discardableResult
    public func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions,
        progress: ((ImportProgress) -> Void)? = nil, skipped: ((ImportIssue) -> Void)? = nil
    ) throws -> ImportCounts {
        if isReadOnly {
            guard options.dryRun else { throw CatalogueError.readOnly(path: path) }
            // A dry run needs no write access: it runs on a copy in memory.
            let scratch = try Connection(path: ":memory:")
            try database.inDatabase { try $0.copy(into: scratch) }
            return try scratch.importRecords(type, from: input, options: options, progress: progress, skipped: skipped)
        }
        return try database.inDatabase { db in
            try db.importRecords(
                type, from: input, options: options, progress: progress, skipped: skipped,
                beforeWriting: { try self.integrity.verify($0) })
        }
    }
}

extension Connection {
    /// Imports the records of a file on this connection; see
    /// ``Catalogue/importRecords(_:from:options:progress:skipped:)``. Inside an open transaction
    /// the import runs in a savepoint.
    ///
    /// ```swift
    /// let counts = try db.importRecords(Country.self, from: input, options: ImportOptions(format: .json))
    /// ```
    @discardableResult
    public func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions,
        progress: ((ImportProgress) -> Void)? = nil, skipped: ((ImportIssue) -> Void)? = nil
    ) throws -> ImportCounts {
        try importRecords(type, from: input, options: options, progress: progress, skipped: skipped, beforeWriting: nil)
    }

    /// The import, with `beforeWriting` run first inside its transaction (the integrity check).
    func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions,
        progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?,
        beforeWriting: ((Connection) throws -> Void)?
    ) throws -> ImportCounts {
        let importer = RecordImporter<R>(db: self, options: options)
        let waiting: () -> Void = {
            progress?(ImportProgress(phase: .waitingForWriter, bytesRead: 0, totalBytes: input.size, rows: 0))
        }
        return try withImportCache {
            do {
                return try transaction(.immediate, whileWaiting: waiting) {
                    try beforeWriting?(self)
                    let counts = try importer.run(input, progress: progress, skipped: skipped)
                    // Nothing to keep: roll back, so the file is not touched at all.
                    if options.dryRun || counts.added + counts.updated == 0 { throw Rollback(counts: counts) }
                    progress?(ImportProgress(phase: .committing, bytesRead: input.bytesRead, totalBytes: input.size, rows: counts.rows))
                    return counts
                }
            } catch let rollback as Rollback {
                return rollback.counts
            }
        }
    }

    /// The page cache an import uses, in KiB: indexes take rows in random key order, and a
    /// cache that holds their pages saves reading them back from the file.
    static let importCacheKiB = 65_536

    /// Runs `body` with a page cache of at least ``importCacheKiB``, then restores the size.
    private func withImportCache<T>(_ body: () throws -> T) throws -> T {
        let previous: Int = try scalar("PRAGMA cache_size") ?? -2000
        // A negative size is in KiB, a positive one in pages.
        let pageSize: Int = try scalar("PRAGMA page_size") ?? 4096
        let previousKiB = previous < 0 ? -previous : previous * pageSize / 1024
        guard previousKiB < Self.importCacheKiB else { return try body() }
        try execute("PRAGMA cache_size = -\(Self.importCacheKiB)")
        defer { try? execute("PRAGMA cache_size = \(previous)") }
        return try body()
    }
}

/// Thrown at the end of a dry run, or of an import that changed nothing, to roll its
/// transaction back.
private struct Rollback: Error {
    let counts: ImportCounts
}
