import CatalogueCore

/// What a search matched in one record: for each matched field, its text cut into segments
/// (``SearchHighlighter``), encoded as `{"name": [{"text": "Bog", "match": true}, …]}`.
///
/// ```swift
/// var highlights = RecordHighlights()
/// highlights.add("name", "Bogotá", matching: "bog", mode: .prefix)
/// ```
struct RecordHighlights: Encodable, Sendable, Equatable {
    /// One piece of a field's text.
    struct Segment: Encodable, Sendable, Equatable {
        let text: String
        let match: Bool
    }

    private(set) var fields: [String: [Segment]] = [:]

    /// Adds `field` with `value` cut for `text` in `mode`, when the text matched part of it.
    /// Returns whether it did.
    ///
    /// In `words` mode, ``SearchHighlighter`` marks every word a typed word starts; here only
    /// the part typed is marked ("gu" marks "Gu" of "Guinea"), as in the other modes.
    @discardableResult
    mutating func add(_ field: String, _ value: String?, matching text: String, mode: MatchMode) -> Bool {
        guard let value, !value.isEmpty else { return false }
        var segments = SearchHighlighter.segments(of: value, matching: text, mode: mode)
        guard segments.contains(where: \.isMatch) else { return false }
        if mode == .words {
            let typed = FullTextPattern.words(in: CatalogueSearch.normalizedText(text)).map { (word: $0, folded: Folding.fold($0)) }
            segments = segments.flatMap { segment in
                segment.isMatch ? Self.typedPart(of: segment.text, typed: typed) : [segment]
            }
        }
        fields[field] = Self.merged(segments).map { Segment(text: $0.text, match: $0.isMatch) }
        return true
    }

    /// `word` with the longest typed word it starts with marked.
    private static func typedPart(of word: String, typed: [(word: String, folded: String)]) -> [HighlightSegment] {
        let folded = Folding.fold(word)
        guard let longest = typed.filter({ folded.hasPrefix($0.folded) }).max(by: { $0.folded.count < $1.folded.count }) else {
            return [HighlightSegment(text: word, isMatch: true)]
        }
        return SearchHighlighter.prefix(longest.word, in: word)
    }

    /// Neighbouring segments of the same kind joined, empty ones dropped.
    private static func merged(_ segments: [HighlightSegment]) -> [HighlightSegment] {
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

    func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }
}
