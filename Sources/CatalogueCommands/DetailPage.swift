import CatalogueKit

/// A record's detail page (`catalogue show`, the interactive detail view): a title, lines
/// under it, then one labelled line per fact, like the country screen of the WorldFacts app.
///
/// Every record has the page its descriptor gives (``CatalogueRecord/defaultDetailPage()``:
/// the title field, then the id and each other field with its label and format); a record type
/// with a richer page conforms to ``CustomDetailPage``.
///
/// ```
/// iPad mini
///
/// ID     5
/// Type   device
/// Year   2012
/// Price  659.00
/// ```
struct DetailPage: Equatable {
    var title: String
    /// Lines between the title and the facts (a country's flag goes on the title line, its
    /// official name here).
    var subtitles: [String] = []
    /// Labelled facts; nil or empty values show as "—".
    var facts: [Fact]

    struct Fact: Equatable {
        var label: String
        var value: String?
    }

    /// The page as text: the title (bold when `style` says so), the subtitles, a blank line and
    /// the facts with their values aligned, wrapped at `width` cells (nil: no wrapping). Control
    /// characters in the record's text are escaped.
    func text(style: TextStyle, width: Int?) -> String {
        ([style.bold(TerminalText.escaped(title))] + subtitles.map(TerminalText.escaped) + [""]
            + labelled(style: style, width: width)).joined(separator: "\n")
    }

    /// The lines after the title and its blank line: what the interactive detail view shows
    /// under its own title.
    func bodyLines(width: Int?) -> [String] {
        subtitles.map(TerminalText.escaped) + (subtitles.isEmpty ? [] : [""]) + labelled(style: TextStyle(enabled: false), width: width)
    }

    /// "Label    value" lines with the values aligned; "—" for no value. Values wrap at word
    /// boundaries to `width`, indented under the first line.
    func labelled(style: TextStyle, width: Int?) -> [String] {
        let labelWidth = (facts.map(\.label.count).max() ?? 0) + 2
        let indent = String(repeating: " ", count: labelWidth)
        return facts.map { fact in
            let padded = fact.label + String(repeating: " ", count: labelWidth - fact.label.count)
            let value = fact.value.flatMap { $0.isEmpty ? nil : TerminalText.escaped($0) } ?? "—"
            let wrapped = Self.wrap(value, width: width.map { max(20, $0 - labelWidth - 1) })
            return style.dim(padded) + wrapped.joined(separator: "\n" + indent)
        }
    }

    /// `text` in lines of at most `width` terminal cells (``DisplayWidth``: "東京" takes four),
    /// broken at spaces (nil: one line). A word wider than `width` has a line of its own.
    static func wrap(_ text: String, width: Int?) -> [String] {
        guard let width, DisplayWidth.of(text) > width else { return [text] }
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = DisplayWidth.of(word)
            if !current.isEmpty, currentWidth + 1 + wordWidth > width {
                lines.append(current)
                current = String(word)
                currentWidth = wordWidth
            } else {
                currentWidth += (current.isEmpty ? 0 : 1) + wordWidth
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        lines.append(current)
        return lines
    }
}

/// A record type whose detail page is richer than its fields (a country's neighbours by name,
/// its codes on one line).
protocol CustomDetailPage: CatalogueRecord {
    /// The page of this record; may read `catalogue`.
    func customDetailPage(in catalogue: Catalogue) throws -> DetailPage
}

extension CatalogueRecord {
    /// The page the descriptor gives: the title field, then the id and every other field with
    /// its label, in the field's format.
    func defaultDetailPage() -> DetailPage {
        let entity = Self.entity
        let fields = [FieldDescriptor<Self>("id", label: "ID", isNumeric: true) { $0.id.databaseValue }]
            + entity.fields.filter { $0.name != entity.titleField.name }
        return DetailPage(
            title: entity.titleField.text(of: self),
            facts: fields.map { DetailPage.Fact(label: $0.label, value: $0.text(of: self)) })
    }

    /// The record's page: its own when its type has one (``CustomDetailPage``), else the
    /// descriptor's.
    func detailPage(in catalogue: Catalogue) throws -> DetailPage {
        if let custom = self as? any CustomDetailPage {
            return try custom.customDetailPage(in: catalogue)
        }
        return defaultDetailPage()
    }
}
