#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP during `catalogue import` and `catalogue export FILE`, so the user
/// always learns whether the work landed:
/// - before the commit, the process ends at once with the message given to ``install(clearsLine:message:)``
///   ("catalogue: interrupted; nothing was imported": the open transaction is never committed,
///   as with SIGKILL), removing the temporary file given to ``removeOnInterrupt(_:)``;
/// - from the commit on (``committing()``), the signal is held until the summary is printed;
///   then ``pendingSignal`` tells the command, which reports it.
///
/// The handler is async-signal-safe: it reads and writes a preallocated state with plain
/// loads and stores, and calls only `unlink`, `write` and `_exit`.
///
/// ```swift
/// InterruptSignals.install(clearsLine: false, message: "catalogue: interrupted; nothing was imported")
/// ```
enum InterruptSignals {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handlers (and takes delivery of these signals, which a parent may have
    /// blocked). `clearsLine`: erase a progress bar on stderr before the message. `message`:
    /// the line written when a signal ends the process before the commit.
    static func install(clearsLine: Bool, message: String) {
        let state = interruptSignalState
        state.pointee.phase = InterruptSignalState.working
        state.pointee.pending = 0
        state.pointee.clearsLine = clearsLine ? 1 : 0
        if state.pointee.message == nil {
            let line = message + "\n"
            state.pointee.message = strdup(line)
            state.pointee.messageLength = line.utf8.count
        }
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals {
            var action = Platform.signalAction(interruptSignalHandler, flags: Int32(SA_RESTART))
            sigaction(signal, &action, nil)
            sigaddset(&set, signal)
        }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// The work is about to commit: from now on a signal waits for the summary.
    static func committing() {
        interruptSignalState.pointee.phase = InterruptSignalState.committing
    }

    /// Before the commit, a signal also removes `path` (the temporary file of an import that
    /// creates the catalogue, or of an export, so that an interrupted one leaves nothing
    /// behind). Set once; later calls keep the first path.
    static func removeOnInterrupt(_ path: String) {
        guard interruptSignalState.pointee.removedPath == nil else { return }
        interruptSignalState.pointee.removedPath = strdup(path)
    }

    /// Runs `body` with these signals held, so that one arriving meanwhile is handled once it
    /// returns: for creating a temporary file and registering it with ``removeOnInterrupt(_:)``
    /// as one step, which a signal cannot split.
    static func holding<T>(_ body: () throws -> T) rethrows -> T {
        var held = sigset_t()
        sigemptyset(&held)
        for signal in signals { sigaddset(&held, signal) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// The signal that arrived after the commit started, if any (0: none).
    static var pendingSignal: Int32 {
        interruptSignalState.pointee.pending
    }
}

/// What the interrupt signal handler reads and writes.
struct InterruptSignalState {
    static let working: sig_atomic_t = 1
    static let committing: sig_atomic_t = 2

    var phase: sig_atomic_t = 0
    var pending: sig_atomic_t = 0
    var clearsLine: sig_atomic_t = 0
    /// The line to write when a signal ends the process (set once, by `install`).
    var message: UnsafeMutablePointer<CChar>? = nil
    /// The message's length in bytes.
    var messageLength = 0
    /// A file to remove on a signal before the commit (nil: none).
    var removedPath: UnsafeMutablePointer<CChar>? = nil
}

/// The handler's state, allocated once so the handler makes no runtime call to reach it.
nonisolated(unsafe) let interruptSignalState: UnsafeMutablePointer<InterruptSignalState> = {
    let pointer = UnsafeMutablePointer<InterruptSignalState>.allocate(capacity: 1)
    pointer.initialize(to: InterruptSignalState())
    return pointer
}()

/// A literal, so the handler writes it without allocating.
private let clearLineSequence: StaticString = "\r\u{1B}[K"

/// Before the commit: write the message, remove the temporary file and exit. From the commit
/// on: remember the signal for ``InterruptSignals/pendingSignal``. Async-signal-safe.
private let interruptSignalHandler: @convention(c) (Int32) -> Void = { number in
    let state = interruptSignalState
    if state.pointee.phase == InterruptSignalState.committing {
        state.pointee.pending = number
        return
    }
    if state.pointee.clearsLine != 0 {
        let clear = clearLineSequence
        _ = write(STDERR_FILENO, clear.utf8Start, clear.utf8CodeUnitCount)
    }
    if let removedPath = state.pointee.removedPath { unlink(removedPath) }
    if let message = state.pointee.message { _ = write(STDERR_FILENO, message, state.pointee.messageLength) }
    _exit(128 + number)
}

/// A signal arrived while the work was committing: the summary is out, the process ends with
/// status 128 + signal.
struct InterruptedAfterCommit: Error, CustomStringConvertible {
    let signal: Int32
    /// What landed: "the import was committed".
    let what: String

    var description: String {
        "interrupted (signal \(signal)) after \(what)"
    }
}
