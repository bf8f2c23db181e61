import ArgumentParser
import CatalogueKit

/// `catalogue export`: every country or product to stdout, in a format `import` reads back.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every country or product to standard output as CSV, JSON or NDJSON.",
        discussion: """
            Rows are written one at a time, in id order, with every column: countries code, \
            iso3, numeric_code, name, official_name, capital, continent, region, subregion, \
            population, area_km2, currency_code, currency_name, tld, calling_code, languages, \
            neighbours, demonym, flag, aliases; products id, name, type, year, price. CSV has a \
            header row and CRLF line ends, and an empty field for no value; aliases are one \
            field separated by "; " in CSV, an array in JSON.

            Importing an export into another database gives the same rows.

            Examples:
              catalogue export countries > countries.csv
              catalogue export products --format ndjson | head -3
              catalogue export products | catalogue import products - --db copy.sqlite
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to export.")
    var entity: CatalogueEntity

    @Option(help: "Output format.")
    var format: RecordFileFormat = .csv

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readOnly, concurrentReads: false)
        _ = try standardOutput.withExportOutput { output in
            try catalogue.exportRecords(entity.recordType, format: format, to: output)
        }
    }
}
