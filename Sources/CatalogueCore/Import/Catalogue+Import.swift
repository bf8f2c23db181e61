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
    /// The import waits for another connection's write transaction to end (on SQLite, see
    /// `Configuration.writeLockTimeout`), reporting ``ImportProgress/Phase/waitingForWriter``
    /// meanwhile. On SQLite its first write checks the file (`PRAGMA quick_check`) and throws
    /// ``CatalogueError/corrupt(path:detail:)`` without writing when it is damaged; a read-only
    /// catalogue throws ``CatalogueError/readOnly(path:)``, except for a dry run, which then runs
    /// on a copy in memory.
    ///
    /// A bad header (an unknown, duplicate or missing column) and a syntax error in a JSON array
    /// stop the import under either policy. The input is read in chunks: memory does not grow
    /// with its size. A stream (a pipe, standard input from another program) is first read to
    /// its end into an unnamed temporary file in `TMPDIR`, so the write lock is held only while
    /// rows are written, never while a slow producer is waited for. Folded keys, aliases and the
    /// full-text index are written with each row.
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
        // A stream is read to its end before the import takes the write lock.
        try input.spoolIfStreaming()
        return try engine.importRecords(type, from: input, options: options, progress: progress, skipped: skipped)
    }
}
