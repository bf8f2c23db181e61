import CatalogueKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The run loop of the interactive mode: reads keys and signals from the ``Terminal``, passes
/// keys to ``InteractiveState/handle(_:)``, performs the effects (reloading the list and the
/// scope counts from the ``InteractiveDataSource``, opening the detail view, switching entity,
/// quitting) and draws each new frame.
///
/// ```swift
/// let session = try InteractiveSession(terminal: Terminal(), sources: sources, entity: .countries, colours: true)
/// let outcome = try session.run(restoring: saved)
/// try store.save(session.savedStates, lastEntity: session.state.entity)
/// ```
final class InteractiveSession {
    /// How a session ended.
    enum Outcome: Equatable {
        /// A quit key (Ctrl-C, Ctrl-D, q, F10) or the terminal went away.
        case quit
        /// A termination signal (SIGTERM, SIGHUP, SIGINT, SIGQUIT): the caller saves, then dies
        /// of it.
        case signal(Int32)
    }

    let terminal: any InteractiveTerminal
    let sources: InteractiveSources
    let colours: Bool
    /// The list shown.
    private(set) var source: any InteractiveDataSource
    /// The state, readable after ``run(restoring:)`` returns, for saving.
    private(set) var state: InteractiveState
    /// The state of each entity shown before (or restored from the last session), by entity.
    private var saved: [CatalogueEntity: SavedInteractiveState] = [:]
    private var rows: [Int: ListRow] = [:]
    /// Whether the selection, scroll position or size changed since the rows on screen were
    /// read: they are read once, before the frame is drawn or the selected record's id is
    /// needed, not once per key (a burst of arrow keys, or letters pasted while browsing).
    private var rowsAreStale = false

    init(terminal: any InteractiveTerminal, sources: InteractiveSources, entity: CatalogueEntity, colours: Bool) throws {
        self.terminal = terminal
        self.sources = sources
        self.colours = colours
        self.source = try sources.source(for: entity)
        self.state = InteractiveState(entity: entity, scopes: source.scopes)
    }

    /// The state of every entity shown, the current one as it is now: what quitting saves.
    var savedStates: [CatalogueEntity: SavedInteractiveState] {
        saved.merging([state.entity: state.saved]) { $1 }
    }

    /// Runs until the user quits or a termination signal arrives. The terminal is restored
    /// when this returns or throws. `restoring` holds the states of the last session, by
    /// entity: the current entity's is restored now, the others when switched to.
    func run(restoring states: [CatalogueEntity: SavedInteractiveState] = [:]) throws -> Outcome {
        try terminal.enter()
        defer { terminal.leave() }
        saved = states
        state.resize(terminal.size)
        try restore(states[state.entity])
        draw()
        while true {
            var needsDraw = false
            // Search text typed or pasted in one batch is searched once, at its end (or before
            // the first key of the batch that needs the list, such as ↓).
            var pendingReload: Bool?
            for event in try terminal.nextEvents() {
                let editsText = if case .key(let key) = event { state.editsOnlySearchText(key) } else { false }
                if let keepSelection = pendingReload, !editsText {
                    try whileAnswering { try reload(keepingSelection: keepSelection) }
                    pendingReload = nil
                }
                switch event {
                case .key(let key):
                    switch state.handle(key) {
                    case .none:
                        continue
                    case .render:
                        break
                    case .reload(let keepSelection):
                        needsDraw = true
                        if editsText {
                            pendingReload = keepSelection && (pendingReload ?? true)
                        } else {
                            try whileAnswering { try reload(keepingSelection: keepSelection) }
                        }
                        // reload(…) read the rows on screen.
                        continue
                    case .openDetail:
                        try whileAnswering {
                            state.detail = try source.detail(at: state.selection, width: max(20, state.size.columns - 2))
                            state.databaseProblem = nil
                        }
                        state.detailScroll = 0
                    case .quit:
                        try whileAnswering { try readRowsIfStale() }
                        return .quit
                    case .suspend:
                        try terminal.suspend()
                        state.resize(terminal.size)
                    case .switchEntity:
                        // restore(…) read the new entity's list and its rows on screen.
                        try whileAnswering { try switchEntity() }
                        needsDraw = true
                        continue
                    }
                    rowsAreStale = true
                    needsDraw = true
                case .signal(SIGWINCH):
                    state.resize(terminal.size)
                    rowsAreStale = true
                    needsDraw = true
                case .signal(SIGCONT):
                    try terminal.reapplyRawMode()
                    terminal.write(Terminal.enterScreenSequence)
                    state.resize(terminal.size)
                    rowsAreStale = true
                    needsDraw = true
                case .signal(SIGTSTP):
                    try terminal.suspend()
                    state.resize(terminal.size)
                    rowsAreStale = true
                    needsDraw = true
                case .signal(let signal):
                    try whileAnswering { try readRowsIfStale() }
                    return .signal(signal)
                case .endOfInput:
                    try whileAnswering { try readRowsIfStale() }
                    return .quit
                }
            }
            if let keepSelection = pendingReload {
                try whileAnswering { try reload(keepingSelection: keepSelection) }
            }
            if needsDraw {
                try whileAnswering { try readRowsIfStale() }
                draw()
            }
        }
    }

    /// Runs `read` (a reload, the rows on screen, a detail page, another entity's list) for
    /// the key just handled. When the database does not answer (a PostgreSQL server that is
    /// down or restarting: an error that says ``DatabaseAvailabilityError/isDatabaseUnavailable``),
    /// the session goes on: the list, its counts and the rows on screen stay as they were
    /// before `read` (the search text and the selection as the key left them), the status line
    /// says why, and the next key reads again. Any other error ends the session.
    private func whileAnswering(_ read: () throws -> Void) throws {
        let (stateBefore, sourceBefore, savedBefore, rowsBefore) = (state, source, saved, rows)
        do {
            try read()
        } catch let error as any DatabaseAvailabilityError where error.isDatabaseUnavailable {
            (state, source, saved, rows) = (stateBefore, sourceBefore, savedBefore, rowsBefore)
            state.databaseProblem = "\(error)"
            // Read again at the next key, not for this frame.
            rowsAreStale = false
        }
    }

    /// Reloads after a key: keeping the selected record, or from the top.
    private func reload(keepingSelection: Bool) throws {
        if keepingSelection { try readRowsIfStale() }
        try reload(locating: keepingSelection ? state.selectedID : nil, fallback: keepingSelection ? nil : 0)
    }

    /// Loads the list of a restored state (nil: the start of the browse list).
    private func restore(_ saved: SavedInteractiveState?) throws {
        if let saved {
            state.restore(saved)
            try reload(locating: saved.selectedID, fallback: saved.selectedPosition)
        } else {
            try reload(locating: nil, fallback: 0)
        }
    }

    /// Keeps the current entity's state and shows the next entity as it was left.
    private func switchEntity() throws {
        try readRowsIfStale()
        saved[state.entity] = state.saved
        let entity = InteractiveRenderer.nextEntity(after: state.entity)
        source = try sources.source(for: entity)
        var next = InteractiveState(entity: entity, scopes: source.scopes)
        next.size = state.size
        state = next
        try restore(saved[entity])
    }

    /// Reads the list for the state's mode, text, match mode and scope, and selects the record
    /// `id` when it is in the list, else position `fallback` (nil: the current position while
    /// browsing, the top result while searching). Counts every scope for the scope bar.
    private func reload(locating id: Int64?, fallback: Int?) throws {
        let (layout, position) = try source.load(
            mode: state.mode, text: state.searchText, match: state.matchMode, scope: state.scope, locating: id)
        state.apply(layout, selecting: position ?? fallback ?? (state.isSearching ? 0 : nil))
        state.scopeCounts = try source.scopeCounts(mode: state.mode, text: state.searchText, match: state.matchMode)
        let foundNothing = state.isSearching && state.list.count == 0 && !CatalogueSearch.normalizedText(state.searchText).isEmpty
        state.otherMatch = foundNothing ? try source.otherMatch(text: state.searchText, match: state.matchMode, scope: state.scope) : nil
        state.suggestions = foundNothing && state.otherMatch == nil ? try source.suggestions(text: state.searchText, scope: state.scope) : []
        try readRows()
    }

    /// Reads the rows on screen when the selection, scroll position or size moved since.
    private func readRowsIfStale() throws {
        if rowsAreStale { try readRows() }
    }

    /// Reads the rows on screen and notes the selected record's id.
    private func readRows() throws {
        rowsAreStale = false
        let positions = state.list.records(onLines: state.scrollTop..<(state.scrollTop + state.listHeight))
        rows = try source.rows(positions)
        if let row = rows[state.selection] {
            state.selectedID = row.id
        }
        state.databaseProblem = nil
    }

    private func draw() {
        terminal.write(InteractiveRenderer.render(state, rows: rows).ansiFrame(colours: colours, columns: state.size.columns))
    }
}
