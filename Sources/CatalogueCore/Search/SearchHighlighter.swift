/// A piece of a field's text, marked when it is what the search text matched.
///
/// ```swift
/// SearchHighlighter.prefix("bog", in: "Bogotá")
/// // [HighlightSegment(text: "Bog", isMatch: true), HighlightSegment(text: "otá", isMatch: false)]
/// ```
public struct HighlightSegment: Sendable, Hashable, CustomStringConvertible {
    /// The text, exactly as stored (concatenating a field's segments gives the field).
    public let text: String
    /// Whether the search matched this text.
    public let isMatch: Bool

    /// A segment of `text`, marked when `isMatch`.
    public init(text: String, isMatch: Bool) {
        self.text = text
        self.isMatch = isMatch
    }

    public var description: String {
        isMatch ? "[\(text)]" : text
    }
}

/// Finds what a search matched in a field's text, the way each match mode matches (ignoring
/// case and diacritics), and cuts the text into ``HighlightSegment``s. Done in Swift, so every
/// engine highlights alike.
///
/// ```swift
/// SearchHighlighter.segments(of: "Côte d'Ivoire", matching: "cote", mode: .prefix)      // [Côte] d'Ivoire
/// SearchHighlighter.segments(of: "United Kingdom", matching: "united ki", mode: .words) // [United] [Kingdom]
/// SearchHighlighter.segments(of: "iPod touch", matching: "ipod 2007", mode: .terms)     // [iPod] touch
/// ```
public enum SearchHighlighter {
    /// The segments of `text` for search `query` in `mode`; one unmatched segment when nothing
    /// matched (or the query is empty).
    public static func segments(of text: String, matching query: String, mode: MatchMode) -> [HighlightSegment] {
        let query = CatalogueSearch.normalizedText(query)
        guard !query.isEmpty, !text.isEmpty else { return [HighlightSegment(text: text, isMatch: false)] }
        switch mode {
        case .prefix:
            return prefix(query, in: text)
        case .contains:
            return contains([query], in: text)
        case .words:
            return words(FullTextPattern.words(in: query), in: text)
        case .terms:
            return contains(CatalogueSearch.terms(in: query), in: text)
        case .fuzzy:
            return fuzzyWords(FullTextPattern.words(in: query), in: text)
        }
    }

    /// `text` with its folded prefix `prefix` marked, when it starts so.
    public static func prefix(_ prefix: String, in text: String) -> [HighlightSegment] {
        let folded = FoldedText(text)
        let needle = Folding.fold(prefix)
        guard !needle.isEmpty, folded.text.hasPrefix(needle) else { return [HighlightSegment(text: text, isMatch: false)] }
        return folded.segments(marking: [0..<needle.utf8.count])
    }

    /// `text` with every occurrence of each folded needle marked.
    public static func contains(_ needles: [String], in text: String) -> [HighlightSegment] {
        let foldedText = FoldedText(text)
        let haystack = Array(foldedText.text.utf8)
        var ranges: [Range<Int>] = []
        // Each folded needle once: a query of a hundred spellings of "a" ("a á à â …", all of
        // which fold to "a") marked every "a" of a field a hundred times.
        var seen: Set<[UInt8]> = []
        let folded = needles.map { Array(Folding.fold($0).utf8) }.filter { seen.insert($0).inserted }
        for needle in folded where !needle.isEmpty && needle.count <= haystack.count {
            var start = 0
            while start + needle.count <= haystack.count {
                if haystack[start..<start + needle.count].elementsEqual(needle) {
                    ranges.append(start..<start + needle.count)
                    start += needle.count
                } else {
                    start += 1
                }
            }
        }
        return foldedText.segments(marking: ranges)
    }

    /// `text` with every word marked that starts with one of `words` (folded): what a full-text
    /// prefix search matched.
    public static func words(_ words: [String], in text: String) -> [HighlightSegment] {
        let prefixes = words.map { Folding.fold($0) }.filter { !$0.isEmpty }
        return markingWords(in: text) { foldedWord in prefixes.contains(where: { foldedWord.hasPrefix($0) }) }
    }

    /// `text` with every word marked that one of `words` (folded) starts, or matches within its
    /// typos with the same first letter (``MatchMode/fuzzy``).
    ///
    /// ```swift
    /// SearchHighlighter.marked(SearchHighlighter.fuzzyWords(["columbia"], in: "Colombia"))  // "[Colombia]"
    /// ```
    public static func fuzzyWords(_ words: [String], in text: String) -> [HighlightSegment] {
        let typed = CatalogueSearch.typedWords(words.joined(separator: " "))
        return markingWords(in: text) { foldedWord in
            let candidate = Array(foldedWord.unicodeScalars)
            return typed.contains { CatalogueSearch.fuzzyTypos(typed: $0, candidate: candidate) != nil }
        }
    }

    /// `text` cut at its words, marking those whose folded form `isMatch` accepts.
    private static func markingWords(in text: String, where isMatch: (String) -> Bool) -> [HighlightSegment] {
        var segments: [HighlightSegment] = []
        var plain = ""
        var word = ""
        func flushWord() {
            guard !word.isEmpty else { return }
            if isMatch(Folding.fold(word)) {
                if !plain.isEmpty { segments.append(HighlightSegment(text: plain, isMatch: false)) }
                plain = ""
                segments.append(HighlightSegment(text: word, isMatch: true))
            } else {
                plain += word
            }
            word = ""
        }
        for character in text {
            if character.unicodeScalars.first.map(FullTextPattern.isWordScalar) == true {
                word.append(character)
            } else {
                flushWord()
                plain.append(character)
            }
        }
        flushWord()
        if !plain.isEmpty { segments.append(HighlightSegment(text: plain, isMatch: false)) }
        return segments
    }

    /// The segments joined with matches wrapped in `open` and `close` ("[United] [Kingdom]").
    public static func marked(_ segments: [HighlightSegment], open: String = "[", close: String = "]") -> String {
        segments.map { $0.isMatch ? open + $0.text + close : $0.text }.joined()
    }
}

/// A text folded character by character, remembering which characters each folded byte came
/// from, so a match in the folded text maps back to whole characters of the original.
struct FoldedText {
    /// The folded text.
    let text: String
    private let characters: [Character]
    /// For each character, where its folding starts in `text` (UTF-8 offsets), plus the end.
    private let offsets: [Int]

    init(_ original: String) {
        var folded = ""
        var characters: [Character] = []
        var offsets: [Int] = []
        for character in original {
            characters.append(character)
            offsets.append(folded.utf8.count)
            folded += Folding.fold(String(character))
        }
        offsets.append(folded.utf8.count)
        self.text = folded
        self.characters = characters
        self.offsets = offsets
    }

    /// The original text cut into segments, marking every character any of `ranges` (folded
    /// UTF-8 offsets) touches.
    func segments(marking ranges: [Range<Int>]) -> [HighlightSegment] {
        var marked = [Bool](repeating: false, count: characters.count)
        for range in ranges {
            // The characters whose folding overlaps the range (a character that folds to
            // nothing, a lone combining mark, when it lies inside): from the first whose folding
            // ends after the range's start, found by halving (the offsets only grow), to the
            // last that starts before its end. Each match costs its own characters, not the
            // whole field's.
            var low = 0
            var high = characters.count
            while low < high {
                let middle = (low + high) / 2
                if offsets[middle + 1] > range.lowerBound { high = middle } else { low = middle + 1 }
            }
            var index = low
            while index < characters.count, offsets[index] < range.upperBound {
                marked[index] = true
                index += 1
            }
        }
        var segments: [HighlightSegment] = []
        var current = ""
        var currentMark = marked.first ?? false
        for (index, character) in characters.enumerated() {
            if marked[index] != currentMark, !current.isEmpty {
                segments.append(HighlightSegment(text: current, isMatch: currentMark))
                current = ""
            }
            currentMark = marked[index]
            current.append(character)
        }
        if !current.isEmpty || segments.isEmpty { segments.append(HighlightSegment(text: current, isMatch: currentMark)) }
        return segments
    }
}
