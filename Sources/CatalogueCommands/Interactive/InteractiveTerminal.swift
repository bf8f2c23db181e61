/// What the interactive run loop needs of a terminal: entering and leaving full-screen mode,
/// its size, the next keys and signals, suspending, and writing frames. ``Terminal`` is the
/// real one; tests drive ``InteractiveSession`` with scripted events through this protocol.
///
/// ```swift
/// let session = try InteractiveSession(terminal: Terminal(), sources: sources, entity: .countries, colours: true)
/// ```
protocol InteractiveTerminal: AnyObject {
    /// Saves the settings and switches to raw mode and the alternate screen.
    func enter() throws
    /// Restores what ``enter()`` changed.
    func leave()
    /// Rows and columns.
    var size: ScreenSize { get }
    /// Waits for the next keys and signals: one read's worth (a paste arrives as one batch).
    func nextEvents() throws -> [Terminal.Event]
    /// Restores the terminal and stops the process until it is continued (Ctrl-Z).
    func suspend() throws
    /// Raw mode again, after the process was continued by someone else's `SIGCONT`.
    func reapplyRawMode() throws
    /// Writes `text` (a frame, an escape sequence) to the terminal.
    func write(_ text: String)
}

extension Terminal: InteractiveTerminal {}
