/// A row of an import file that cannot be stored: where it is, which column, and why.
///
/// Its description is the one-line form tools and editors understand:
///
/// ```swift
/// let issue = ImportIssue(source: "products.csv", line: 7, column: "year", reason: "not a whole number: \"20x7\"")
/// print(issue)  // products.csv:7: year: not a whole number: "20x7"
/// ```
public struct ImportIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input's name (the path as given, or `<stdin>`).
    public let source: String
    /// The physical line (1-based) of the row: where a CSV record starts, or the line of the
    /// JSON value at fault.
    public let line: Int
    /// The column at fault, when there is one.
    public let column: String?
    /// Why the row was refused.
    public let reason: String

    /// An issue with the row on `line` of `source`, in `column` when one is at fault.
    public init(source: String, line: Int, column: String?, reason: String) {
        self.source = source
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `FILE:LINE: column: reason` (`FILE:LINE: reason` without a column).
    public var description: String {
        "\(source):\(line): " + (column.map { "\($0): " } ?? "") + reason
    }
}

/// What an import did: rows added, updated, already up to date, and skipped.
///
/// ```swift
/// let counts = try catalogue.importRecords(Product.self, from: input, options: options)
/// print("\(counts.imported) imported, \(counts.skipped) skipped")
/// ```
public struct ImportCounts: Sendable, Hashable {
    /// Rows inserted as new records.
    public var added = 0
    /// Rows that changed an existing record (same natural key).
    public var updated = 0
    /// Rows equal to an existing record: nothing written.
    public var unchanged = 0
    /// Bad rows left out (policy ``ImportErrorPolicy/skip``).
    public var skipped = 0

    /// Counts with the given numbers of rows (zero by default).
    public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
    }

    /// Good rows: added, updated or unchanged.
    public var imported: Int {
        added + updated + unchanged
    }

    /// Every row read, good or bad.
    public var rows: Int {
        imported + skipped
    }

    /// Counts one upsert.
    mutating func record(_ outcome: UpsertOutcome) {
        switch outcome {
        case .inserted: added += 1
        case .updated: updated += 1
        case .unchanged: unchanged += 1
        }
    }
}

/// How far an import has got, reported as it goes.
public struct ImportProgress: Sendable, Hashable {
    /// What the import is doing.
    public enum Phase: Sendable, Hashable {
        /// Reading and writing rows.
        case rows
        /// Every row is written; building the indexes deferred until the end (full-text
        /// entries, and the name indexes of a big import) before the commit.
        case indexing
        /// Another connection is writing; the import waits for it to finish.
        case waitingForWriter
        /// Every row is written and indexed; the transaction is about to be committed. Once
        /// this is reported, an interrupted process may have committed the import.
        case committing
    }

    /// What the import is doing.
    public let phase: Phase
    /// Bytes of the input read so far.
    public let bytesRead: Int
    /// The input's size, when known.
    public let totalBytes: Int?
    /// Rows read so far.
    public let rows: Int

    /// Progress in `phase`, after `rows` rows and `bytesRead` of `totalBytes` bytes.
    public init(phase: Phase = .rows, bytesRead: Int, totalBytes: Int?, rows: Int) {
        self.phase = phase
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.rows = rows
    }

    /// The fraction read, 0…1, when the size is known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesRead) / Double(totalBytes))
    }
}
