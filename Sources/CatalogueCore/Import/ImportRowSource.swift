/// One row of an import file, mapped to a record's import columns.
struct SourceRow {
    /// The line the row starts on.
    let line: Int
    let row: ImportRow
    /// The line of each column's value (JSON), or nil when every value is on `line` (CSV).
    let valueLines: [Int]?

    /// The line to report for a problem with `column`.
    func line(of column: String) -> Int {
        guard let valueLines, let index = row.columns.firstIndex(where: { $0.name == column }) else { return line }
        return valueLines[index]
    }
}

/// A problem after which an import cannot go on, whatever its policy: a bad header, or a
/// syntax error in a JSON array.
struct FatalImportIssue: Error {
    let issue: ImportIssue

    /// Runs `open` (a reader's creation), reporting an input that is not UTF-8 as a problem on
    /// its first line: "sheet.csv:1: encoding: UTF-16LE text, not UTF-8; convert it first: …".
    static func reportingEncoding<Reader>(of input: ImportInput, _ open: () throws -> Reader) throws -> Reader {
        do {
            return try open()
        } catch let error as ImportEncodingError {
            throw FatalImportIssue(issue: ImportIssue(source: input.name, line: 1, column: nil, reason: "encoding: \(error)"))
        }
    }
}

/// The rows of an import file. `next()` throws ``ImportIssue`` for a bad row (the next call goes
/// on after it), ``FatalImportIssue`` when reading cannot go on, and input errors.
protocol ImportRowSource: AnyObject {
    func next() throws -> SourceRow?
    var bytesRead: Int { get }
}

/// Matches column names from a file (a CSV header, JSON keys) to a record's import columns:
/// exactly, or ignoring case and surrounding spaces.
struct ImportColumnMatcher {
    let columns: [ImportColumn]
    private let indexes: [String: Int]

    init(_ columns: [ImportColumn]) {
        self.columns = columns
        indexes = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($0.element.name, $0.offset) })
    }

    /// The index of the column `name` names, if any.
    func index(of name: String) -> Int? {
        if let index = indexes[name] { return index }
        var normalized = Substring(name)
        while normalized.first == " " { normalized.removeFirst() }
        while normalized.last == " " { normalized.removeLast() }
        return indexes[normalized.lowercased()]
    }

    /// "unknown column; known columns: id, name, type, year, price".
    var unknownColumnReason: String {
        ImportIssue.unknownColumnReasonPrefix + "; known columns: " + columns.map(\.name).joined(separator: ", ")
    }

    /// Why a header of one field, `field`, names no column: when it is known column names
    /// separated by semicolons or tabs (a spreadsheet's CSV in many locales, or TSV), a reason
    /// that says so and what to do; else ``unknownColumnReason``.
    ///
    /// ```swift
    /// matcher.unknownColumnReason(forOnlyField: "name;type")
    /// // "unknown column; the header is separated by ';' where CSV fields are separated by commas: …"
    /// ```
    func unknownColumnReason(forOnlyField field: String) -> String {
        for (separator, name) in [(Character(";"), "';'"), (Character("\t"), "tabs")] where field.contains(separator) {
            let parts = field.split(separator: separator, omittingEmptySubsequences: false)
            guard parts.allSatisfy({ index(of: String($0)) != nil }) else { continue }
            return ImportIssue.unknownColumnReasonPrefix
                + "; the header is separated by \(name) where CSV fields are separated by commas: save the sheet as comma-separated CSV"
        }
        return unknownColumnReason
    }
}

/// Rows of a CSV file: the first record is the header naming the columns.
final class CSVRowSource: ImportRowSource {
    private let reader: CSVReader
    private let source: String
    private let header: [String]
    /// For each field of a record, its column index, or nil for an ignored column.
    private let fieldColumns: [Int?]
    private let emptyValues: [ImportValue]
    private let columns: [ImportColumn]
    /// The columns the header names (the same for every row).
    private let present: [Bool]

    var bytesRead: Int { reader.bytesRead }

    /// - Parameter stopsAtOverlongField: end reading at a field over the length limit in any row
    ///   (see ``CSVReader/stopsAtOverlongField``), for an import that stops at its first bad row;
    ///   the header's always does.
    init(_ input: ImportInput, columns: [ImportColumn], stopsAtOverlongField: Bool = false) throws {
        source = input.name
        self.columns = columns
        let reader = try FatalImportIssue.reportingEncoding(of: input) { try CSVReader(input) }
        self.reader = reader
        let matcher = ImportColumnMatcher(columns)
        let record: CSVRecord?
        do {
            // A bad header ends the import: an endless one (`/dev/zero`) need not be read to its end.
            reader.stopsAtOverlongField = true
            defer { reader.stopsAtOverlongField = stopsAtOverlongField }
            record = try reader.next()
        } catch let error as CSVError {
            throw FatalImportIssue(issue: ImportIssue(source: input.name, line: error.line, column: nil, reason: "header: " + error.message))
        }
        guard let record else {
            throw FatalImportIssue(issue: ImportIssue(
                source: input.name, line: 1, column: nil,
                reason: "no header row: expected the column names (" + columns.map(\.name).joined(separator: ", ") + ")"))
        }
        header = record.fields
        var seen = Set<Int>()
        var fieldColumns: [Int?] = []
        for name in record.fields {
            guard let index = matcher.index(of: name) else {
                let reason = record.fields.count == 1 ? matcher.unknownColumnReason(forOnlyField: name) : matcher.unknownColumnReason
                throw FatalImportIssue(issue: ImportIssue(source: input.name, line: record.line, column: name, reason: reason))
            }
            guard seen.insert(index).inserted else {
                throw FatalImportIssue(issue: ImportIssue(source: input.name, line: record.line, column: name, reason: "duplicate column"))
            }
            fieldColumns.append(columns[index].isIgnored ? nil : index)
        }
        let missing = columns.enumerated().filter { $0.element.isRequired && !seen.contains($0.offset) }.map(\.element.name)
        if !missing.isEmpty {
            let required = columns.filter(\.isRequired).map(\.name).joined(separator: ", ")
            throw FatalImportIssue(issue: ImportIssue(
                source: input.name, line: record.line, column: nil,
                reason: "missing column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) (required: \(required))"))
        }
        self.fieldColumns = fieldColumns
        emptyValues = Array(repeating: .null, count: columns.count)
        var present = Array(repeating: false, count: columns.count)
        for case let column? in fieldColumns { present[column] = true }
        self.present = present
    }

    func next() throws -> SourceRow? {
        let record: CSVRecord
        do {
            guard let next = try reader.next() else { return nil }
            record = next
        } catch let error as CSVError {
            let column = error.field.flatMap { $0 < header.count ? header[$0] : nil }
            throw ImportIssue(source: source, line: error.line, column: column, reason: error.message)
        }
        guard record.fields.count == header.count else {
            throw ImportIssue(
                source: source, line: record.line, column: nil,
                reason: "expected \(header.count) field\(header.count == 1 ? "" : "s") (\(header.joined(separator: ", "))), found \(record.fields.count)")
        }
        var values = emptyValues
        for (field, column) in zip(record.fields, fieldColumns) {
            if let column { values[column] = .text(field) }
        }
        return SourceRow(line: record.line, row: ImportRow(columns: columns, values: values, present: present), valueLines: nil)
    }
}

/// Rows of a JSON array of objects, or of NDJSON: each object's keys name its columns.
final class JSONRowSource: ImportRowSource {
    private let reader: JSONRecordReader
    private let source: String
    private let matcher: ImportColumnMatcher
    private let emptyValues: [ImportValue]

    var bytesRead: Int { reader.bytesRead }

    /// - Parameter stopsAtOverlongValue: end reading at a value over the length limit (see
    ///   ``JSONRecordReader/stopsAtOverlongValue``), for an import that stops at its first bad row.
    init(_ input: ImportInput, columns: [ImportColumn], layout: JSONRecordReader.Layout, stopsAtOverlongValue: Bool = false) throws {
        source = input.name
        reader = try FatalImportIssue.reportingEncoding(of: input) { try JSONRecordReader(input, layout: layout) }
        reader.stopsAtOverlongValue = stopsAtOverlongValue
        matcher = ImportColumnMatcher(columns)
        emptyValues = Array(repeating: .null, count: columns.count)
    }

    func next() throws -> SourceRow? {
        let record: JSONRecord
        do {
            guard let next = try reader.next() else { return nil }
            record = next
        } catch let error as JSONRecordError {
            let issue = ImportIssue(source: source, line: error.line, column: error.key, reason: error.message)
            if error.isFatal { throw FatalImportIssue(issue: issue) }
            throw issue
        }
        var values = emptyValues
        var present = Array(repeating: false, count: values.count)
        var lines = Array(repeating: record.line, count: values.count)
        for (offset, key) in record.keys.enumerated() {
            guard let index = matcher.index(of: key) else {
                throw ImportIssue(source: source, line: record.valueLines[offset], column: key, reason: matcher.unknownColumnReason)
            }
            if matcher.columns[index].isIgnored { continue }
            values[index] = record.values[offset]
            present[index] = true
            lines[index] = record.valueLines[offset]
        }
        return SourceRow(
            line: record.line, row: ImportRow(columns: matcher.columns, values: values, present: present), valueLines: lines)
    }
}
