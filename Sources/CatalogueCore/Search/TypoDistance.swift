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
        distance(a[...], b[...], atMost: limit)
    }

    /// ``distance(_:_:atMost:)`` over slices of scalars: a word's start compares without a copy.
    ///
    /// ```swift
    /// let word = Array("kettles".unicodeScalars)
    /// TypoDistance.distance(Array("kettel".unicodeScalars)[...], word.prefix(6), atMost: 1)  // 1
    /// ```
    public static func distance(_ a: ArraySlice<Unicode.Scalar>, _ b: ArraySlice<Unicode.Scalar>, atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let width = b.count + 1
        // The table's last three rows, side by side in one buffer on the stack: a fuzzy search
        // compares a typed word with every indexed word that starts with its letter (111,112
        // words for a number at 1,000,000 products), and three arrays per comparison were most
        // of its cost.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows -> Int? in
            var (beforePrevious, previous, current) = (0, width, 2 * width)
            for j in 0..<width {
                rows[beforePrevious + j] = 0
                rows[previous + j] = j
            }
            for i in 1...a.count {
                let scalar = a[a.startIndex + i - 1]
                rows[current] = i
                var rowMinimum = i
                for j in 1...b.count {
                    let other = b[b.startIndex + j - 1]
                    let cost = scalar == other ? 0 : 1
                    var value = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
                    if i > 1, j > 1, scalar == b[b.startIndex + j - 2], a[a.startIndex + i - 2] == other {
                        value = min(value, rows[beforePrevious + j - 2] + 1)
                    }
                    rows[current + j] = value
                    rowMinimum = min(rowMinimum, value)
                }
                guard rowMinimum <= limit else { return nil }
                (beforePrevious, previous, current) = (previous, current, beforePrevious)
            }
            let distance = rows[previous + b.count]
            return distance <= limit ? distance : nil
        }
    }
}
