import CatalogueKit
import CatalogueTestSupport
import Testing

/// SearchHighlighter marks whole characters of the original text where the folded needles
/// occur: checked against a reference that looks at every character for every occurrence.
@Suite("Search highlighter")
struct SearchHighlighterTests {
    /// Characters that fold to several (ß, ﬁ), to nothing (a lone combining mark), to
    /// themselves, or differently by case and accent.
    static let alphabet: [String] = ["a", "á", "A", "b", "ß", "s", "ﬁ", "f", "i", "\u{301}", " ", "é", "e", "😀", "ö", "o"]

    /// Which characters of `text` the occurrences of `needles` (folded, left to right, not
    /// overlapping one another) touch, by looking at each character for each occurrence.
    static func reference(_ needles: [String], in text: String) -> [HighlightSegment] {
        let characters = Array(text)
        var offsets = [0]
        for character in characters { offsets.append(offsets.last! + Folding.fold(String(character)).utf8.count) }
        let haystack = Array(characters.map { Folding.fold(String($0)) }.joined().utf8)
        var marked = [Bool](repeating: false, count: characters.count)
        for needle in needles.map({ Array(Folding.fold($0).utf8) }) where !needle.isEmpty {
            var start = 0
            while start + needle.count <= haystack.count {
                guard haystack[start..<start + needle.count].elementsEqual(needle) else {
                    start += 1
                    continue
                }
                for index in characters.indices where offsets[index] < start + needle.count && offsets[index + 1] > start {
                    marked[index] = true
                }
                start += needle.count
            }
        }
        var segments: [HighlightSegment] = []
        for (index, character) in characters.enumerated() {
            if let last = segments.last, last.isMatch == marked[index] {
                segments[segments.count - 1] = HighlightSegment(text: last.text + String(character), isMatch: last.isMatch)
            } else {
                segments.append(HighlightSegment(text: String(character), isMatch: marked[index]))
            }
        }
        return segments.isEmpty ? [HighlightSegment(text: "", isMatch: false)] : segments
    }

    @Test("Contains marks what the reference marks, for random texts and needles, repeated spellings included")
    func containsMatchesReference() {
        var generator = SplitMix64(seed: 0x1417)
        for round in 0..<2_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in Self.alphabet.randomElement(using: &generator)! }.joined()
            let needles = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (0..<Int.random(in: 1...3, using: &generator)).map { _ in Self.alphabet.randomElement(using: &generator)! }.joined()
            }
            let found = SearchHighlighter.contains(needles, in: text)
            #expect(found == Self.reference(needles, in: text), "round \(round): \(needles) in \(text.debugDescription)")
            #expect(found.map(\.text).joined() == text)
        }
    }

    @Test("A hundred spellings of one letter mark what the letter marks")
    func repeatedSpellings() {
        let spellings = ["a", "A", "á", "à", "â", "ä", "ã", "å", "ā", "Á"]
        let text = String(repeating: "Banana, ", count: 50)
        #expect(SearchHighlighter.contains(Array(repeating: spellings, count: 10).flatMap { $0 }, in: text)
            == SearchHighlighter.contains(["a"], in: text))
        #expect(SearchHighlighter.marked(SearchHighlighter.contains(spellings, in: "Ålborg")) == "[Å]lborg")
    }
}
