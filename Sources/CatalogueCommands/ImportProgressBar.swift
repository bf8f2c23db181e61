import CatalogueKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress line of `catalogue import` on stderr: a bar with percent, rows, rows/s and ETA
/// (rows and rows/s only when the input's size is unknown).
///
/// It only appears when stderr is a terminal and the import has run for half a second (so a
/// small file never shows one), redraws at most ten times a second, and is erased before any
/// other message and at the end. Rows/s and ETA count from the end of a wait for another
/// writer, not from the start.
final class ImportProgressBar {
    /// Whether the bar draws (stderr is a terminal).
    let enabled: Bool
    /// When the import's own work began, and how far it was then (rows/s and ETA count from
    /// there); nil while it waits for another writer, until its next progress.
    private var measuredFrom: (seconds: Double, baseline: Baseline)? = (monotonicSeconds(), Baseline())
    private var lastDraw = 0.0
    private var visible = false

    /// How far an import was when its speed is counted from: the rows done, and the share of
    /// the input read.
    struct Baseline {
        var rows = 0
        var fraction = 0.0
    }

    /// A bar that draws only when `enabled` (stderr is a terminal).
    init(enabled: Bool = TerminalOutput.isTerminal(STDERR_FILENO)) {
        self.enabled = enabled
    }

    /// Shows `progress`, if the bar is due (always for a new phase).
    func update(_ progress: ImportProgress) {
        guard enabled else { return }
        switch progress.phase {
        case .waitingForWriter:
            // At once: the user should know why nothing moves.
            writeError("\r" + Self.waitingLine + "\u{1B}[K")
            visible = true
            measuredFrom = nil
            return
        case .committing:
            return
        case .rows, .indexing:
            break
        }
        let now = monotonicSeconds()
        guard let (start, baseline) = measuredFrom else {
            // The wait is over: the import's speed counts from here.
            measuredFrom = (now, Baseline(rows: progress.rows, fraction: progress.fraction ?? 0))
            clear()
            return
        }
        let elapsed = now - start
        guard elapsed >= 0.5, now - lastDraw >= 0.1 || progress.phase != .rows else { return }
        lastDraw = now
        let width = TerminalOutput.columns(of: STDERR_FILENO)
        let line = Self.render(progress, elapsed: elapsed, since: baseline, width: width)
        writeError("\r" + line + "\u{1B}[K")
        visible = true
    }

    /// What the bar shows while another process writes to the catalogue.
    static let waitingLine = "waiting for another import to finish…"

    /// Erases the bar (before a message, and at the end).
    func clear() {
        guard visible else { return }
        writeError("\r\u{1B}[K")
        visible = false
    }

    /// The progress line, at most `width` columns, `elapsed` seconds after the import was at
    /// `baseline`.
    ///
    /// ```swift
    /// let progress = ImportProgress(bytesRead: 750, totalBytes: 1_000, rows: 3_000)
    /// ImportProgressBar.render(progress, elapsed: 2, since: .init(rows: 1_000, fraction: 0.25), width: 80)
    /// // "[###########################..........]  75%  3,000 rows  1,000 rows/s  ETA 1 s"
    /// ```
    static func render(_ progress: ImportProgress, elapsed: Double, since baseline: Baseline = Baseline(), width: Int) -> String {
        let rate = elapsed > 0 ? Double(progress.rows - baseline.rows) / elapsed : 0
        var facts = "\(FieldFormat.grouped(Int64(progress.rows))) rows  \(FieldFormat.grouped(Int64(rate))) rows/s"
        if progress.phase == .indexing {
            facts = "\(FieldFormat.grouped(Int64(progress.rows))) rows  building indexes…"
        }
        guard let fraction = progress.fraction else { return String(facts.prefix(width - 1)) }
        let done = fraction - baseline.fraction
        if done > 0.001, progress.phase == .rows {
            let remaining = elapsed * (1 - fraction) / done
            facts += "  ETA \(formatDuration(remaining))"
        }
        let percent = "\(Int(fraction * 100))%".leftPadded(to: 4)
        let barWidth = max(10, min(40, width - facts.count - percent.count - 6))
        let filled = Int(fraction * Double(barWidth))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]"
        return String("\(bar) \(percent)  \(facts)".prefix(width - 1))
    }

    /// "42 s", "3 min 5 s".
    static func formatDuration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
    }
}

/// Writes text to stderr without a newline.
func writeError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        _ = Platform.write(STDERR_FILENO, bytes.baseAddress, bytes.count)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
