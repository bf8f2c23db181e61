@testable import SQLiteStore
import Testing

/// The match sets a connection's statements collected, found again by number: held weakly,
/// only for the table and pattern they were collected for, at most four at once.
@Suite("Collected match sets")
struct CollectedMatchSetsTests {
    @Test("A set is found by its number while something holds it, and for its own table and pattern only")
    func foundWhileHeld() {
        let sets = CollectedMatchSets()
        var held: CollectedMatches? = CollectedMatches([1, 5, 9])
        let id = sets.add(held!, table: "item_fts", pattern: "\"lamp\"*")
        #expect(held?.setID == id)
        #expect(sets.matches(id, table: "item_fts", pattern: "\"lamp\"*") === held)
        #expect(sets.matches(id, table: "other_fts", pattern: "\"lamp\"*") == nil)
        #expect(sets.matches(id, table: "item_fts", pattern: "\"mug\"") == nil)
        #expect(sets.matches(id, table: "item_fts", pattern: nil) == nil)
        #expect(sets.matches(id + 1, table: "item_fts", pattern: "\"lamp\"*") == nil)
        held = nil
        #expect(sets.matches(id, table: "item_fts", pattern: "\"lamp\"*") == nil, "held weakly: gone with its statement's reference")
    }

    @Test("Numbers are never reused, and the oldest of more than four live sets is forgotten")
    func numbersAndCapacity() {
        let sets = CollectedMatchSets()
        let held = (0..<5).map { CollectedMatches([Int64($0)]) }
        let ids = held.map { sets.add($0, table: "item_fts", pattern: "p") }
        #expect(ids == ids.sorted() && Set(ids).count == 5)
        #expect(sets.matches(ids[0], table: "item_fts", pattern: "p") == nil)
        for index in 1..<5 {
            #expect(sets.matches(ids[index], table: "item_fts", pattern: "p") === held[index])
        }
    }

    @Test("Binary search finds exactly the ids collected")
    func contains() {
        let matches = CollectedMatches([2, 3, 5, 8, 13, 21])
        #expect([2, 3, 5, 8, 13, 21].allSatisfy(matches.contains))
        #expect(![0, 1, 4, 20, 22, Int64.max, Int64.min].contains(where: matches.contains))
        #expect(!CollectedMatches([]).contains(0))
    }
}
