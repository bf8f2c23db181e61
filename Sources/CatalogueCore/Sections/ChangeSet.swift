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
public struct ChangeSet: Sendable, Hashable {
    /// One change.
    public enum Change: Sendable, Hashable {
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
    }

    /// Every change, in the order a table view applies them.
    public let changes: [Change]

    /// Whether nothing changed.
    public var isEmpty: Bool { changes.isEmpty }

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
