import CatalogueKit
import Testing

/// Replays a change set on the old arrangement as a table view does (deletions and move sources
/// at old paths, then section changes, then insertions and move destinations at new paths),
/// independently of the library's diff.
///
/// ```swift
/// #expect(try replay(changes, on: before, new: after) == after)
/// ```
public func replay(_ changes: ChangeSet, on old: [[Int64]], new: [[Int64]]) throws -> [[Int64]] {
    var sections = old
    let moved = changes.movedRows.map { (id: old[$0.from.section][$0.from.row], from: $0.from, to: $0.to) }
    let removals = (changes.deletedRows + moved.map(\.from)).sorted(by: >)
    #expect(Set(removals).count == removals.count, "a row is removed twice")
    for path in removals {
        sections[path.section].remove(at: path.row)
    }
    for index in changes.deletedSections.sorted(by: >) {
        #expect(sections[index].isEmpty, "deleted section \(index) still has rows")
        sections.remove(at: index)
    }
    for index in changes.insertedSections.sorted() {
        sections.insert([], at: index)
    }
    let insertions = (changes.insertedRows.map { (path: $0, id: new[$0.section][$0.row]) } + moved.map { (path: $0.to, id: $0.id) })
        .sorted { $0.path < $1.path }
    for insertion in insertions {
        try #require(insertion.path.row <= sections[insertion.path.section].count, "insertion beyond the end")
        sections[insertion.path.section].insert(insertion.id, at: insertion.path.row)
    }
    return sections
}
