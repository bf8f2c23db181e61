import CatalogueKit
import Foundation

// Helpers shared by the engine suites: engine-neutral (the library's API only).

extension Catalogue {
    /// The records of `request`, read in a read transaction.
    func records<R: Record>(_ request: FetchRequest<R>) throws -> [R] {
        try read { db in try db.fetch(request) }
    }

    /// How many records of `type` there are.
    func count<R: Record>(_ type: R.Type, where predicate: FetchPredicate = .true) throws -> Int {
        try fetchCount(FetchRequest<R>(predicate: predicate))
    }

    /// Every country, in id order.
    func allCountries() throws -> [Country] {
        try records(FetchRequest<Country>(sortDescriptors: [FetchSortDescriptor("id")]))
    }

    /// The names `search` gives page after page, `size` at a time, until `count` names, and the
    /// total each page reported.
    func pagedNames(_ request: FetchRequest<Product>, size: Int, count: Int) throws -> (names: [String], totals: [Int]) {
        var names: [String] = []
        var totals: [Int] = []
        var offset = 0
        while offset < count {
            let page = try search(request, limit: size, offset: offset)
            names += page.records.map(\.name)
            totals.append(page.totalCount)
            offset += size
        }
        return (names, totals)
    }
}

/// Byte-wise string relations: both engines compare keys by UTF-8 bytes (SQLite's BINARY,
/// PostgreSQL's COLLATE "C"), not with Swift's canonical-equivalence `String` comparison.
enum Bytes {
    static func contains(_ text: String, _ needle: String) -> Bool {
        let haystack = Array(text.utf8)
        let needle = Array(needle.utf8)
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    static func less(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8)
    }
}

/// The catalogue's display order (folded name, name, id) computed in Swift, byte-wise.
func displayOrdered<R: Record>(_ records: [R], name: (R) -> String) -> [R] {
    records.sorted { lhs, rhs in
        let (leftKey, rightKey) = (Folding.fold(name(lhs)), Folding.fold(name(rhs)))
        if !Bytes.equal(leftKey, rightKey) { return Bytes.less(leftKey, rightKey) }
        if !Bytes.equal(name(lhs), name(rhs)) { return Bytes.less(name(lhs), name(rhs)) }
        return (lhs.id ?? 0) < (rhs.id ?? 0)
    }
}

/// SplitMix64: a small deterministic random generator for property tests.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
