#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP during `catalogue import`, so the user always learns whether the
/// import landed:
/// - before the commit, the process ends at once with "catalogue: interrupted; nothing was
///   imported" (the open transaction is never committed, as with SIGKILL);
/// - from the commit on (``committing()``), the signal is held until the summary is printed;
///   then ``finish()`` reports it and the process ends as the signal asked.
///
/// The handler is async-signal-safe: it reads and writes a preallocated state with plain
/// loads and stores, and calls only `unlink`, `write` and `_exit`.
enum ImportSignals {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handlers (and takes delivery of these signals, which a parent may have
    /// blocked). `clearsLine`: erase a progress bar on stderr before the message.
    static func install(clearsLine: Bool) {
        let state = importSignalState
        state.pointee.phase = ImportSignalState.importing
        state.pointee.pending = 0
        state.pointee.clearsLine = clearsLine ? 1 : 0
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals {
            var action = Platform.signalAction(importSignalHandler, flags: Int32(SA_RESTART))
            sigaction(signal, &action, nil)
            sigaddset(&set, signal)
        }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// The import is about to commit: from now on a signal waits for the summary.
    static func committing() {
        importSignalState.pointee.phase = ImportSignalState.committing
    }

    /// Before the commit, a signal also removes `path` (the temporary file of an import that
    /// creates the catalogue, so that an interrupted first import leaves nothing behind). Set
    /// once; later calls keep the first path.
    static func removeOnInterrupt(_ path: String) {
        guard importSignalState.pointee.removedPath == nil else { return }
        importSignalState.pointee.removedPath = strdup(path)
    }

    /// The signal that arrived after the commit started, if any (0: none).
    static var pendingSignal: Int32 {
        importSignalState.pointee.pending
    }
}

/// What the import signal handler reads and writes.
struct ImportSignalState {
    static let importing: sig_atomic_t = 1
    static let committing: sig_atomic_t = 2

    var phase: sig_atomic_t = 0
    var pending: sig_atomic_t = 0
    var clearsLine: sig_atomic_t = 0
    /// A file to remove on a signal before the commit (nil: none).
    var removedPath: UnsafeMutablePointer<CChar>? = nil
}

/// The handler's state, allocated once so the handler makes no runtime call to reach it.
nonisolated(unsafe) let importSignalState: UnsafeMutablePointer<ImportSignalState> = {
    let pointer = UnsafeMutablePointer<ImportSignalState>.allocate(capacity: 1)
    pointer.initialize(to: ImportSignalState())
    return pointer
}()

/// Messages as literals, so the handler writes them without allocating.
private let clearLineSequence: StaticString = "\r\u{1B}[K"
private let interruptedMessage: StaticString = "catalogue: interrupted; nothing was imported\n"

/// Before the commit: say nothing was imported and exit. From the commit on: remember the
/// signal for ``ImportSignals/pendingSignal``. Async-signal-safe.
private let importSignalHandler: @convention(c) (Int32) -> Void = { number in
    let state = importSignalState
    if state.pointee.phase == ImportSignalState.committing {
        state.pointee.pending = number
        return
    }
    if state.pointee.clearsLine != 0 {
        let clear = clearLineSequence
        _ = write(STDERR_FILENO, clear.utf8Start, clear.utf8CodeUnitCount)
    }
    if let removedPath = state.pointee.removedPath { unlink(removedPath) }
    let message = interruptedMessage
    _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
    _exit(128 + number)
}
