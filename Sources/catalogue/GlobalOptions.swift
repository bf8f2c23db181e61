import ArgumentParser
import CatalogueKit

/// Options every command that opens the catalogue takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The database file; created, migrated and seeded on first use.",
            discussion: "Default: $CATALOGUE_DB, else $XDG_DATA_HOME/catalogue/catalogue.sqlite.",
            valueName: "path"))
    var db: String?

    /// The database path these options choose.
    var databasePath: String {
        db ?? Catalogue.defaultPath()
    }

    /// Opens the catalogue.
    func openCatalogue() throws -> Catalogue {
        try Catalogue(path: databasePath)
    }
}

extension CatalogueEntity: ExpressibleByArgument {}
extension MatchMode: ExpressibleByArgument {}
