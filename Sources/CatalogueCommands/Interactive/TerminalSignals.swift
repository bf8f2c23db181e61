#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Signal handling while the terminal is in raw mode on the alternate screen.
///
/// - Crash signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP): the handler restores
///   the saved terminal settings and the main screen with async-signal-safe calls only
///   (`tcsetattr`, `write`), then re-raises the signal with its default action, so the process
///   still dies of it (and dumps core where it would have). It runs on an alternate stack, so a
///   stack overflow is covered too.
/// - Every other signal handled here (SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP,
///   SIGCONT) is written as one byte to a pipe the run loop polls beside the terminal: the run
///   loop redraws, saves its state and quits, or suspends, in ordinary code.
enum TerminalSignals {
    /// Signals after which the process dies: the terminal is restored first.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    /// Signals that end the session: its state is saved and the terminal restored.
    static let terminationSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]
    /// Signals forwarded to the run loop.
    static let forwardedSignals: [Int32] = [SIGWINCH, SIGTSTP, SIGCONT] + terminationSignals

    /// What ``install(settings:)`` replaced, for ``uninstall(_:)``.
    struct Registration {
        /// The read end of the signal pipe: one byte per signal caught, its number.
        let pipe: Int32
        fileprivate let pipeWrite: Int32
        fileprivate var previous: [(Int32, sigaction)]
    }

    /// Installs the handlers. `settings` are the terminal settings a crash restores.
    static func install(settings: termios) throws -> Registration {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw TerminalError.system("pipe", errno)
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        let context = signalContext
        context.pointee.settings = settings
        context.pointee.pipeWrite = descriptors[1]
        context.pointee.terminalActive = 0
        installAlternateStack()
        var registration = Registration(pipe: descriptors[0], pipeWrite: descriptors[1], previous: [])
        for signal in crashSignals {
            registration.previous.append((signal, setHandler(crashHandler, for: signal, flags: SA_ONSTACK | Platform.resetHandlerFlag)))
        }
        for signal in forwardedSignals {
            registration.previous.append((signal, setHandler(forwardHandler, for: signal, flags: Int32(SA_RESTART))))
        }
        // A parent may have started us with signals blocked (libdispatch's worker threads block
        // them, and a child inherits the mask): take delivery of ours on this thread.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in crashSignals + forwardedSignals { sigaddset(&set, signal) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
        return registration
    }

    /// Puts back the handlers ``install(settings:)`` replaced and closes the pipe.
    static func uninstall(_ registration: Registration) {
        signalContext.pointee.terminalActive = 0
        for (signal, previous) in registration.previous.reversed() {
            var action = previous
            sigaction(signal, &action, nil)
        }
        signalContext.pointee.pipeWrite = -1
        close(registration.pipe)
        close(registration.pipeWrite)
    }

    /// Whether a crash must restore the terminal (set while raw mode is on).
    static func setTerminalActive(_ active: Bool) {
        signalContext.pointee.terminalActive = active ? 1 : 0
    }

    /// Reads the signals waiting in the pipe.
    static func drain(_ registration: Registration) -> [Int32] {
        var signals: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(registration.pipe, &buffer, buffer.count)
            if count > 0 {
                signals += buffer[0..<count].map { Int32($0) }
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return signals
            }
        }
    }

    /// Dies of `signal` with its default action (after the terminal was restored and the state
    /// saved); exits with 128 + signal if that did not end the process.
    static func raiseDefault(_ signal: Int32) -> Never {
        Platform.restoreDefaultAction(of: signal)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        Platform.exit(128 + signal)
    }

    private static func setHandler(_ handler: @convention(c) (Int32) -> Void, for signal: Int32, flags: Int32) -> sigaction {
        var action = Platform.signalAction(handler, flags: flags)
        var previous = sigaction()
        sigaction(signal, &action, &previous)
        return previous
    }

    private static func installAlternateStack() {
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
        let size = 64 * 1024
        guard let memory = malloc(size) else { return }
        var stack = Platform.signalStack(memory, size: size)
        if sigaltstack(&stack, nil) == 0 {
            // Kept for the life of the process (the kernel uses it; LeakSanitizer sees it here).
            signalContext.pointee.alternateStack = memory
        } else {
            free(memory)
        }
    }
}

/// What the signal handlers read: set before they are installed, read-only while they run.
struct SignalContext {
    var settings = termios()
    var pipeWrite: Int32 = -1
    var terminalActive: sig_atomic_t = 0
    /// The crash handlers' stack, installed once.
    var alternateStack: UnsafeMutableRawPointer?
}

/// The handlers' context. A pointer, allocated once, so a handler reads it without any
/// runtime call.
nonisolated(unsafe) let signalContext: UnsafeMutablePointer<SignalContext> = {
    let pointer = UnsafeMutablePointer<SignalContext>.allocate(capacity: 1)
    pointer.initialize(to: SignalContext())
    return pointer
}()

/// The sequence that leaves the alternate screen: attributes off, bracketed paste off, cursor
/// shown, auto-wrap on, main screen back. A literal, so the crash handler writes it without
/// allocating.
let leaveScreenSequence: StaticString = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?7h\u{1B}[?1049l"

/// Restores the terminal, then dies of the signal with its default action. Async-signal-safe.
private let crashHandler: @convention(c) (Int32) -> Void = { number in
    let context = signalContext
    if context.pointee.terminalActive != 0 {
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &context.pointee.settings)
        let sequence = leaveScreenSequence
        _ = write(STDOUT_FILENO, sequence.utf8Start, sequence.utf8CodeUnitCount)
        context.pointee.terminalActive = 0
    }
    // SA_RESETHAND put back the default action; raise again in case it was not.
    Platform.restoreDefaultAction(of: number)
    raise(number)
}

/// Writes the signal's number to the pipe the run loop polls. Async-signal-safe.
private let forwardHandler: @convention(c) (Int32) -> Void = { number in
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalContext.pointee.pipeWrite, &byte, 1)
    errno = savedErrno
}
