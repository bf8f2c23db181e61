import ArgumentParser
import CatalogueKit

#if canImport(Glibc)
import Glibc
#endif

/// `catalogue interactive`: the full-screen search-as-you-type view, with the sectioned browse
/// list behind it, like the WorldFacts table with its search bar.
struct InteractiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interactive",
        abstract: "Browse and search in a full-screen terminal view, as you type.",
        discussion: """
            Browsing shows the records in sections by initial letter with an A–Z index at the \
            right; searching shows the records whose name (or, in the Capital scope, capital) \
            starts with the text, ignoring case and diacritics, with "N items found".

            Keys:
              /                   start a search (while browsing)
              typing              edit the search (Backspace; Ctrl-U clears; Ctrl-W a word)
              A–Z, #              jump to that section while browsing (or the next one);
                                  q quits, so Shift-Q jumps to Q
              ↑ ↓ PgUp PgDn       move the selection; Home and End go to the first and last
              Tab, Shift-Tab      next and previous scope: Name, Capital for countries;
                                  All and each product type for products
              Enter               details of the selected record; Esc or Enter closes them
              Esc                 end the search and return to the sections
              Ctrl-C, Ctrl-D, F10 quit; q quits too while browsing
              Ctrl-Z, Ctrl-L      suspend; redraw

            Quitting (by a key, or by SIGTERM or SIGHUP) saves the mode, search text, scope and \
            selection of this database under $XDG_STATE_HOME/catalogue \
            (~/.local/state/catalogue); the next launch with the same database restores them. \
            Without --entity, the entity used last with the database is shown. The terminal is \
            always restored, also after a crash. Needs a terminal on standard input and output \
            (exit code 1 otherwise); NO_COLOR turns colours off.

            Examples:
              catalogue interactive
              catalogue interactive --entity products
              catalogue interactive --db ./catalogue.sqlite
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "What to show: countries or products (default: the last one used with this database, else countries).")
    var entity: CatalogueEntity?

    func run() throws {
        guard Terminal.isInteractive else {
            throw TerminalError.notATerminal
        }
        // Interactive use only reads; were it to write, it would wait a few seconds at most.
        let catalogue = try global.openCatalogue(access: .readOnly, writeLockTimeout: .seconds(5))
        let store = catalogue.path == ":memory:" ? nil : InteractiveStateStore(databasePath: catalogue.path)
        let file = store?.load()
        let entity = self.entity ?? file?.lastEntity ?? .countries
        let source = try InteractiveSources.source(for: entity, catalogue: catalogue)
        let session = InteractiveSession(
            terminal: Terminal(), source: source, colours: TerminalOutput.usesColour(STDOUT_FILENO))
        let outcome = try session.run(restoring: file?.entities[entity.rawValue])
        if let store {
            do {
                try store.save(session.state.saved, entity: entity)
            } catch {
                standardError("catalogue: warning: the interactive state was not saved: \(error)")
            }
        }
        if case .signal(let signal) = outcome {
            TerminalSignals.raiseDefault(signal)
        }
    }
}
