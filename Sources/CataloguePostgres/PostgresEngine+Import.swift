#if PostgreSQL
import CatalogueCore

extension PostgresEngine {
    /// Imports a file in one transaction of its own on one connection: products by COPY into a
    /// staging table merged at the end, countries row by row (see the sinks). All or nothing:
    /// an error, a lost connection or a killed client leaves the database as it was.
    public func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions,
        progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?
    ) throws -> ImportCounts {
        try onCurrentHost { pool in
            try importRecords(type, from: input, options: options, on: pool, progress: progress, skipped: skipped)
        }
    }

    /// ``importRecords(_:from:options:progress:skipped:)`` on `pool`'s host.
    private func importRecords<R: ImportableRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions, on pool: PostgresHostPool,
        progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?
    ) throws -> ImportCounts {
        let context = pool.context
        let lease = try ConnectionLease.acquire(from: pool, timeout: context.options.leaseTimeout)
        defer { lease.release() }
        // No statement deadline: a COPY and its merge take as long as the file is long.
        var unlimited = context.options
        unlimited.statementTimeout = nil
        let runner = PostgresStatementRunner(
            target: .connection(lease.connection),
            context: PostgresEngineContext(
                targetDescription: context.targetDescription, options: unlimited, logger: context.logger, tls: context.tls))
        let session = PostgresSession(runner: runner)
        let run = RecordImportRun<R>(options: options)
        try runner.execute("BEGIN")
        let counts: ImportCounts
        do {
            if R.schema.aliases == nil, !R.schema.naturalKey.isEmpty {
                let sink = try PostgresCopyImportSink<R>(runner: runner, connection: lease.connection)
                do {
                    counts = try run.run(input, into: sink, progress: progress, skipped: skipped)
                } catch {
                    sink.abort()
                    throw error
                }
            } else {
                let sink = PostgresRowImportSink<R>(session: session, skipsRefusedRows: options.onError == .skip)
                counts = try run.run(input, into: sink, progress: progress, skipped: skipped)
            }
            if options.dryRun || counts.added + counts.updated == 0 {
                try runner.execute("ROLLBACK")
                return counts
            }
            try noteOwnTransaction(session)
            try runner.execute("COMMIT")
        } catch {
            try? runner.execute("ROLLBACK")
            throw error
        }
        mergePendingIndexEntries(of: R.schema.table, runner: runner)
        let tables = Set([R.schema.table])
        changeHub.publish(DatabaseChange(tables: tables, origin: .thisCatalogue))
        return counts
    }

    /// Moves the entries a bulk write (an import, a staged bulk upsert) left in the pending
    /// lists of `table`'s GIN indexes (the words and trigram indexes) into the indexes, as
    /// autovacuum would a minute later. Until then every search through such an index also
    /// reads the whole list: 351 pending pages after a 1,000,000-row import made a words page
    /// take 3.2 ms instead of 0.8 ms. Best effort, after the commit: a role that does not own
    /// the indexes may not do it, and autovacuum still will.
    func mergePendingIndexEntries(of table: String, runner: PostgresStatementRunner) {
        do {
            try runner.execute(
                "SELECT gin_clean_pending_list(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                    + "JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'gin' AND i.indrelid = to_regclass($1)",
                [.text(table)])
        } catch {
            context.logger.debug("pending GIN entries of \(table) left to autovacuum: \(error)")
        }
    }
}
#endif
