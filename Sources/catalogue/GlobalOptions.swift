import ArgumentParser
import CatalogueKit

/// Options every command that opens the catalogue takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The database file; created and seeded on first use.",
            discussion: "Default: $CATALOGUE_DB, else $XDG_DATA_HOME/catalogue/catalogue.sqlite.",
            valueName: "path"))
    var db: String?

    /// The database path these options choose.
    var databasePath: String {
        db ?? Catalogue.defaultPath()
    }

    /// Opens the catalogue: `.readOnly` for the commands that only read (an existing file is
    /// never written, a missing one is created), `.readWrite` for import. A write waits for
    /// another writer up to `writeLockTimeout` (nil: as long as it takes).
    func openCatalogue(access: CatalogueAccess, writeLockTimeout: Duration? = nil) throws -> Catalogue {
        let path = databasePath
        DatabaseInUse.path.withLock { $0 = path }
        var configuration = Configuration()
        configuration.writeLockTimeout = writeLockTimeout
        let catalogue = try Catalogue(path: path, configuration: configuration, access: access)
        DatabaseInUse.catalogue.withLock { $0 = catalogue }
        return catalogue
    }
}

extension CatalogueEntity: ExpressibleByArgument {}
extension MatchMode: ExpressibleByArgument {}
