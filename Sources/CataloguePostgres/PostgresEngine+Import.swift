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
        let lease = try ConnectionLease.acquire(from: client, timeout: context.options.leaseTimeout, target: location)
        defer { lease.release() }
        // No statement deadline: a COPY and its merge take as long as the file is long.
        var unlimited = context.options
        unlimited.statementTimeout = nil
        let runner = PostgresStatementRunner(
            target: .connection(lease.connection),
            context: PostgresEngineContext(targetDescription: location, options: unlimited, logger: context.logger))
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
        let tables = Set([R.schema.table])
        changeHub.publish(DatabaseChange(tables: tables, origin: .thisCatalogue))
        return counts
    }
}
#endif
