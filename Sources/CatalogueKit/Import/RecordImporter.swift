/// The import loop: reads rows from a source, turns them into records, upserts them, and applies
/// the error policy. Runs inside the transaction ``Catalogue/importRecords(_:from:options:progress:skipped:)``
/// opens.
struct RecordImporter<R: ImportableRecord> {
    let db: Connection
    let options: ImportOptions
    /// How many rows between two progress reports.
    static var progressInterval: Int { 1024 }

    /// The row source for `input` in the options' format. Throws ``FatalImportIssue`` for a bad
    /// header.
    func makeSource(_ input: ImportInput) throws -> any ImportRowSource {
        switch options.format {
        case .csv: try CSVRowSource(input, columns: R.importColumns)
        case .json: try JSONRowSource(input, columns: R.importColumns, layout: .array)
        case .ndjson: try JSONRowSource(input, columns: R.importColumns, layout: .lines)
        }
    }

    /// Imports every row of `input`. Throws the first ``ImportIssue`` under
    /// ``ImportErrorPolicy/abort``, a fatal one under either policy, and database and input errors.
    func run(
        _ input: ImportInput, progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?
    ) throws -> ImportCounts {
        let source: any ImportRowSource
        do {
            source = try makeSource(input)
        } catch let fatal as FatalImportIssue {
            throw fatal.issue
        }
        let deferral = try RecordUpserter<R>.assignedColumns.flatMap {
            try FullTextDeferral.suspend(R.self, on: db, updatedColumns: $0)
        }
        let upserter = try RecordUpserter<R>(db)
        // Only the two-statement path never reads the plain indexes.
        let indexes = upserter.isBatchPath ? try IndexDeferral(table: R.schema.table, on: db) : nil
        var counts = ImportCounts()
        var bytesRead = 0

        func refuse(_ issue: ImportIssue) throws {
            guard options.onError == .skip else { throw issue }
            counts.skipped += 1
            skipped?(issue)
        }

        let pipeline = ImportPipeline<R>(source: source, inputName: input.name, preparesValues: upserter.isBatchPath)
        pipeline.start()
        defer { pipeline.finish() }
        while let batch = pipeline.next() {
            for item in batch.items {
                if let progress, counts.rows % Self.progressInterval == 0 {
                    progress(ImportProgress(bytesRead: bytesRead, totalBytes: input.size, rows: counts.rows))
                }
                switch item {
                case .issue(let issue):
                    try refuse(issue)
                case .row(let line, let record, let values, let assigned):
                    do {
                        let outcome = try upserter.upsert(record, values: values, assigned: assigned)
                        counts.record(outcome)
                        if outcome == .inserted {
                            try indexes?.inserted(
                                counts.added, rows: counts.rows, bytesRead: batch.bytesRead, totalBytes: input.size, on: db)
                        }
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        // A constraint the checks do not cover: the statement was rolled back, the
                        // transaction goes on.
                        try refuse(ImportIssue(source: input.name, line: line, column: nil, reason: error.message))
                    } catch let error as RecordError {
                        try refuse(ImportIssue(source: input.name, line: line, column: nil, reason: error.description))
                    }
                }
            }
            bytesRead = batch.bytesRead
            switch batch.end {
            case nil, .finished?: break
            case .fatal(let issue)?: throw issue
            case .failed(let error)?: throw error
            }
        }
        progress?(ImportProgress(bytesRead: bytesRead, totalBytes: input.size, rows: counts.rows))
        // A dry run is rolled back, trigger, indexes and all: no need to index.
        if !options.dryRun, deferral != nil || indexes?.hasDroppedIndexes == true {
            progress?(ImportProgress(phase: .indexing, bytesRead: bytesRead, totalBytes: input.size, rows: counts.rows))
            try deferral?.resume(on: db)
            try indexes?.rebuild(on: db)
        }
        return counts
    }
}
