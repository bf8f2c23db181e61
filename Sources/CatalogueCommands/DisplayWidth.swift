/// How many terminal cells text takes, and text cut or padded to a number of cells.
///
/// A cell is one column of a monospaced terminal: "Bogotá" takes 6 (the accent combines), "東京"
/// takes 4 (East Asian wide), a control character 0. Text from the database is shown through
/// ``sanitized(_:)`` first, so a name holding an escape or newline cannot move the cursor.
///
/// ```swift
/// DisplayWidth.of("Côte d'Ivoire")                  // 13
/// DisplayWidth.truncate("Saint Helena, Ascension", to: 10)  // "Saint Hel…"
/// ```
enum DisplayWidth {
    /// The cells `string` takes.
    static func of<S: StringProtocol>(_ string: S) -> Int {
        string.reduce(0) { $0 + of($1) }
    }

    /// The cells one character (grapheme cluster) takes: 2 for wide and emoji-presentation
    /// characters, 0 for controls and lone combining marks, else 1.
    static func of(_ character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F, width == 1 {
                // Variation selector 16: emoji presentation of the base.
                return 2
            }
            width = max(width, of(scalar))
        }
        return width
    }

    /// The cells one scalar takes on its own.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if value == 0x200B || (0x1160...0x11FF).contains(value) { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` safe to print: control characters (escape, newline, tab, …) become "�".
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return text
        }
        return String(text.map { character in
            character.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "\u{FFFD}" : character
        })
    }

    /// The longest start of `text` that fits in `width` cells, ending in `ellipsis` when cut.
    static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let room = width - of(ellipsis)
        guard room >= 0 else { return prefix(text, width: width) }
        return prefix(text, width: room) + ellipsis
    }

    /// The longest start of `text` that fits in `width` cells, without an ellipsis.
    static func prefix(_ text: String, width: Int) -> String {
        var used = 0
        var result = ""
        for character in text {
            let cells = of(character)
            if used + cells > width { break }
            used += cells
            result.append(character)
        }
        return result
    }

    /// The longest end of `text` that fits in `width` cells (a search field shows the end of
    /// long text, where the typing happens).
    static func suffix(_ text: String, width: Int) -> String {
        var used = 0
        var characters: [Character] = []
        for character in text.reversed() {
            let cells = of(character)
            if used + cells > width { break }
            used += cells
            characters.append(character)
        }
        return String(characters.reversed())
    }

    /// `text` truncated to `width` cells and padded with spaces to exactly `width`, on the
    /// right (or on the left with `alignRight`).
    static func fit(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let cut = truncate(text, to: width)
        let padding = String(repeating: " ", count: max(0, width - of(cut)))
        return alignRight ? padding + cut : cut + padding
    }
}
