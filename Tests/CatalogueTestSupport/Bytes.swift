import CatalogueKit

/// Byte-wise string relations: both engines compare keys by UTF-8 bytes (SQLite's BINARY
/// collation, memcmp over UTF-8; PostgreSQL's COLLATE "C"), not with Swift's
/// canonical-equivalence `String` comparison.
///
/// ```swift
/// Bytes.less("e\u{301}", "é")  // true: 0x65 < 0xC3, though the two are equal as Strings
/// ```
public enum Bytes {
    public static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        Array(text.utf8).starts(with: Array(prefix.utf8))
    }

    public static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        Array(text.utf8).reversed().starts(with: Array(suffix.utf8).reversed())
    }

    public static func contains(_ text: String, _ needle: String) -> Bool {
        let haystack = Array(text.utf8)
        let needle = Array(needle.utf8)
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// `lhs < rhs` as the engines order keys.
    public static func less(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// `lhs == rhs` byte for byte.
    public static func equal(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8)
    }
}

/// The catalogue's display order (folded name, name, id) computed in Swift, byte-wise.
///
/// ```swift
/// displayOrdered(products, name: \.name) == try catalogue.fetch(request)  // what a test expects
/// ```
public func displayOrdered<R: Record>(_ records: [R], name: (R) -> String) -> [R] {
    records.sorted { lhs, rhs in
        let (leftKey, rightKey) = (Folding.fold(name(lhs)), Folding.fold(name(rhs)))
        if !Bytes.equal(leftKey, rightKey) { return Bytes.less(leftKey, rightKey) }
        if !Bytes.equal(name(lhs), name(rhs)) { return Bytes.less(name(lhs), name(rhs)) }
        return (lhs.id ?? 0) < (rhs.id ?? 0)
    }
}
