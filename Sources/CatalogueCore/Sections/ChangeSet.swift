/// The changes between two arrangements of a ``SectionedResultsController``'s results, in the
/// form a table view applies in one batch update.
///
/// As with `UITableView.performBatchUpdates`: deletions and move sources are index paths in the
/// old results; insertions and move destinations are index paths in the new results. Applied in
/// ``changes`` order — row deletions (last first), section deletions (last first), section
/// insertions, row insertions, then moves and updates — the old results become the new ones.
///
/// ```swift
/// for change in changeSet.changes {
///     switch change {
///     case .deleteRow(let path): tableView.deleteRows(at: [path])
///     case .insertRow(let path): tableView.insertRows(at: [path])
///     case .moveRow(let from, let to): tableView.moveRow(at: from, to: to)
///     case .updateRow(_, let path): tableView.reloadRows(at: [path])
///     case .deleteSection(let index): tableView.deleteSections([index])
///     case .insertSection(let index): tableView.insertSections([index])
///     }
/// }
/// ```
public struct ChangeSet: Sendable, Hashable, CustomStringConvertible {
    /// One change.
    public enum Change: Sendable, Hashable, CustomStringConvertible {
        /// The section at this index of the old results is gone.
        case deleteSection(Int)
        /// A section appears at this index of the new results.
        case insertSection(Int)
        /// The record at this old index path is gone.
        case deleteRow(ResultIndexPath)
        /// A record appears at this new index path.
        case insertRow(ResultIndexPath)
        /// The record moved: its old and new index paths (its content may have changed too).
        case moveRow(from: ResultIndexPath, to: ResultIndexPath)
        /// The record stayed in place (relative to the others) but its content changed.
        case updateRow(from: ResultIndexPath, to: ResultIndexPath)

        /// "insert row 3 in section 0", "move row 1/2 → 0/5", "delete section 4".
        public var description: String {
            switch self {
            case .deleteSection(let index): "delete section \(index)"
            case .insertSection(let index): "insert section \(index)"
            case .deleteRow(let path): "delete row \(path.row) in section \(path.section)"
            case .insertRow(let path): "insert row \(path.row) in section \(path.section)"
            case .moveRow(let from, let to): "move row \(from.section)/\(from.row) → \(to.section)/\(to.row)"
            case .updateRow(let from, let to):
                from == to ? "update row \(to.row) in section \(to.section)"
                    : "update row \(from.section)/\(from.row) → \(to.section)/\(to.row)"
            }
        }
    }

    /// Every change, in the order a table view applies them.
    public let changes: [Change]

    /// Whether nothing changed.
    public var isEmpty: Bool { changes.isEmpty }

    /// The changes in order, separated by "; ".
    public var description: String {
        changes.isEmpty ? "no changes" : changes.map(\.description).joined(separator: "; ")
    }

    /// Old indices of deleted sections.
    public var deletedSections: [Int] {
        changes.compactMap { if case .deleteSection(let index) = $0 { index } else { nil } }
    }

    /// New indices of inserted sections.
    public var insertedSections: [Int] {
        changes.compactMap { if case .insertSection(let index) = $0 { index } else { nil } }
    }

    /// Old index paths of deleted rows.
    public var deletedRows: [ResultIndexPath] {
        changes.compactMap { if case .deleteRow(let path) = $0 { path } else { nil } }
    }

    /// New index paths of inserted rows.
    public var insertedRows: [ResultIndexPath] {
        changes.compactMap { if case .insertRow(let path) = $0 { path } else { nil } }
    }

    /// Moved rows: old and new index paths.
    public var movedRows: [(from: ResultIndexPath, to: ResultIndexPath)] {
        changes.compactMap { if case .moveRow(let from, let to) = $0 { (from, to) } else { nil } }
    }

    /// Updated rows: old and new index paths.
    public var updatedRows: [(from: ResultIndexPath, to: ResultIndexPath)] {
        changes.compactMap { if case .updateRow(let from, let to) = $0 { (from, to) } else { nil } }
    }
}
