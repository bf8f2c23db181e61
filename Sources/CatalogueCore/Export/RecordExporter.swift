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
    /// How many rows one query reads: the rows are read in batches of this many, in id order
    /// (`WHERE id > last ORDER BY id LIMIT n`), so an engine that receives a query's rows all at
    /// once (PostgreSQL's driver does) holds one batch, not the table.
    public let batchSize: Int

    /// An exporter that writes `format`, reading `batchSize` rows (at least 1) per query.
    public init(format: RecordFileFormat, batchSize: Int = 10_000) {
        precondition(batchSize > 0, "a batch holds at least one row")
        self.format = format
        self.batchSize = batchSize
    }

    /// Writes every record (or only the one with `id`) and returns how many there were. Call
    /// ``ExportOutput/flush()`` after. Throws the output's error as soon as a write fails.
    ///
    /// The rows are read in batches; give it a read transaction (``Catalogue/read(_:)-6oxrw``)
    /// so that they come from one snapshot, as ``Catalogue/exportRecords(_:format:to:)`` does.
    @discardableResult
    public func export(from db: any CatalogueReading, to output: ExportOutput, id: Int64? = nil) throws -> Int {
        let columns = R.exportColumns
        let listColumn = R.schema.aliases?.joinedColumn.flatMap { columns.firstIndex(of: $0) }
        var count = 0
        switch format {
        case .csv:
            output.write(columns.map(ExportText.csvField).joined(separator: ",") + "\r\n")
        case .json:
            output.write("[")
        case .ndjson:
            break
        }
        var lastID: Int64?
        while true {
            // The id comes last, after the columns written, to start the next batch after it.
            var sql = SQLBuilder(dialect: db.dialect)
            sql.append("SELECT \(columns.joined(separator: ", ")), id FROM \(R.schema.table)")
            if let id {
                sql.append(" WHERE id = ")
                sql.bind(.integer(id))
            } else if let lastID {
                sql.append(" WHERE id > ")
                sql.bind(.integer(lastID))
            }
            sql.append(" ORDER BY id LIMIT \(batchSize)")
            var batchCount = 0
            let batchStart = lastID
            try db.forEachRow(sql.fragment()) { row in
                output.write(line(of: row, columns: columns, listColumn: listColumn, first: count == 0))
                count += 1
                batchCount += 1
                if case .integer(let rowID) = row.value(at: columns.count) { lastID = rowID }
                // A failed write (a full disk, a client gone) ends the export: reading on is waste.
                if output.hasFailed { try output.flush() }
            }
            if id != nil || batchCount < batchSize { break }
            precondition(lastID != batchStart, "the export's rows must have integer ids to be read in batches")
        }
        if format == .json { output.write("]\n") }
        return count
    }

    /// One record's text in ``format``: a CSV line, or a JSON object (after `,\n ` unless it is
    /// the `first` of a JSON array), or an NDJSON line.
    private func line(of row: any DatabaseRow, columns: [String], listColumn: Int?, first: Bool) -> String {
        var line = ""
        switch format {
        case .csv:
            for index in columns.indices {
                if index > 0 { line += "," }
                line += ExportText.csvField(ExportText.plain(row.value(at: index)))
            }
            line += "\r\n"
        case .json, .ndjson:
            if format == .json, !first { line += ",\n " }
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
        return line
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
