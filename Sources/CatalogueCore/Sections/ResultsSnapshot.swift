/// The arrangement of a controller's results: every record id in display order, cut into
/// sections. Records themselves are loaded later, in batches.
struct ResultsSnapshot: Sendable, Equatable {
    /// Record ids in display order (8 bytes a record).
    let ids: [Int64]
    /// Sections in order; their offsets and counts partition `ids`.
    let sections: [SectionInfo]

    /// The global position of `path`, or nil when it is out of range.
    func position(of path: ResultIndexPath) -> Int? {
        guard sections.indices.contains(path.section) else { return nil }
        let section = sections[path.section]
        guard path.row >= 0, path.row < section.numberOfObjects else { return nil }
        return section.offset + path.row
    }

    /// The index path of the record at global `position` (binary search over sections).
    func path(at position: Int) -> ResultIndexPath {
        var low = 0
        var high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].offset <= position { low = middle } else { high = middle - 1 }
        }
        return ResultIndexPath(row: position - sections[low].offset, section: low)
    }

    /// The ids of each section, in order (for tests and change replay).
    var sectionedIDs: [(name: String, ids: [Int64])] {
        sections.map { ($0.name, Array(ids[$0.offset..<$0.offset + $0.numberOfObjects])) }
    }

    /// Every id in one untitled section (search mode, or no sections).
    static func unsectioned(_ ids: [Int64]) -> ResultsSnapshot {
        ResultsSnapshot(
            ids: ids,
            sections: ids.isEmpty ? [] : [SectionInfo(name: "", indexTitle: nil, numberOfObjects: ids.count, offset: 0)])
    }

    /// Reads the request's ids in order and groups them by `rule` applied to `column`.
    ///
    /// One pass in the request's order (an index scan for the catalogue's folded-key order):
    /// each row's section comes from the first scalar of the column and of its folded key, which
    /// the engine reads as cheaply as it can (SQLite from its buffers, without creating strings). Rows are bucketed by section, keeping
    /// their order inside each bucket, and the buckets are joined in the rule's order (reversed
    /// when the first sort descriptor is descending), so every section is contiguous and sorted.
    static func sectioned<R: Record>(
        _ request: FetchRequest<R>, column: String, rule: any SectionRule, db: any CatalogueReading
    ) throws -> ResultsSnapshot {
        let foldsInSwift = R.schema.keyColumn(for: column) == nil
        var bucketNames: [String] = []
        var buckets: [[Int64]] = []
        var bucketByName: [String: Int] = [:]
        var lastName: String?
        var lastBucket = 0
        try db.forEachSectionRow(request, column: column) { id, first, foldedFirst in
            var foldedFirst = foldedFirst
            if foldsInSwift, let scalar = foldedFirst {
                foldedFirst = Folding.fold(String(scalar)).unicodeScalars.first
            }
            let name = rule.sectionName(first: first, foldedFirst: foldedFirst)
            if name != lastName {
                if let existing = bucketByName[name] {
                    lastBucket = existing
                } else {
                    lastBucket = buckets.count
                    bucketByName[name] = lastBucket
                    bucketNames.append(name)
                    buckets.append([])
                }
                lastName = name
            }
            buckets[lastBucket].append(id)
        }

        var order = bucketNames.indices.sorted { rule.rank(of: bucketNames[$0]) < rule.rank(of: bucketNames[$1]) }
        if request.sortDescriptors.first?.ascending == false { order.reverse() }
        var ids: [Int64] = []
        ids.reserveCapacity(buckets.reduce(0) { $0 + $1.count })
        var sections: [SectionInfo] = []
        for index in order {
            sections.append(SectionInfo(
                name: bucketNames[index], indexTitle: bucketNames[index],
                numberOfObjects: buckets[index].count, offset: ids.count))
            ids += buckets[index]
            buckets[index] = []
        }
        return ResultsSnapshot(ids: ids, sections: sections)
    }
}
