/// Where an import writes its rows: an engine's writer, inside the transaction the engine
/// opened for the import.
///
/// ```swift
/// struct Sink: ImportSink {   // an engine's
///     var wantsWrittenValues: Bool { true }
///     func write(_ record: Product, values: [DatabaseValue]?, assigned: [Bool]?, position: ImportPosition) throws -> UpsertOutcome { … }
///     func finish() throws -> Bool { false }
/// }
/// ```
package protocol ImportSink<Record> {
    associatedtype Record: ImportableRecord
    /// Whether each row should come with its ``CatalogueCore/Record/writtenValues``,
    /// computed on the reading thread.
    var wantsWrittenValues: Bool { get }
    /// Writes one record (upserting it by natural key) and says what happened. `assigned` (one
    /// flag per stored column, nil for all) limits an update of an existing record to the
    /// columns the import file has. Throws ``ImportRowRefused`` for a row the database refuses
    /// while the transaction goes on.
    func write(_ record: Record, values: [DatabaseValue]?, assigned: [Bool]?, position: ImportPosition) throws -> UpsertOutcome
    /// Completes the writes before the commit (builds deferred indexes); true when that took an
    /// indexing phase. Not called for a dry run.
    func finish() throws -> Bool
    /// Whether ``finish()`` will have indexing to do (so progress can say so first).
    var needsIndexing: Bool { get }
    /// The final counts, for a sink that learns the outcomes only at the end (PostgreSQL's
    /// COPY into a staging table, merged at the end): `counts` has every written row as
    /// added. Called after ``finish()``, and for a dry run too. By default, `counts`.
    func settle(_ counts: ImportCounts) throws -> ImportCounts
}

extension ImportSink {
    package func settle(_ counts: ImportCounts) throws -> ImportCounts {
        counts
    }
}

/// Where an import is after a row: counts so far and how much of the input was read.
package struct ImportPosition {
    package let counts: ImportCounts
    package let bytesRead: Int
    package let totalBytes: Int?
}

/// A row the database refused (a constraint the import's checks do not cover): under
/// ``ImportErrorPolicy/skip`` it is reported and the import goes on.
package struct ImportRowRefused: Error {
    package let reason: String

    package init(reason: String) {
        self.reason = reason
    }
}

/// The import loop every engine shares: reads rows from a source on a second thread, turns
/// them into records, hands them to the engine's ``ImportSink``, applies the error policy and
/// reports progress. Runs inside the transaction the engine opens for the import.
package struct RecordImportRun<R: ImportableRecord> {
    let options: ImportOptions
    /// How many rows between two progress reports.
    static var progressInterval: Int { 1024 }

    package init(options: ImportOptions) {
        self.options = options
    }

    /// The row source for `input` in the options' format. Throws ``FatalImportIssue`` for a bad
    /// header. Under ``ImportErrorPolicy/abort`` a value over the length limit ends reading
    /// where the limit is passed: the import stops at that row anyway.
    func makeSource(_ input: ImportInput) throws -> any ImportRowSource {
        let stops = options.onError == .abort
        return switch options.format {
        case .csv: try CSVRowSource(input, columns: R.importColumns, stopsAtOverlongField: stops)
        case .json: try JSONRowSource(input, columns: R.importColumns, layout: .array, stopsAtOverlongValue: stops)
        case .ndjson: try JSONRowSource(input, columns: R.importColumns, layout: .lines, stopsAtOverlongValue: stops)
        }
    }

    /// Imports every row of `input` into `sink`. Throws the first ``ImportIssue`` under
    /// ``ImportErrorPolicy/abort``, a fatal one under either policy, and database and input
    /// errors.
    package func run<Sink: ImportSink>(
        _ input: ImportInput, into sink: Sink,
        progress: ((ImportProgress) -> Void)?, skipped: ((ImportIssue) -> Void)?
    ) throws -> ImportCounts where Sink.Record == R {
        let source: any ImportRowSource
        do {
            source = try makeSource(input)
        } catch let fatal as FatalImportIssue {
            throw fatal.issue
        }
        var counts = ImportCounts()
        var bytesRead = 0

        func refuse(_ issue: ImportIssue) throws {
            guard options.onError == .skip else { throw issue }
            counts.skipped += 1
            skipped?(issue)
        }

        let pipeline = ImportPipeline<R>(
            source: source, inputName: input.name, preparesValues: sink.wantsWrittenValues,
            readsPastIssues: options.onError == .skip)
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
                        let position = ImportPosition(counts: counts, bytesRead: batch.bytesRead, totalBytes: input.size)
                        counts.record(try sink.write(record, values: values, assigned: assigned, position: position))
                    } catch let refused as ImportRowRefused {
                        try refuse(ImportIssue(source: input.name, line: line, column: nil, reason: refused.reason))
                    } catch let error as RecordError {
                        try refuse(ImportIssue(source: input.name, line: line, column: nil, reason: error.description))
                    }
                }
            }
            bytesRead = batch.bytesRead
            switch batch.end {
            case nil, .finished?, .stoppedAtIssue?: break
            case .fatal(let issue)?: throw issue
            case .failed(let error)?: throw error
            }
        }
        progress?(ImportProgress(bytesRead: bytesRead, totalBytes: input.size, rows: counts.rows))
        // A dry run is rolled back: nothing to complete.
        if !options.dryRun {
            if sink.needsIndexing {
                progress?(ImportProgress(phase: .indexing, bytesRead: bytesRead, totalBytes: input.size, rows: counts.rows))
            }
            _ = try sink.finish()
        }
        return try sink.settle(counts)
    }
}
