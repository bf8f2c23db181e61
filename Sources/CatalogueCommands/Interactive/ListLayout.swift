/// The shape of the list the interactive mode shows: how many records, their sections and
/// columns, and the status summary. It holds no record: rows are read for the lines on screen.
///
/// In browse mode each section has a header line before its rows; in search mode there are no
/// sections and every line is a record. "Display lines" count both headers and rows.
///
/// ```swift
/// let layout = ListLayout(count: 3, sections: [ListSection(title: "A", offset: 0, count: 2),
///                                              ListSection(title: "B", offset: 2, count: 1)])
/// layout.line(at: 0)  // .header(section: 0)
/// layout.line(at: 3)  // .header(section: 1)
/// layout.displayLine(ofRecord: 2)  // 4
/// ```
struct ListLayout: Equatable, Sendable {
    /// How many records the list holds.
    var count: Int
    /// The sections in order (empty while searching).
    var sections: [ListSection]
    /// The titles of the A–Z index column (empty while searching).
    var indexTitles: [String]
    /// Where each index title jumps (a title without records: the nearest following section).
    var jumpTable: [String: Int]
    /// The columns of a row.
    var columns: [ListColumn]
    /// The status line: "N items found", "No items found", "More than 10,000 items found".
    var summary: String
    /// False when the search has more matches than ``count`` (it lists its first
    /// ``InteractiveCounts/cap``).
    var isCountExact: Bool

    init(
        count: Int, sections: [ListSection] = [], indexTitles: [String] = [], jumpTable: [String: Int] = [:],
        columns: [ListColumn] = [ListColumn(title: "Name")], summary: String = "", isCountExact: Bool = true
    ) {
        self.count = count
        self.sections = sections
        self.indexTitles = indexTitles
        self.jumpTable = jumpTable
        self.columns = columns
        self.summary = summary
        self.isCountExact = isCountExact
    }

    /// An empty list.
    static let empty = ListLayout(count: 0, summary: "No items found")

    /// Whether rows come in sections with headers.
    var isSectioned: Bool { !sections.isEmpty }

    /// Headers and rows.
    var totalLines: Int { count + sections.count }

    /// What a display line shows.
    enum Line: Equatable {
        case header(section: Int)
        case record(position: Int)
    }

    /// What display line `line` shows; nil past the end.
    func line(at line: Int) -> Line? {
        guard line >= 0, line < totalLines else { return nil }
        guard isSectioned else { return .record(position: line) }
        // The last section whose header is at or before `line`.
        var low = 0
        var high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].offset + middle <= line { low = middle } else { high = middle - 1 }
        }
        let header = sections[low].offset + low
        return line == header ? .header(section: low) : .record(position: sections[low].offset + line - header - 1)
    }

    /// The section holding record `position` (0 when unsectioned).
    func section(containing position: Int) -> Int {
        guard isSectioned else { return 0 }
        var low = 0
        var high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].offset <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The display line of record `position`.
    func displayLine(ofRecord position: Int) -> Int {
        isSectioned ? position + section(containing: position) + 1 : position
    }

    /// The display line of section `section`'s header.
    func headerLine(ofSection section: Int) -> Int {
        sections[section].offset + section
    }

    /// The records shown on display lines `lines`, as a range of positions.
    func records(onLines lines: Range<Int>) -> Range<Int> {
        var first: Int?
        var last: Int?
        for line in lines {
            if case .record(let position) = self.line(at: line) {
                if first == nil { first = position }
                last = position
            }
        }
        guard let first, let last else { return 0..<0 }
        return first..<(last + 1)
    }
}

/// One section of the list: its title ("A") and its records.
struct ListSection: Equatable, Sendable {
    var title: String
    /// The position of its first record.
    var offset: Int
    var count: Int
}

/// One column of the list.
struct ListColumn: Equatable, Sendable {
    var title: String
    /// Cells wide; nil for the column that takes the room left (at most one).
    var width: Int?
    /// Numbers align right.
    var alignRight: Bool

    init(title: String, width: Int? = nil, alignRight: Bool = false) {
        self.title = title
        self.width = width
        self.alignRight = alignRight
    }
}

/// The text of one record's row, one cell per column.
struct ListRow: Equatable, Sendable {
    var id: Int64?
    var cells: [ListCell]

    init(id: Int64?, cells: [ListCell]) {
        self.id = id
        self.cells = cells
    }

    /// A row of plain cells.
    init(id: Int64?, cells: [String]) {
        self.init(id: id, cells: cells.map(ListCell.init))
    }

    /// The text of each cell.
    var texts: [String] {
        cells.map(\.text)
    }
}
