import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about where output goes: whether a stream is a terminal, how wide it is, and whether
/// colours are wanted (a terminal, and `NO_COLOR` not set to a non-empty value, per no-color.org).
enum TerminalOutput {
    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The terminal's width in columns, or `fallback` when it is not a terminal.
    static func columns(of descriptor: Int32, fallback: Int = 80) -> Int {
        guard let size = Platform.windowSize(of: descriptor), size.columns > 0 else { return fallback }
        return size.columns
    }

    /// Whether to colour what goes to `descriptor`.
    static func usesColour(_ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard isTerminal(descriptor) else { return false }
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }
}

/// Text styles for terminals (ANSI SGR), or plain text when colours are off.
struct TextStyle {
    let enabled: Bool

    /// Bold text.
    func bold(_ text: String) -> String {
        enabled ? "\u{1B}[1m" + text + "\u{1B}[22m" : text
    }

    /// Dimmed text, for labels.
    func dim(_ text: String) -> String {
        enabled ? "\u{1B}[2m" + text + "\u{1B}[22m" : text
    }
}

/// Monotonic seconds, for timing commands.
func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
