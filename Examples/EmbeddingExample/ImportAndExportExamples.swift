// The code of the DocC article "Import and export", verbatim, compiled as an app would compile it.
import CatalogueKit
import Foundation

func importAndExport(catalogue: Catalogue) throws {
    let counts = try catalogue.importRecords(
        Product.self, from: try ImportInput(path: "products.csv"),
        options: ImportOptions(format: .csv, onError: .skip),
        skipped: { issue in print(issue) })   // products.csv:7: year: not a whole number: "20x7"
    print("\(counts.added) added, \(counts.updated) updated, \(counts.skipped) skipped")

    try catalogue.exportRecords(Country.self, format: .ndjson, to: .standardOutput())
}

/// The article's export to a function of one's own.
func exportToBlocks(catalogue: Catalogue) throws -> [[UInt8]] {
    var blocks: [[UInt8]] = []
    try catalogue.exportRecords(Product.self, format: .csv, to: ExportOutput { blocks.append($0) })
    return blocks
}

/// Run first by main.swift, before any connection opens.
func disableMemoryStatistics() {
    // First thing in main, before any Catalogue or Connection is opened:
    SQLiteLibrary.disableMemoryStatistics()
}

/// The article's first import, run twice in `directory` (its working directory meanwhile): the
/// first run creates shop.sqlite, the second finds it and imports into it.
func firstImportExample(directory: URL) throws {
    let previous = FileManager.default.currentDirectoryPath
    guard FileManager.default.changeCurrentDirectoryPath(directory.path) else { throw CocoaError(.fileNoSuchFile) }
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    try "name,type,year,price\nBrass kettle,kitchen,2021,39.90\nDesk lamp,office,2019,24.50\n"
        .write(toFile: "products.csv", atomically: true, encoding: .utf8)
    try firstImport()
    try firstImport()
    // A path with no catalogue yet: the first open creates it and says so, the second does not.
    try FileManager.default.removeItem(atPath: "shop.sqlite")
    _ = try openShop()
    _ = try openShop()
}

/// The article's open through the engine, which says whether it created the catalogue.
func openShop() throws -> Catalogue {
    let engine = try SQLiteEngine(path: "shop.sqlite", whileWaitingForCreation: {
        print("waiting for another process to finish creating shop.sqlite…")
    })
    if engine.createdFile { print("created shop.sqlite") }
    let catalogue = Catalogue(engine: engine)
    return catalogue
}

func firstImport() throws {
    let input = try ImportInput(path: "products.csv")
    let options = ImportOptions(format: .csv)
    if let counts = try Catalogue.importRecords(Product.self, from: input, options: options,
                                                intoNewCatalogueAt: "shop.sqlite") {
        print("created shop.sqlite with \(counts.added) products")
    } else {
        // A file is there already: import into it as usual.
        try Catalogue(path: "shop.sqlite").importRecords(Product.self, from: input, options: options)
    }
}
