import ArgumentParser
import CatalogueKit

/// `catalogue reindex`: folds the search keys of rows written by other tools.
struct ReindexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Recompute the folded search keys of every country, alias and product.",
        discussion: """
            Rows written by other tools (the sqlite3 shell, sqlite-utils, a script) do not carry \
            the folded keys that case- and diacritic-insensitive search reads. The catalogue \
            folds them on its own when it opens the file, at each of its writes, and when it \
            notices another process's commit; reindex checks every key now and reports how many \
            it corrected. It also builds the index of contains searches again, which drops the \
            names of deleted and renamed products that it still holds (they never change a \
            result, only make a search read more).

            Examples:
              sqlite3 catalogue.sqlite "INSERT INTO product (name, type) VALUES ('Crème brûlée torch', 'kitchen')"
              catalogue reindex --db catalogue.sqlite
              catalogue search creme --entity products --db catalogue.sqlite
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readWrite)
        guard let sqlite = catalogue.sqlite else {
            standardOutput.print("Nothing to do: on \(catalogue.engine.name), only CatalogueKit writes the keys.")
            return
        }
        let changed = try sqlite.reindexKeys()
        standardOutput.print(changed == 0 ? "Every key was up to date." : "\(FieldFormat.grouped(Int64(changed))) keys folded again.")
    }
}
