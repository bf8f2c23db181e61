import ArgumentParser

/// How a command prints records.
enum OutputFormat: String, CaseIterable, ArgumentChoices {
    /// Aligned columns for people, ending with "N items found".
    case table
    /// A JSON array of objects.
    case json
    /// RFC 4180 CSV with a header row.
    case csv
    /// One JSON object per line.
    case ndjson
}
