import ArgumentParser
import CatalogueKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `catalogue interactive`: the full-screen search-as-you-type view, with the sectioned browse
/// list behind it, like the WorldFacts table with its search bar.
struct InteractiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interactive",
        abstract: "Browse and search in a full-screen terminal view, as you type.",
        discussion: """
            Browsing shows the records in sections by initial letter with an A–Z index at the \
            right (on a short terminal, "•" stands for letters left out) and the section of the \
            top row pinned above it; searching shows the records that match the text as you \
            type, ignoring case and diacritics, the matched part highlighted (a country found \
            by another name shows it dimmed: "Côte d'Ivoire — Ivory Coast"), with "N items \
            found". The scope bar shows how many records each scope has for the text.

            Keys (? or F1 shows them all on screen):
              /                   start a search (while browsing)
              typing              edit the search (Backspace; Ctrl-U clears; Ctrl-W a word)
              paste               search for the pasted text (at most 256 characters; line
                                  breaks become spaces; it never acts as keys)
              A–Z, #              jump to that section while browsing (or the next one);
                                  q quits, so Shift-Q jumps to Q
              ↑ ↓ PgUp PgDn       move the selection; Home and End go to the first and last
              Tab, Shift-Tab      next and previous scope: Name, Capital for countries;
                                  All and each product type for products (the selected
                                  record stays selected when the new scope has it)
              Ctrl-T              match mode: prefix, contains, words, terms, fuzzy
                                  ("ipod 2007" finds iPod touch in terms mode, "iphnoe"
                                  finds iPhone in fuzzy mode)
              Ctrl-E              switch between countries and products
              Enter               details of the selected record; Esc or Enter closes them
              Esc                 end the search and return to the sections
              ?, F1               help: every key (any key closes it; ? types while searching)
              Ctrl-C, Ctrl-D, F10 quit; q quits too while browsing
              Ctrl-Z, Ctrl-L      suspend; redraw

            Quitting (by a key, or by SIGTERM or SIGHUP) saves, for each entity shown, the mode, \
            search text, match mode, scope and selection of this database under \
            $XDG_STATE_HOME/catalogue (~/.local/state/catalogue); the next launch with the same \
            database restores them, and the entity shown last. The terminal is always restored, \
            also after a crash. Needs a terminal on standard input and output that understands \
            escape sequences (exit code 1 otherwise, and with TERM=dumb); NO_COLOR turns \
            colours and highlighting off.

            Examples:
              catalogue interactive
              catalogue interactive --entity products
              catalogue --db ./catalogue.sqlite interactive
            """)

    @OptionGroup var global: GlobalOptions

    /// How long the interactive mode waits for another writer, in seconds.
    static let writeLockSeconds = 5

    @Argument(help: ArgumentHelp("The entity, as --entity names it.", visibility: .hidden))
    var named: CatalogueEntity?

    @Option(help: ArgumentHelp(
        "What to show first: countries or products (default: the last one used with this database, else countries).",
        discussion: "It may also come first: catalogue interactive products."))
    var entity: CatalogueEntity?

    func validate() throws {
        _ = try EntityChoice.given(named: named, option: entity)
    }

    func run() throws {
        guard Terminal.isInteractive else {
            throw TerminalError.notATerminal
        }
        try Terminal.checkCapable()
        // Interactive use only reads; were it to write, it would wait a few seconds at most.
        // (So does its wait for another process's first import of a missing file.)
        DatabaseInUse.waitLimit.withLock { $0 = .fixed(Double(Self.writeLockSeconds)) }
        let catalogue = try global.openCatalogue(access: .readOnly, writeLockTimeout: .seconds(Self.writeLockSeconds))
        let store = catalogue.location == ":memory:" ? nil : InteractiveStateStore(databasePath: catalogue.location)
        let file = store?.load()
        let entity = try EntityChoice.given(named: named, option: self.entity) ?? file?.lastEntity ?? .countries
        let session = try InteractiveSession(
            terminal: Terminal(), sources: InteractiveSources(catalogue: catalogue), entity: entity,
            colours: TerminalOutput.usesColour(STDOUT_FILENO))
        var restored: [CatalogueEntity: SavedInteractiveState] = [:]
        for (key, state) in file?.entities ?? [:] {
            if let entity = CatalogueEntity(rawValue: key) { restored[entity] = state }
        }
        let outcome = try session.run(restoring: restored)
        if let store {
            do {
                try store.save(session.savedStates, lastEntity: session.state.entity)
            } catch {
                standardError("catalogue: warning: the interactive state was not saved: \(error)")
            }
        }
        if case .signal(let signal) = outcome {
            TerminalSignals.raiseDefault(signal)
        }
    }
}
