import ArgumentParser
import CatalogueKit
import Foundation

/// `catalogue import`: load countries or products from a CSV, JSON or NDJSON file.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import countries or products from a CSV, JSON or NDJSON file.",
        discussion: """
            Rows are upserted by their natural key (a country's code; a product's name and type) \
            in one transaction. CSV files start with a header row naming the columns, in any \
            order; JSON files hold an array of objects, NDJSON files one object per line.

            Columns: countries code and name (required), iso3, numeric_code, official_name, \
            capital, continent, region, subregion, population, area_km2, currency_code, \
            currency_name, tld, calling_code, languages, neighbours, demonym, flag, aliases \
            ("a; b; c" in CSV). Products name and type (required), year, price; an id column \
            is accepted and ignored. An empty field is no value. Values longer than 10,000 \
            characters are refused.

            With --on-error abort (the default), the first bad row stops the import and \
            nothing is written: "catalogue: error: FILE:LINE: column: reason", exit code 1. \
            With --on-error skip, bad rows are reported on stderr as "FILE:LINE: column: \
            reason" and the rest is imported. LINE is the line of the value at fault: in CSV \
            the line on which the row starts, in JSON and NDJSON the line of the field (of the \
            object when no field is at fault). Years and prices are plain decimal numbers \
            (2007, 4.5); +2007, 2e3 and 0x7D7 are refused.

            An existing row is updated only in the columns the file has: importing code and \
            name renames a country and keeps the rest. A file that changes nothing leaves the \
            database untouched.

            Only one import writes at a time: another one waits for it to finish, showing \
            "waiting for another import to finish…" on a terminal, for as long as it takes \
            unless --wait-timeout says otherwise. Interrupted (Ctrl-C, SIGTERM) before the \
            commit, nothing is imported and the message says so; from the commit on, the \
            summary is printed first.

            The format comes from the file's extension (.csv, .json, .ndjson or .jsonl) unless \
            --format is given; for standard input (-), from its first character other than \
            spaces: [ is JSON, { is NDJSON, anything else CSV. A progress bar appears on stderr \
            when it is a terminal and the import takes a while.

            The exit code is 1 when nothing could be imported because every row was bad (with \
            --on-error skip), so a script notices; a file with no rows at all is not an error.

            Examples:
              catalogue import products products.csv
              catalogue import countries countries.json --on-error skip
              catalogue import products big.csv --dry-run
              catalogue export products | catalogue import products - --db copy.sqlite
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to import.")
    var entity: CatalogueEntity

    @Argument(help: ArgumentHelp("The file to read; - for standard input.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp(
        "The file's format.",
        discussion: "Default: from the extension; for standard input, from its first character."))
    var format: RecordFileFormat?

    @Option(name: .customLong("on-error"), help: "What to do with a bad row: abort (import nothing) or skip it.")
    var onError: ImportErrorPolicy = .abort

    @Flag(help: "Check and count every row, then roll back: nothing is written (no write access needed).")
    var dryRun = false

    @Option(name: .customLong("wait-timeout"), help: ArgumentHelp(
        "How long to wait for another import to finish, in seconds.",
        discussion: "Default: no limit.", valueName: "seconds"))
    var waitTimeout: Double?

    /// The format to read, when the options or the file name tell (standard input: nil
    /// without --format, sniffed from its content).
    var resolvedFormat: RecordFileFormat? {
        format ?? (file == "-" ? nil : RecordFileFormat(path: file))
    }

    func validate() throws {
        if let waitTimeout, !(waitTimeout >= 0 && waitTimeout < 1e9) {
            throw ValidationError("--wait-timeout must be a number of seconds, 0 or more, not \(waitTimeout)")
        }
        guard resolvedFormat != nil || file == "-" else {
            throw ValidationError(
                "cannot tell the format of '\(file)' from its extension; use --format csv, json or ndjson")
        }
    }

    func run() throws {
        // Open the input first: a missing file must not create a database.
        let input = file == "-" ? ImportInput.standardInput() : try ImportInput(path: file)
        let options = ImportOptions(format: try resolvedFormat ?? input.sniffedFormat(), onError: onError, dryRun: dryRun)
        DatabaseInUse.waitLimit.withLock { $0 = .option(waitTimeout) }
        do {
            try importRecords(entity.recordType, from: input, options: options)
        } catch let issue as ImportIssue {
            if let hint = WrongEntityHint(issue, importing: entity, file: file) { throw hint }
            throw issue
        }
    }

    /// Imports into a new catalogue file when there is none yet (built without a write-ahead
    /// log, about 12 % faster), into the catalogue at the location otherwise.
    private func importRecords<R: CatalogueRecord>(_ type: R.Type, from input: ImportInput, options: ImportOptions) throws {
        let bar = ImportProgressBar()
        defer { bar.clear() }
        InterruptSignals.install(clearsLine: bar.enabled, message: "catalogue: interrupted; nothing was imported")
        let start = monotonicSeconds()
        let skipped: (ImportIssue) -> Void = { issue in
            bar.clear()
            standardError(issue.description)
        }
        let writeLockTimeout = waitTimeout.map { Duration.milliseconds(Int64(($0 * 1000).rounded())) }
        let created: ImportCounts?
        do {
            created = dryRun ? nil : try importIntoNewCatalogue(type, from: input, options: options,
                                                                 writeLockTimeout: writeLockTimeout, bar: bar, skipped: skipped)
        } catch {
            bar.clear()
            announceCreationIfLeft(by: error)
            throw error
        }
        let counts: ImportCounts
        if let created {
            counts = created
        } else {
            let catalogue = try global.openCatalogue(access: .readWrite, writeLockTimeout: writeLockTimeout)
            let progress: (ImportProgress) -> Void = { progress in
                if progress.phase == .committing { InterruptSignals.committing() }
                bar.update(progress)
            }
            counts = try catalogue.importRecords(type, from: input, options: options, progress: progress, skipped: skipped)
        }
        bar.clear()
        if created != nil { global.location.announceCreation() }
        standardOutput.print(Self.summary(counts, entity: R.entity, seconds: monotonicSeconds() - start, dryRun: dryRun))
        do {
            try standardOutput.finish()
        } catch let error as StandardOutputError where !error.isBrokenPipe {
            throw ImportReportError(output: error, written: !dryRun && counts.added + counts.updated > 0)
        }
        let signal = InterruptSignals.pendingSignal
        if signal != 0 { throw InterruptedAfterCommit(signal: signal, what: "the import was committed") }
        if counts.imported == 0, counts.skipped > 0 {
            standardError("catalogue: error: nothing imported: every row of \(input.name) was skipped")
            throw ExitCode(1)
        }
    }

    /// The import into a new catalogue file, when there is none yet at the location (see
    /// ``CatalogueLocation/importIntoNewCatalogue(_:from:options:writeLockTimeout:progress:skipped:)``);
    /// nil, having read nothing, otherwise. From its first report of rows (none yet, before the
    /// schema is built) it owns its temporary file, which a signal then removes.
    private func importIntoNewCatalogue<R: CatalogueRecord>(
        _ type: R.Type, from input: ImportInput, options: ImportOptions, writeLockTimeout: Duration?,
        bar: ImportProgressBar, skipped: @escaping (ImportIssue) -> Void
    ) throws -> ImportCounts? {
        let temporary = Catalogue.firstImportTemporaryPath(for: global.databasePath)
        let progress: (ImportProgress) -> Void = { progress in
            switch progress.phase {
            case .committing: InterruptSignals.committing()
            case .rows, .indexing: InterruptSignals.removeOnInterrupt(temporary)
            case .waitingForWriter: break  // another import's file
            }
            bar.update(progress)
        }
        return try DatabaseInUse.importIntoNewCatalogue(
            global.location, type, from: input, options: options, writeLockTimeout: writeLockTimeout,
            progress: progress, skipped: skipped)
    }

    /// After a first import threw: says that the catalogue was created when the import left it
    /// at the path (its schema and seed, as opening the path makes it), as an open that creates
    /// a catalogue does.
    private func announceCreationIfLeft(by error: any Error) {
        if Self.leftCatalogue(after: error, fileExists: FileManager.default.fileExists(atPath: global.databasePath)) {
            global.location.announceCreation()
        }
    }

    /// Whether a first import that threw `error` created the catalogue now at the path: the
    /// import's own errors come after the catalogue got its name. Not a wait for another
    /// process's first import given up (`SQLITE_BUSY`), nor a creation that failed or found
    /// another program's file at the path (``CatalogueError/cannotCreate(path:reason:)``):
    /// a file there then is not this run's.
    static func leftCatalogue(after error: any Error, fileExists: Bool) -> Bool {
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_BUSY { return false }
        if case CatalogueError.cannotCreate = error { return false }
        return fileExists
    }

    /// "Imported 3 products (1 added, 1 updated, 1 skipped) in 0.01 s"; unchanged rows are
    /// counted when there are any.
    static func summary<R>(_ counts: ImportCounts, entity: EntityDescriptor<R>, seconds: Double, dryRun: Bool) -> String {
        func grouped(_ count: Int) -> String { FieldFormat.grouped(Int64(count)) }
        var parts = ["\(grouped(counts.added)) added", "\(grouped(counts.updated)) updated"]
        if counts.unchanged > 0 { parts.append("\(grouped(counts.unchanged)) unchanged") }
        parts.append("\(grouped(counts.skipped)) skipped")
        let time = String(format2: seconds)
        let text = "\(entity.count(counts.imported)) (\(parts.joined(separator: ", "))) in \(time) s"
        return dryRun ? "Dry run: would import \(text); nothing was written" : "Imported \(text)"
    }
}

/// The summary of an import could not be written; says whether the import landed anyway.
struct ImportReportError: Error, CustomStringConvertible {
    let output: StandardOutputError
    let written: Bool

    var description: String {
        output.description + (written ? "; the import was committed" : "; nothing was written")
    }
}

extension RecordFileFormat: ArgumentChoices {}
extension ImportErrorPolicy: ArgumentChoices {}

extension String {
    /// Two decimals: 0.014 → "0.01".
    init(format2 value: Double) {
        let hundredths = Int64((value * 100).rounded())
        let fraction = hundredths % 100
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
