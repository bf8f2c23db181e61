import CatalogueKit
import CatalogueTestSupport
import Testing

/// `TypoDistance` against the textbook table of the optimal string alignment distance, filled in
/// full, on random words (slices starting anywhere included).
@Suite("Typo distance")
struct TypoDistanceTests {
    /// The optimal string alignment distance, every cell of the table computed.
    static func reference(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    @Test("The documented distances")
    func documented() {
        #expect(TypoDistance.distance("columbia", "colombia", atMost: 1) == 1)
        #expect(TypoDistance.distance("kazakstan", "kazakhstan", atMost: 2) == 1)
        #expect(TypoDistance.distance("bogata", "paris", atMost: 1) == nil)
        #expect(TypoDistance.distance("ab", "ba", atMost: 1) == 1)
        #expect(TypoDistance.distance("", "abc", atMost: 3) == 3)
        let word = Array("kettles".unicodeScalars)
        #expect(TypoDistance.distance(Array("kettel".unicodeScalars)[...], word.prefix(6), atMost: 1) == 1)
    }

    @Test("Every distance within the limit is the full table's; beyond it, nil")
    func matchesTheFullTable() {
        let alphabet: [Unicode.Scalar] = ["a", "b", "c", "é"]
        var generator = SplitMix64(seed: 7)
        func word(_ lengths: ClosedRange<Int>) -> [Unicode.Scalar] {
            (0..<Int.random(in: lengths, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
        }
        for _ in 0..<4_000 {
            let a = word(0...9), b = word(0...9)
            let limit = Int.random(in: 0...3, using: &generator)
            let expected = Self.reference(a, b)
            #expect(TypoDistance.distance(a, b, atMost: limit) == (expected <= limit ? expected : nil), "\(a) \(b) \(limit)")
            // Slices that start inside their arrays: the distance of the words they hold.
            let paddedA = word(0...3) + a, paddedB = word(0...3) + b
            let sliceA = paddedA[(paddedA.count - a.count)...], sliceB = paddedB[(paddedB.count - b.count)...]
            #expect(TypoDistance.distance(sliceA, sliceB, atMost: limit) == (expected <= limit ? expected : nil), "\(a) \(b) \(limit)")
        }
    }
}
