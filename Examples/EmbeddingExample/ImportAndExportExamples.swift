// The code of the DocC article "Import and export", verbatim, compiled as an app would compile it.
import CatalogueKit

func importAndExport(catalogue: Catalogue) throws {
    let counts = try catalogue.importRecords(
        Product.self, from: try ImportInput(path: "products.csv"),
        options: ImportOptions(format: .csv, onError: .skip),
        skipped: { issue in print(issue) })   // products.csv:7: year: not a whole number: "20x7"
    print("\(counts.added) added, \(counts.updated) updated, \(counts.skipped) skipped")

    try catalogue.exportRecords(Country.self, format: .ndjson, to: .standardOutput())
}

/// Run first by main.swift, before any connection opens.
func disableMemoryStatistics() {
    // First thing in main, before any Catalogue or Connection is opened:
    SQLiteLibrary.disableMemoryStatistics()
}
