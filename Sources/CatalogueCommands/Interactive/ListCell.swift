import CatalogueKit

/// The text of one cell of a list row, in pieces: plain text, the part the search matched
/// (highlighted), and notes (dimmed: the alias a country was found by).
///
/// ```swift
/// ListCell(highlighting: "Bogotá", matching: "bog", mode: .prefix).segments
/// // [Segment("Bog", .match), Segment("otá", .plain)]
/// ```
struct ListCell: Equatable, Sendable {
    /// One piece of a cell.
    struct Segment: Equatable, Sendable {
        var text: String
        var emphasis: Emphasis

        init(_ text: String, _ emphasis: Emphasis = .plain) {
            self.text = text
            self.emphasis = emphasis
        }
    }

    /// How a piece is shown.
    enum Emphasis: Equatable, Sendable {
        case plain
        /// What the search text matched.
        case match
        /// Less important text after the value.
        case note
    }

    var segments: [Segment]

    /// Plain text.
    init(_ text: String) {
        segments = [Segment(text)]
    }

    init(segments: [Segment]) {
        self.segments = segments
    }

    /// `text` with what search `query` matched in `mode` marked (``SearchHighlighter``).
    init(highlighting text: String, matching query: String, mode: MatchMode) {
        segments = SearchHighlighter.segments(of: text, matching: query, mode: mode)
            .map { Segment($0.text, $0.isMatch ? .match : .plain) }
    }

    /// The cell's text.
    var text: String {
        segments.map(\.text).joined()
    }

    /// Whether any piece is a match.
    var hasMatch: Bool {
        segments.contains { $0.emphasis == .match }
    }

    /// Appends `note` as a dimmed note (" — Ivory Coast"), keeping its matched parts marked.
    mutating func appendNote(_ note: ListCell) {
        segments.append(Segment(" — ", .note))
        segments += note.segments.map { Segment($0.text, $0.emphasis == .match ? .match : .note) }
    }
}
