/// What a terminal shows of a program's output captured by `script(1)`: its lines, each as it
/// stands after carriage returns and "erase to the end of the line" (`ESC [ K`) redrew it, so
/// that a progress bar drawn and erased before a message leaves no trace, as on a screen.
///
/// ```swift
/// TerminalTranscript.lines(of: "\r[..] 0%\u{1B}[K\r\u{1B}[Kcatalogue: done\r\n")  // ["catalogue: done"]
/// ```
enum TerminalTranscript {
    /// The non-empty lines of `output` as a terminal leaves them.
    static func lines(of output: String) -> [String] {
        output.components(separatedBy: "\r\n").map(render).filter { !$0.isEmpty }
    }

    /// One line after its carriage returns (back to the first column) and erasures.
    private static func render(_ line: String) -> String {
        var cells: [Character] = []
        var column = 0
        var rest = Substring(line)
        while let character = rest.first {
            if rest.hasPrefix("\u{1B}[K") {
                cells.removeSubrange(min(column, cells.count)...)
                rest = rest.dropFirst(3)
                continue
            }
            rest = rest.dropFirst()
            switch character {
            case "\r":
                column = 0
            default:
                if column < cells.count { cells[column] = character } else { cells.append(character) }
                column += 1
            }
        }
        return String(cells)
    }
}
