import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal in full-screen mode: raw input (termios: no echo, no line
/// editing, no signals from keys, so Ctrl-C arrives as a key), the alternate screen, the size
/// (`ioctl(TIOCGWINSZ)`), keys and signals as events, and frames written out.
///
/// ``enter()`` saves the settings it changes; ``leave()`` restores them and the main screen,
/// and is safe to call more than once. A crash signal restores them too (``TerminalSignals``).
///
/// ```swift
/// let terminal = Terminal()
/// try terminal.enter()
/// defer { terminal.leave() }
/// terminal.write(screen.ansiFrame(colours: true))
/// ```
final class Terminal {
    /// Something the run loop reacts to.
    enum Event: Equatable {
        case key(Key)
        /// A signal caught (SIGWINCH, SIGTERM, …).
        case signal(Int32)
        /// The terminal went away (end of input, or a read error such as EIO after a hang-up).
        case endOfInput
    }

    let input = STDIN_FILENO
    let output = STDOUT_FILENO
    /// How long a lone Esc waits for the rest of an escape sequence.
    static let escapeTimeoutMilliseconds: Int32 = 40

    private var original = termios()
    private var registration: TerminalSignals.Registration?
    private var decoder = KeyDecoder()
    private(set) var isActive = false

    /// The sequence that enters the alternate screen: alternate buffer, no auto-wrap (a full
    /// last column does not scroll), cursor hidden, bracketed paste (a paste arrives between
    /// `ESC [ 200 ~` and `ESC [ 201 ~`, so it is never taken for keys), screen cleared.
    static let enterScreenSequence = "\u{1B}[?1049h\u{1B}[?7l\u{1B}[?25l\u{1B}[?2004h\u{1B}[H\u{1B}[2J"

    /// Whether standard input and output are both terminals.
    static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// Refuses a terminal that does not understand escape sequences: `TERM` unset, empty or
    /// `dumb` (an editor's shell buffer, a serial console), where the screen would be garbage.
    static func checkCapable(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" {
            throw TerminalError.notCapable(term: term)
        }
    }

    /// Saves the settings, installs the signal handlers, switches to raw mode and the
    /// alternate screen.
    func enter() throws {
        guard !isActive else { return }
        guard tcgetattr(input, &original) == 0 else { throw TerminalError.system("tcgetattr", errno) }
        registration = try TerminalSignals.install(settings: original)
        do {
            try enterScreen()
        } catch {
            leave()
            throw error
        }
        isActive = true
    }

    /// Restores the main screen and the saved settings, and the previous signal handlers.
    func leave() {
        leaveScreen()
        if let registration {
            TerminalSignals.uninstall(registration)
            self.registration = nil
        }
        isActive = false
    }

    /// Leaves the screen, stops the process as Ctrl-Z would in a shell, and comes back when it
    /// is continued.
    func suspend() throws {
        leaveScreen()
        let previous = signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        signal(SIGTSTP, previous)
        try enterScreen()
    }

    /// Puts raw mode back (after SIGCONT: whoever stopped us may have changed the settings).
    func reapplyRawMode() throws {
        try setRawMode()
    }

    private func enterScreen() throws {
        try setRawMode()
        TerminalSignals.setTerminalActive(true)
        write(Self.enterScreenSequence)
    }

    private func leaveScreen() {
        guard registration != nil else { return }
        let sequence = leaveScreenSequence
        writeBytes(UnsafeRawBufferPointer(start: sequence.utf8Start, count: sequence.utf8CodeUnitCount))
        tcsetattr(input, TCSADRAIN, &original)
        TerminalSignals.setTerminalActive(false)
    }

    /// cfmakeraw: bytes as typed, one at a time, nothing echoed, no signals from keys.
    private func setRawMode() throws {
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { throw TerminalError.system("tcsetattr", errno) }
    }

    /// The terminal's size; 80×24 when it cannot be read.
    var size: ScreenSize {
        guard let size = Platform.windowSize(of: output), size.rows > 0, size.columns > 0 else {
            return ScreenSize(rows: 24, columns: 80)
        }
        return ScreenSize(rows: size.rows, columns: size.columns)
    }

    /// Writes `text` to the terminal.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { writeBytes(UnsafeRawBufferPointer($0)) }
    }

    private func writeBytes(_ bytes: UnsafeRawBufferPointer) {
        guard var address = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Platform.write(output, address, remaining)
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            address += written
            remaining -= written
        }
    }

    /// Waits for keys or signals and returns them (possibly none, after an interruption).
    /// When an escape sequence is incomplete, waits at most the escape timeout for the rest,
    /// then takes what came as keys (a lone Esc).
    func nextEvents() throws -> [Event] {
        guard let registration else { return [.endOfInput] }
        var descriptors = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: registration.pipe, events: Int16(POLLIN), revents: 0)]
        let timeout = decoder.hasPendingInput ? Self.escapeTimeoutMilliseconds : -1
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        if ready < 0 {
            if errno == EINTR { return [] }
            throw TerminalError.system("poll", errno)
        }
        if ready == 0 {
            return decoder.flush().map(Event.key)
        }
        var events: [Event] = []
        if descriptors[1].revents & Int16(POLLIN) != 0 {
            events += TerminalSignals.drain(registration).map(Event.signal)
        }
        if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(input, &buffer, buffer.count)
            if count > 0 {
                events += decoder.feed(buffer[0..<count]).map(Event.key)
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                events.append(.endOfInput)
            }
        }
        return events
    }
}

/// A terminal call failed.
enum TerminalError: Error, CustomStringConvertible {
    /// Standard input or output is not a terminal.
    case notATerminal
    /// The terminal does not understand escape sequences (`TERM`, possibly empty).
    case notCapable(term: String)
    /// A system call failed with this errno.
    case system(String, Int32)

    var description: String {
        switch self {
        case .notATerminal: "interactive mode needs a terminal"
        case .notCapable(let term):
            "interactive mode needs a terminal that understands escape sequences, and TERM is "
                + (term.isEmpty ? "not set" : "'\(term)'") + "; use catalogue search or catalogue browse"
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
