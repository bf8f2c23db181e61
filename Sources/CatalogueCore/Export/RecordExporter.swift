/// Writes every record of a type as CSV, a JSON array or NDJSON, one row at a time, in id order,
/// with the record's ``ImportableRecord/exportColumns``. What it writes, the importer reads
/// back into the same rows.
///
/// - CSV: a header row, CRLF line ends, RFC 4180 quoting; NULL is an empty field; aliases are
///   one field separated by `; `.
/// - JSON and NDJSON: one object per record with every export column (NULL is `null`); aliases
///   are an array of strings.
///
/// ```swift
/// let output = ExportOutput.standardOutput()
/// let count = try catalogue.read { db in
///     try RecordExporter<Country>(format: .csv).export(from: db, to: output)
/// }   // on any engine
/// try output.flush()
/// ```
public struct RecordExporter<R: ImportableRecord> {
    /// The format written.
    public let format: RecordFileFormat

    /// An exporter that writes `format`.
    public init(format: RecordFileFormat) {
        self.format = format
    }

    /// Writes every record (or only the one with `id`) and returns how many there were. Call
    /// ``ExportOutput/flush()`` after. Throws the output's error as soon as a write fails.
    @discardableResult
    public func export(from db: any CatalogueReading, to output: ExportOutput, id: Int64? = nil) throws -> Int {
        let columns = R.exportColumns
        let listColumn = R.schema.aliases?.joinedColumn.flatMap { columns.firstIndex(of: $0) }
        var sql = SQLBuilder(dialect: db.dialect)
        sql.append("SELECT \(columns.joined(separator: ", ")) FROM \(R.schema.table)")
        if let id {
            sql.append(" WHERE id = ")
            sql.bind(.integer(id))
        }
        sql.append(" ORDER BY id")
        var count = 0
        switch format {
        case .csv:
            output.write(columns.map(ExportText.csvField).joined(separator: ",") + "\r\n")
        case .json:
            output.write("[")
        case .ndjson:
            break
        }
        try db.forEachRow(sql.fragment()) { row in
            var line = ""
            switch format {
            case .csv:
                for index in columns.indices {
                    if index > 0 { line += "," }
                    line += ExportText.csvField(ExportText.plain(row.value(at: index)))
                }
                line += "\r\n"
            case .json, .ndjson:
                if format == .json, count > 0 { line += ",\n " }
                line += "{"
                for (index, column) in columns.enumerated() {
                    if index > 0 { line += "," }
                    line += ExportText.jsonString(column) + ":"
                    let value = row.value(at: index)
                    if index == listColumn, case .text(let joined) = value {
                        line += "[" + AliasTable.split(joined).map(ExportText.jsonString).joined(separator: ",") + "]"
                    } else {
                        line += ExportText.json(value)
                    }
                }
                line += format == .ndjson ? "}\n" : "}"
            }
            output.write(line)
            count += 1
            // A failed write (a full disk, a client gone) ends the export: reading on is waste.
            if output.hasFailed { try output.flush() }
        }
        if format == .json { output.write("]\n") }
        return count
    }
}

extension Catalogue {
    /// Writes every record of `type` to `output` in one read transaction (one consistent
    /// snapshot), flushes it, and returns how many records there were.
    ///
    /// ```swift
    /// try catalogue.exportRecords(Product.self, format: .ndjson, to: .standardOutput())
    /// ```
    @discardableResult
    public func exportRecords<R: ImportableRecord>(_ type: R.Type, format: RecordFileFormat, to output: ExportOutput) throws -> Int {
        let count = try read { db in try RecordExporter<R>(format: format).export(from: db, to: output) }
        try output.flush()
        return count
    }
}
