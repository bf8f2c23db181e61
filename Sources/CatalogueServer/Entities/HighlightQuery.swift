#if Server
import CatalogueCore

/// A search's text prepared once for highlighting every record of an answer: trimmed, its words
/// and folded forms computed once rather than per record and field, and in prefix mode the
/// segments of each distinct head of a value remembered (the rows of a prefix search mostly
/// start alike: "Zéphyr mug 12", "Zéphyr lamp 40", …).
///
/// One per answer, used by one task (not `Sendable`).
///
/// ```swift
/// let query = HighlightQuery(SearchQuery(text: "bog", scope: "capital"))
/// query.segments(of: "Bogotá")   // [Bog] otá
/// query.segments(of: "Lima")     // nil
/// ```
final class HighlightQuery {
    /// The search text, trimmed.
    let text: String
    let mode: MatchMode
    /// The scope key as given (nil: the default).
    let scope: String?
    /// The folded text's length in UTF-8 bytes (prefix mode).
    private let foldedLength: Int
    /// The typed words and their folded forms (words mode).
    private let typedWords: [(word: String, folded: String)]
    /// Prefix mode: the segments of each head seen (nil: it did not match).
    private var headSegments: [Substring: [HighlightSegment]?] = [:]

    init(_ search: SearchQuery) {
        text = CatalogueSearch.normalizedText(search.text)
        mode = search.mode
        scope = search.scope
        foldedLength = Folding.fold(text).utf8.count
        typedWords = search.mode == .words ? FullTextPattern.words(in: text).map { ($0, Folding.fold($0)) } : []
    }

    /// Whether there is nothing to highlight (empty text).
    var isEmpty: Bool {
        text.isEmpty
    }

    /// `value` cut into segments, neighbours of a kind joined, marking what the text matched as
    /// ``SearchHighlighter`` finds it; nil when it matched nothing.
    ///
    /// In `words` mode ``SearchHighlighter`` marks every word a typed word starts; here only the
    /// part typed is marked ("gu" marks "Gu" of "Guinea"), as in the other modes.
    func segments(of value: String) -> [HighlightSegment]? {
        guard !value.isEmpty, !text.isEmpty else { return nil }
        var segments: [HighlightSegment]
        switch mode {
        case .prefix:
            segments = prefixSegments(of: value)
        case .words:
            segments = SearchHighlighter.segments(of: value, matching: text, mode: mode).flatMap { segment in
                segment.isMatch ? typedPart(of: segment.text) : [segment]
            }
        case .contains, .terms, .fuzzy:
            segments = SearchHighlighter.segments(of: value, matching: text, mode: mode)
        }
        guard segments.contains(where: \.isMatch) else { return nil }
        return Self.merged(segments)
    }

    /// ``SearchHighlighter/prefix(_:in:)``, asked about only as many characters as the folded
    /// text has bytes (every character folds to at least one byte, bar lone marks), so a long
    /// name is not folded whole; the whole value when that head does not match.
    private func prefixSegments(of value: String) -> [HighlightSegment] {
        let headEnd = value.index(value.startIndex, offsetBy: foldedLength, limitedBy: value.endIndex) ?? value.endIndex
        if headEnd < value.endIndex {
            let headText = value[..<headEnd]
            let head: [HighlightSegment]?
            if let known = headSegments[headText] {
                head = known
            } else {
                let segments = SearchHighlighter.prefix(text, in: String(headText))
                head = segments.contains(where: \.isMatch) ? segments : nil
                headSegments[headText] = head
            }
            if let head {
                return head + [HighlightSegment(text: String(value[headEnd...]), isMatch: false)]
            }
        }
        return SearchHighlighter.prefix(text, in: value)
    }

    /// `word` with the longest typed word it starts with marked.
    private func typedPart(of word: String) -> [HighlightSegment] {
        let folded = Folding.fold(word)
        guard let longest = typedWords.filter({ folded.hasPrefix($0.folded) }).max(by: { $0.folded.count < $1.folded.count }) else {
            return [HighlightSegment(text: word, isMatch: true)]
        }
        return SearchHighlighter.prefix(longest.word, in: word)
    }

    /// Neighbouring segments of the same kind joined, empty ones dropped.
    static func merged(_ segments: [HighlightSegment]) -> [HighlightSegment] {
        var result: [HighlightSegment] = []
        for segment in segments where !segment.text.isEmpty {
            if let last = result.last, last.isMatch == segment.isMatch {
                result[result.count - 1] = HighlightSegment(text: last.text + segment.text, isMatch: last.isMatch)
            } else {
                result.append(segment)
            }
        }
        return result
    }
}
#endif
