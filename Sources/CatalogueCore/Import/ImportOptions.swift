/// The file formats of import and export.
///
/// ```swift
/// RecordFileFormat(path: "products.csv")      // .csv
/// RecordFileFormat(path: "countries.jsonl")   // .ndjson
/// ```
public enum RecordFileFormat: String, Sendable, Hashable, CaseIterable {
    /// RFC 4180 CSV with a header row naming the columns.
    case csv
    /// A JSON array of objects.
    case json
    /// One JSON object per line (NDJSON, JSON Lines).
    case ndjson

    /// The format a file name's extension names (`.csv`, `.json`, `.ndjson`, `.jsonl`), if any.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "csv": self = .csv
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        default: return nil
        }
    }
}

/// What an import does with a row it cannot store.
public enum ImportErrorPolicy: String, Sendable, Hashable, CaseIterable {
    /// Stop at the first bad row: nothing is imported, the database is as it was.
    case abort
    /// Leave bad rows out, report each one, and import the rest.
    case skip
}

/// How to import a file.
///
/// ```swift
/// let options = ImportOptions(format: .csv, onError: .skip, dryRun: true)
/// ```
public struct ImportOptions: Sendable, Hashable {
    /// The file's format.
    public var format: RecordFileFormat
    /// What to do with a bad row.
    public var onError: ImportErrorPolicy
    /// Check and count every row, then roll back: nothing is written.
    public var dryRun: Bool

    /// Options to read `format`, stopping at the first bad row unless `onError` says otherwise.
    public init(format: RecordFileFormat, onError: ImportErrorPolicy = .abort, dryRun: Bool = false) {
        self.format = format
        self.onError = onError
        self.dryRun = dryRun
    }
}
