import ArgumentParser
import CatalogueKit

/// Options every command that opens the catalogue takes, before or after the subcommand
/// (`catalogue --db x.sqlite search bog` and `catalogue search bog --db x.sqlite`).
package struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The database file, or a PostgreSQL URL; created and seeded on first use.",
            discussion: """
                Default: $CATALOGUE_DB, else $XDG_DATA_HOME/catalogue/catalogue.sqlite (its \
                directory is created if needed; for another path the directory must exist). \
                postgres://user:password@host:port/database uses a PostgreSQL database (a build \
                with PostgreSQL support: swift build --traits PostgreSQL); postgres:///database \
                connects through the server's local socket, as psql does; what the URL leaves \
                out comes from its ?service=NAME (~/.pg_service.conf), PGHOST, PGUSER, PGPASSWORD \
                and the rest of libpq's variables, and ~/.pgpass; TLS from ?sslmode= with \
                sslrootcert, sslcert and sslkey (~/.postgresql/postgresql.crt), as in libpq.
                """,
            valueName: "path"))
    package var db: String?

    package init() {}

    /// Where the catalogue is.
    var location: CatalogueLocation {
        CatalogueLocation(db: db)
    }

    /// The database path these options choose.
    var databasePath: String {
        location.path
    }

    /// Opens the catalogue: `.readOnly` for the commands that only read (an existing file is
    /// never written, a missing one is created), `.readWrite` for import. A write waits for
    /// another writer up to `writeLockTimeout` (nil: as long as it takes). `concurrentReads`
    /// gives reads connections of their own (see ``CatalogueLocation/open(access:writeLockTimeout:concurrentReads:hostChanged:)``);
    /// `hostChanged` hears, in a sentence, that a PostgreSQL catalogue moved to another host.
    package func openCatalogue(
        access: CatalogueAccess, writeLockTimeout: Duration? = nil, concurrentReads: Bool = true,
        hostChanged: (@Sendable (String) -> Void)? = nil
    ) throws -> Catalogue {
        try DatabaseInUse.open(
            location, access: access, writeLockTimeout: writeLockTimeout, concurrentReads: concurrentReads, hostChanged: hostChanged)
    }
}

extension CatalogueEntity: ArgumentChoices {
    /// The entity an argument names, plural or singular, in any case: `products`, `Product`.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "countries", "country": self = .countries
        case "products", "product": self = .products
        default: return nil
        }
    }
}
extension MatchMode: ArgumentChoices {}
