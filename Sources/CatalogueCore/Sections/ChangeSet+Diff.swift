extension ChangeSet {
    /// The changes from `old` to `new`. `updated` holds ids whose content changed.
    ///
    /// O(n log n), without hashing every id: both id lists are ordered by id (as 32-bit
    /// positions) and merged to find deletions, insertions and the records in both; among the
    /// latter, a longest increasing subsequence of old positions (in new order) stays in place,
    /// and the rest move. A record that stays but changes section is a move too, and so is one
    /// whose section was deleted.
    static func difference(from old: ResultsSnapshot, to new: ResultsSnapshot, updated: Set<Int64>) -> ChangeSet {
        let oldByID = positionsSortedByID(old.ids)
        let newByID = positionsSortedByID(new.ids)

        var deletedPositions: [Int] = []
        var insertedPositions: [Int] = []
        // For each new position, the old position of the same record, or -1.
        var oldPositionAt = [Int32](repeating: -1, count: new.ids.count)
        var i = 0
        var j = 0
        while i < oldByID.count || j < newByID.count {
            if j == newByID.count || (i < oldByID.count && old.ids[Int(oldByID[i])] < new.ids[Int(newByID[j])]) {
                deletedPositions.append(Int(oldByID[i]))
                i += 1
            } else if i == oldByID.count || new.ids[Int(newByID[j])] < old.ids[Int(oldByID[i])] {
                insertedPositions.append(Int(newByID[j]))
                j += 1
            } else {
                oldPositionAt[Int(newByID[j])] = oldByID[i]
                i += 1
                j += 1
            }
        }

        // A record that changes section moves whatever else happens: leave it out of the run,
        // so the run keeps as many of the others in place as possible.
        var paths: [(from: ResultIndexPath, to: ResultIndexPath)?] = Array(repeating: nil, count: new.ids.count)
        var candidates = oldPositionAt
        for newPosition in oldPositionAt.indices where oldPositionAt[newPosition] >= 0 {
            let from = old.path(at: Int(oldPositionAt[newPosition]))
            let to = new.path(at: newPosition)
            paths[newPosition] = (from, to)
            if old.sections[from.section].name != new.sections[to.section].name {
                candidates[newPosition] = -1
            }
        }
        let staying = longestIncreasingRun(candidates)
        var moves: [Change] = []
        var updates: [Change] = []
        for newPosition in oldPositionAt.indices {
            guard let (from, to) = paths[newPosition] else { continue }
            if staying[newPosition] {
                if updated.contains(new.ids[newPosition]) {
                    updates.append(.updateRow(from: from, to: to))
                }
            } else {
                moves.append(.moveRow(from: from, to: to))
            }
        }

        let oldNames = Set(old.sections.map(\.name))
        let newNames = Set(new.sections.map(\.name))
        var changes: [Change] = []
        changes += deletedPositions.sorted(by: >).map { .deleteRow(old.path(at: $0)) }
        changes += old.sections.indices.reversed().filter { !newNames.contains(old.sections[$0].name) }.map { .deleteSection($0) }
        changes += new.sections.indices.filter { !oldNames.contains(new.sections[$0].name) }.map { .insertSection($0) }
        changes += insertedPositions.sorted().map { .insertRow(new.path(at: $0)) }
        changes += moves
        changes += updates
        return ChangeSet(changes: changes)
    }

    /// Positions 0..<ids.count, ordered by the id at each position.
    private static func positionsSortedByID(_ ids: [Int64]) -> [Int32] {
        var positions = (0..<Int32(ids.count)).map { $0 }
        positions.sort { ids[Int($0)] < ids[Int($1)] }
        return positions
    }

    /// Marks the elements (values ≥ 0; negative ones are skipped) of a longest strictly
    /// increasing subsequence.
    /// Patience sorting with predecessor links: O(n log n).
    private static func longestIncreasingRun(_ values: [Int32]) -> [Bool] {
        var tails: [Int32] = []          // index into `values` of the smallest tail of each length
        var predecessor = [Int32](repeating: -1, count: values.count)
        for index in values.indices where values[index] >= 0 {
            let value = values[index]
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[Int(tails[middle])] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { predecessor[index] = tails[low - 1] }
            if low == tails.count { tails.append(Int32(index)) } else { tails[low] = Int32(index) }
        }
        var marked = [Bool](repeating: false, count: values.count)
        var cursor = tails.last.map { Int($0) } ?? -1
        while cursor >= 0 {
            marked[cursor] = true
            cursor = Int(predecessor[cursor])
        }
        return marked
    }
}
