import CatalogueCore
import SQLiteStore

extension Connection {
    /// Imports the records of a file on this connection; see
    /// ``Catalogue/importRecords(_:from:options:progress:skipped:)-hqp``. Inside an open transaction
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
    /// It waits for another connection's write to end, reporting
    /// ``ImportProgress/Phase/waitingForWriter`` meanwhile; an import that changed no row is
    /// rolled back, so the file is not touched at all.
    func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions,
        progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?,
        beforeWriting: ((Connection) throws -> Void)?
    ) throws -> ImportCounts {
        let run = RecordImportRun<R>(options: options)
        let waiting: () -> Void = {
            progress?(ImportProgress(phase: .waitingForWriter, bytesRead: 0, totalBytes: input.size, rows: 0))
        }
        return try withImportCache {
            do {
                return try transaction(.immediate, whileWaiting: waiting) {
                    try beforeWriting?(self)
                    let sink = try SQLiteImportSink<R>(db: self)
                    let counts = try run.run(input, into: sink, progress: progress, skipped: skipped)
                    // Nothing to keep: roll back, so the file is not touched at all.
                    if options.dryRun || counts.added + counts.updated == 0 { throw Rollback(counts: counts) }
                    progress?(ImportProgress(
                        phase: .committing, bytesRead: input.bytesRead, totalBytes: input.size, rows: counts.rows))
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

    /// Runs `body` with a page cache of at least ``importCacheKiB`` (when `enlarged`), then
    /// restores the size: for an import, and a bulk ``upsert(contentsOf:)``.
    func withImportCache<T>(_ enlarged: Bool = true, _ body: () throws -> T) throws -> T {
        guard enlarged else { return try body() }
        let previous: Int = try scalar("PRAGMA cache_size") ?? -2000
        // A negative size is in KiB, a positive one in pages.
        let pageSize: Int = try scalar("PRAGMA page_size") ?? 4096
        let previousKiB = previous < 0 ? -previous : previous * pageSize / 1024
        guard previousKiB < Self.importCacheKiB else { return try body() }
        return try withPragma("cache_size", -Self.importCacheKiB, body)
    }
}

/// Thrown at the end of a dry run, or of an import that changed nothing, to roll its
/// transaction back.
private struct Rollback: Error {
    let counts: ImportCounts
}
