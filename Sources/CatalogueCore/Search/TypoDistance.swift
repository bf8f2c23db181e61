/// How many typos separate two words: the Damerau-Levenshtein distance in its optimal string
/// alignment form (insertions, deletions, substitutions and transpositions of adjacent
/// characters, each counting one), over Unicode scalars of folded text.
///
/// ```swift
/// TypoDistance.distance("columbia", "colombia", atMost: 1)  // 1
/// TypoDistance.distance("kazakstan", "kazakhstan", atMost: 2)  // 1
/// TypoDistance.distance("bogata", "paris", atMost: 1)  // nil: more than 1
/// TypoDistance.allowedTypos(forLength: 6)  // 1
/// ```
public enum TypoDistance {
    /// The typos a typed word of `length` characters may have: none up to 4 characters, one
    /// from 5 to 8, two from 9 on.
    public static func allowedTypos(forLength length: Int) -> Int {
        switch length {
        case ..<5: 0
        case 5...8: 1
        default: 2
        }
    }

    /// The distance between `a` and `b` when it is at most `limit`, else nil (computed only as
    /// far as needed: a row of the table whose every cell exceeds the limit stops it).
    public static func distance(_ a: String, _ b: String, atMost limit: Int) -> Int? {
        distance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: limit)
    }

    /// ``distance(_:_:atMost:)`` over scalars.
    public static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, beforePrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            guard rowMinimum <= limit else { return nil }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
