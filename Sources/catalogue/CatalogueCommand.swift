import ArgumentParser
import CatalogueKit

/// `catalogue`: the command-line face of CatalogueKit.
@main
struct CatalogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Search a catalogue of countries and products, as you type.",
        discussion: """
            The database is created, migrated and seeded on first use, at --db, $CATALOGUE_DB, \
            or $XDG_DATA_HOME/catalogue/catalogue.sqlite.
            """,
        version: CatalogueVersion.current,
        subcommands: []
    )
}
