import ArgumentParser
import CatalogueKit

/// `catalogue export`: every country or product to a file or stdout, in a format `import` reads
/// back.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every country or product to a file or standard output as CSV, JSON or NDJSON.",
        discussion: """
            Rows are written one at a time, in id order, with every column: countries code, \
            iso3, numeric_code, name, official_name, capital, continent, region, subregion, \
            population, area_km2, currency_code, currency_name, tld, calling_code, languages, \
            neighbours, demonym, flag, aliases; products id, name, type, year, price. CSV has a \
            header row and CRLF line ends, and an empty field for no value; aliases are one \
            field separated by "; " in CSV, an array in JSON.

            A file is written whole or not at all: the rows go to a temporary file beside it, \
            which replaces it once every row is written, so a failed or interrupted export \
            leaves it as it was. Its format comes from its extension (.csv, .json, .ndjson or \
            .jsonl) unless --format is given; without a file (or with -), the rows go to \
            standard output, as CSV unless --format says otherwise.

            Importing an export into another database gives the same rows.

            Examples:
              catalogue export countries countries.json
              catalogue export countries > countries.csv
              catalogue export products --format ndjson | head -3
              catalogue export products | catalogue import products - --db copy.sqlite
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to export.")
    var entity: CatalogueEntity

    @Argument(help: ArgumentHelp(
        "The file to write, replaced only once the export is complete (- or none: standard output).",
        valueName: "file"))
    var file: String?

    @Option(help: ArgumentHelp(
        "Output format.",
        discussion: "Default: from the file's extension; CSV on standard output."))
    var format: RecordFileFormat?

    /// The file to write, or nil for standard output.
    var destinationPath: String? {
        file == "-" ? nil : file
    }

    /// The format to write, when the options or the file name tell.
    var resolvedFormat: RecordFileFormat? {
        if let format { return format }
        guard let destinationPath else { return .csv }
        return RecordFileFormat(path: destinationPath)
    }

    func validate() throws {
        if let destinationPath, destinationPath.isEmpty {
            throw ValidationError("the file name is empty; name a file, or - for standard output")
        }
        guard resolvedFormat != nil else {
            throw ValidationError(
                "cannot tell the format of '\(file ?? "")' from its extension; use --format csv, json or ndjson")
        }
    }

    func run() throws {
        let format = resolvedFormat ?? .csv
        let catalogue = try global.openCatalogue(access: .readOnly, concurrentReads: false)
        guard let destinationPath else {
            _ = try standardOutput.withExportOutput { output in
                try catalogue.exportRecords(entity.recordType, format: format, to: output)
            }
            return
        }
        try export(entity.recordType, from: catalogue, format: format, to: destinationPath)
    }

    /// Writes the rows to a temporary file beside `path` and puts it in place; says how many.
    private func export<R: CatalogueRecord>(_ type: R.Type, from catalogue: Catalogue, format: RecordFileFormat, to path: String) throws {
        let start = monotonicSeconds()
        InterruptSignals.install(clearsLine: false, message: "catalogue: interrupted; \(path) was not written")
        let destination = try ExportDestination(
            path: path, databasePath: global.location.isPostgres ? nil : global.databasePath)
        let count: Int
        do {
            count = try catalogue.exportRecords(type, format: format, to: destination.output)
            // What was read must be one state of the catalogue before it replaces the file.
            try DatabaseInUse.verifyReads()
        } catch let error as ExportOutputError {
            destination.abandon()
            throw ExportDestinationError(path: path, code: error.code)
        } catch {
            destination.abandon()
            throw error
        }
        try destination.commit()
        let seconds = String(format2: monotonicSeconds() - start)
        standardOutput.print("Exported \(R.entity.count(count)) to \(path) (\(format.rawValue.uppercased())) in \(seconds) s")
        try standardOutput.finish()
        let signal = InterruptSignals.pendingSignal
        if signal != 0 { throw InterruptedAfterCommit(signal: signal, what: "\(path) was written") }
    }
}
