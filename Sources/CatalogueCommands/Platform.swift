#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What differs between the C libraries of Linux (Glibc) and macOS (Darwin), in one place.
///
/// Every other file of the tool imports whichever library the platform has
/// (`#if canImport(Glibc)` / `#elseif canImport(Darwin)`) and calls the functions both have
/// under the same name and types; calls that differ, or that a method of the same name would
/// shadow (`write`, `exit`, `signal`), go through here.
///
/// ```swift
/// Platform.exit(2)
/// ```
enum Platform {
    /// Ends the process with `code` (`exit(3)`).
    static func exit(_ code: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(code)
        #elseif canImport(Darwin)
        Darwin.exit(code)
        #endif
    }

    /// `write(2)`: writes up to `count` bytes of `bytes` to `descriptor`; returns how many were
    /// written, or -1 with `errno` set. Async-signal-safe.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #elseif canImport(Darwin)
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    /// Puts back the default action of `number` (`signal(number, SIG_DFL)`).
    static func restoreDefaultAction(of number: Int32) {
        #if canImport(Glibc)
        _ = Glibc.signal(number, SIG_DFL)
        #elseif canImport(Darwin)
        _ = Darwin.signal(number, SIG_DFL)
        #endif
    }

    /// A `sigaction` that calls `handler` with `flags` and an empty mask. (The handler's field
    /// is `__sigaction_handler.sa_handler` in Glibc, `__sigaction_u.__sa_handler` in Darwin.)
    static func signalAction(_ handler: @convention(c) (Int32) -> Void, flags: Int32) -> sigaction {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #elseif canImport(Darwin)
        action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        return action
    }

    /// `SA_RESETHAND` as the `Int32` of `sa_flags` (an unsigned constant in Glibc).
    static var resetHandlerFlag: Int32 {
        Int32(bitPattern: UInt32(SA_RESETHAND))
    }

    /// The terminal size of `descriptor` (`ioctl(TIOCGWINSZ)`), nil when it is not a terminal.
    static func windowSize(of descriptor: Int32) -> (rows: Int, columns: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 || size.ws_col > 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// The running program's file, symbolic links resolved (`/proc/self/exe` on Linux,
    /// `_NSGetExecutablePath` on macOS); nil when it cannot be read.
    static func executablePath() -> String? {
        #if canImport(Glibc)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #elseif canImport(Darwin)
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0, let resolved = realpath(buffer, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
        #endif
    }

    /// A signal stack of `size` bytes at `memory` (the fields' order differs between the
    /// libraries, so they are set by name).
    static func signalStack(_ memory: UnsafeMutableRawPointer, size: Int) -> stack_t {
        var stack = stack_t()
        stack.ss_sp = memory
        stack.ss_size = size
        stack.ss_flags = 0
        return stack
    }
}
