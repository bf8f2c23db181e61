#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The run loop of the interactive mode: reads keys and signals from the ``Terminal``, passes
/// keys to ``InteractiveState/handle(_:)``, performs the effects (reloading the list from the
/// ``InteractiveDataSource``, opening the detail view, quitting) and draws each new frame.
///
/// ```swift
/// let session = InteractiveSession(terminal: Terminal(), source: source, colours: true)
/// let outcome = try session.run(restoring: saved)
/// try store.save(session.state.saved, entity: session.state.entity)
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

    let terminal: Terminal
    let source: any InteractiveDataSource
    let colours: Bool
    /// The state, readable after ``run(restoring:)`` returns, for saving.
    private(set) var state: InteractiveState
    private var rows: [Int: ListRow] = [:]

    init(terminal: Terminal, source: any InteractiveDataSource, colours: Bool) {
        self.terminal = terminal
        self.source = source
        self.colours = colours
        self.state = InteractiveState(entity: source.entity, scopes: source.scopes)
    }

    /// Runs until the user quits or a termination signal arrives. The terminal is restored
    /// when this returns or throws.
    func run(restoring saved: SavedInteractiveState?) throws -> Outcome {
        try terminal.enter()
        defer { terminal.leave() }
        state.resize(terminal.size)
        if let saved {
            state.restore(saved)
            try reload(locating: saved.selectedID, fallback: saved.selectedPosition)
        } else {
            try reload(locating: nil, fallback: 0)
        }
        draw()
        while true {
            var needsDraw = false
            for event in try terminal.nextEvents() {
                switch event {
                case .key(let key):
                    switch state.handle(key) {
                    case .none:
                        continue
                    case .render:
                        break
                    case .reload(let keepSelection):
                        try reload(locating: keepSelection ? state.selectedID : nil, fallback: keepSelection ? nil : 0)
                    case .openDetail:
                        state.detail = try source.detail(at: state.selection, width: max(20, state.size.columns - 2))
                        state.detailScroll = 0
                    case .quit:
                        return .quit
                    case .suspend:
                        try terminal.suspend()
                        state.resize(terminal.size)
                    }
                    try readRows()
                    needsDraw = true
                case .signal(SIGWINCH):
                    state.resize(terminal.size)
                    try readRows()
                    needsDraw = true
                case .signal(SIGCONT):
                    try terminal.reapplyRawMode()
                    terminal.write(Terminal.enterScreenSequence)
                    state.resize(terminal.size)
                    needsDraw = true
                case .signal(SIGTSTP):
                    try terminal.suspend()
                    state.resize(terminal.size)
                    needsDraw = true
                case .signal(let signal):
                    return .signal(signal)
                case .endOfInput:
                    return .quit
                }
            }
            if needsDraw { draw() }
        }
    }

    /// Reads the list for the state's mode, text and scope, and selects the record `id` when
    /// it is in the list, else position `fallback` (nil: the current position).
    private func reload(locating id: Int64?, fallback: Int?) throws {
        let (layout, position) = try source.load(
            mode: state.mode, text: state.searchText, scope: state.scope, locating: id)
        state.apply(layout, selecting: position ?? fallback)
        try readRows()
    }

    /// Reads the rows on screen and notes the selected record's id.
    private func readRows() throws {
        let positions = state.list.records(onLines: state.scrollTop..<(state.scrollTop + state.listHeight))
        rows = try source.rows(positions)
        if let row = rows[state.selection] {
            state.selectedID = row.id
        }
    }

    private func draw() {
        terminal.write(InteractiveRenderer.render(state, rows: rows).ansiFrame(colours: colours, columns: state.size.columns))
    }
}
