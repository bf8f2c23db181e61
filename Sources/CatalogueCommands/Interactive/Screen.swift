/// A frame of the interactive mode: one styled line per terminal row and where the cursor
/// goes. The renderer makes it; ``ansiFrame(colours:)`` turns it into the bytes a terminal
/// draws; tests read ``plainLines``.
struct Screen: Equatable, Sendable {
    var lines: [StyledLine]
    /// Row and column (0-based) of the visible cursor; nil hides it.
    var cursor: (row: Int, column: Int)?

    /// The text of each line, without styles.
    var plainLines: [String] { lines.map(\.text) }

    static func == (lhs: Screen, rhs: Screen) -> Bool {
        lhs.lines == rhs.lines && lhs.cursor?.row == rhs.cursor?.row && lhs.cursor?.column == rhs.cursor?.column
    }

    /// The escape sequences that draw this frame over a screen `columns` wide: each row is
    /// written from its first column and cleared to its end, so nothing of the last frame is
    /// left. With `colours` false (`NO_COLOR`) only bold and reverse video are used.
    func ansiFrame(colours: Bool, columns: Int) -> String {
        var output = "\u{1B}[?25l"
        for (row, line) in lines.enumerated() {
            output += "\u{1B}[\(row + 1);1H"
            for span in line.spans {
                let attributes = span.style.sgr(colours: colours)
                if attributes.isEmpty {
                    output += span.text
                } else {
                    output += "\u{1B}[\(attributes)m" + span.text + "\u{1B}[0m"
                }
            }
            // Auto-wrap is off, so after the last column the cursor stays on it, and an erase
            // there would take the last character with it: a full row needs no erase.
            if line.width < columns {
                output += "\u{1B}[K"
            }
        }
        if let cursor {
            output += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h"
        }
        return output
    }
}

/// One row of a ``Screen``: spans of text with a style each.
struct StyledLine: Equatable, Sendable {
    var spans: [Span]

    init(_ spans: [Span] = []) {
        self.spans = spans
    }

    init(_ text: String, style: SpanStyle = .plain) {
        self.spans = [Span(text, style)]
    }

    /// The line's text.
    var text: String { spans.map(\.text).joined() }

    /// Cells the line takes.
    var width: Int { spans.reduce(0) { $0 + DisplayWidth.of($1.text) } }

    /// Appends a span.
    mutating func append(_ text: String, _ style: SpanStyle = .plain) {
        spans.append(Span(text, style))
    }

    /// Cuts the line to `width` cells.
    func truncated(to width: Int) -> StyledLine {
        var result = StyledLine()
        var room = width
        for span in spans where room > 0 {
            let cells = DisplayWidth.of(span.text)
            if cells <= room {
                result.spans.append(span)
                room -= cells
            } else {
                result.spans.append(Span(DisplayWidth.truncate(span.text, to: room), span.style))
                room = 0
            }
        }
        return result
    }
}

/// Text with one style.
struct Span: Equatable, Sendable {
    var text: String
    var style: SpanStyle

    init(_ text: String, _ style: SpanStyle = .plain) {
        self.text = text
        self.style = style
    }
}

/// What a span means; ``sgr(colours:)`` decides how it looks.
enum SpanStyle: Equatable, Sendable {
    case plain
    case bold
    /// Less important text: placeholders, column titles.
    case dim
    /// The selected row.
    case selected
    /// A section header ("A").
    case sectionHeader
    /// Labels and key names.
    case accent
    /// The selected scope.
    case selectedScope
    /// A title of the section index.
    case index
    /// The index title of the selected row's section.
    case currentIndex
    /// The status bar.
    case status
    /// What the search text matched.
    case match
    /// What the search text matched, in the selected row.
    case selectedMatch
    /// A note after a value (the alias a country was found by).
    case note
    /// A note in the selected row.
    case selectedNote

    /// The SGR attributes ("1;36"), empty for none. Without colours (`NO_COLOR`): bold and
    /// reverse only, and matches and notes plain.
    func sgr(colours: Bool) -> String {
        switch self {
        case .plain: ""
        case .bold: "1"
        case .dim: colours ? "2" : ""
        case .selected: "7"
        case .sectionHeader: colours ? "1;36" : "1"
        case .accent: colours ? "1;34" : "1"
        case .selectedScope: colours ? "1;7;34" : "1;7"
        case .index: colours ? "36" : ""
        case .currentIndex: "1;7"
        case .status: colours ? "7;34" : "7"
        case .match: colours ? "1;33" : ""
        case .selectedMatch: colours ? "1;7;33" : "7"
        case .note: colours ? "2" : ""
        case .selectedNote: colours ? "2;7" : "7"
        }
    }
}
