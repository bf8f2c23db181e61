/// One section of a ``SectionedResultsController``: its name, its index title and how many
/// records it holds (like `NSFetchedResultsSectionInfo`).
///
/// ```swift
/// for section in controller.sections {
///     print(section.name, section.numberOfObjects)  // "A 16", "B 20", …
/// }
/// ```
public struct SectionInfo: Sendable, Hashable {
    /// The section name ("A"); empty for the single section of search mode.
    public let name: String
    /// The title for the section index ("A"); nil in search mode, which shows no index.
    public let indexTitle: String?
    /// How many records the section holds.
    public let numberOfObjects: Int
    /// The position of the section's first record among all records.
    public let offset: Int
}

/// The position of a record in sectioned results: a section and a row in it.
///
/// ```swift
/// let path = ResultIndexPath(row: 0, section: 2)
/// let record = try controller.object(at: path)
/// ```
public struct ResultIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The record's position within its section (0-based).
    public var row: Int
    /// The section's position among the sections (0-based).
    public var section: Int

    /// The position of row `row` in section `section`.
    public init(row: Int, section: Int) {
        self.row = row
        self.section = section
    }

    public static func < (lhs: ResultIndexPath, rhs: ResultIndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    public var description: String {
        "[\(section), \(row)]"
    }
}
