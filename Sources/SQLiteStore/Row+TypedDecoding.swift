import CSQLite

// Concrete overloads of `Row.decode` for the types records use most. They read the column with
// one type check and one C call, without building a `DatabaseValue`: decoding a page of records
// costs about what stepping it through the raw C API costs. Swift picks them over the generic
// `decode(_:at:)` whenever the type is one of these.
extension Row {
    /// The column at `index` as text; throws ``RowDecodingError`` for NULL or a non-text value.
    @inlinable
    public func decode(_ type: String.Type = String.self, at index: Int) throws -> String {
        // sqlite3_column_text returns NULL only for NULL (numbers convert to text, as in C), so
        // no separate type check is needed on this, the most common, path.
        guard let text = statement.textIfNotNull(at: index) else { throw mismatch(index, "String") }
        return text
    }

    /// The column at `index` as text, nil for NULL.
    @inlinable
    public func decode(_ type: String?.Type = String?.self, at index: Int) throws -> String? {
        switch statement.columnType(at: index) {
        case SQLITE_TEXT: return statement.string(at: index)
        case SQLITE_NULL: return nil
        default: throw mismatch(index, "Optional<String>")
        }
    }

    /// The column at `index` as an integer; throws for NULL or a non-integral value.
    @inlinable
    public func decode(_ type: Int64.Type = Int64.self, at index: Int) throws -> Int64 {
        guard statement.columnType(at: index) == SQLITE_INTEGER else {
            return try decodeConverted(Int64.self, at: index)
        }
        return statement.int64(at: index)
    }

    /// The column at `index` as an integer, nil for NULL.
    @inlinable
    public func decode(_ type: Int64?.Type = Int64?.self, at index: Int) throws -> Int64? {
        switch statement.columnType(at: index) {
        case SQLITE_INTEGER: return statement.int64(at: index)
        case SQLITE_NULL: return nil
        default: return try decodeConverted(Int64.self, at: index)
        }
    }

    /// The column at `index` as an `Int`, nil for NULL.
    @inlinable
    public func decode(_ type: Int?.Type = Int?.self, at index: Int) throws -> Int? {
        guard let value = try decode(Int64?.self, at: index) else { return nil }
        guard let int = Int(exactly: value) else { throw mismatch(index, "Optional<Int>") }
        return int
    }

    /// The column at `index` as a double; integers convert.
    @inlinable
    public func decode(_ type: Double.Type = Double.self, at index: Int) throws -> Double {
        switch statement.columnType(at: index) {
        case SQLITE_FLOAT, SQLITE_INTEGER: return statement.double(at: index)
        default: throw mismatch(index, "Double")
        }
    }

    /// The column at `index` as a double, nil for NULL.
    @inlinable
    public func decode(_ type: Double?.Type = Double?.self, at index: Int) throws -> Double? {
        switch statement.columnType(at: index) {
        case SQLITE_FLOAT, SQLITE_INTEGER: return statement.double(at: index)
        case SQLITE_NULL: return nil
        default: throw mismatch(index, "Optional<Double>")
        }
    }

    /// A real that holds an integral value still decodes as an integer, as the generic path does.
    @usableFromInline
    func decodeConverted(_ type: Int64.Type, at index: Int) throws -> Int64 {
        guard let value = Int64.fromDatabaseValue(statement.value(at: index)) else {
            throw mismatch(index, "\(type)")
        }
        return value
    }

    @usableFromInline
    func mismatch(_ index: Int, _ type: String) -> RowDecodingError {
        RowDecodingError(column: statement.columnName(at: index), value: statement.value(at: index), type: type, sql: statement.sql)
    }
}

extension Statement {
    /// Column `index` as text, nil for NULL.
    @inlinable
    public func textIfNotNull(at index: Int) -> String? {
        let column = Int32(index)
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The storage class of column `index` of the current row: 1 integer, 2 real, 3 text,
    /// 4 blob, 5 NULL (SQLite's `SQLITE_INTEGER` … `SQLITE_NULL`).
    @inlinable
    public func columnType(at index: Int) -> Int32 {
        sqlite3_column_type(handle, Int32(index))
    }
}

extension Statement {
    /// The first Unicode scalar of column `index`'s text, nil for NULL or empty text, read from
    /// SQLite's buffer without creating a `String` (for scans over many rows).
    @inlinable
    public func firstScalar(at index: Int) -> Unicode.Scalar? {
        let column = Int32(index)
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        var iterator = UnsafeBufferPointer(start: bytes, count: min(count, 4)).makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }
}

// The engine-neutral reads of `DatabaseRow`, served by the fast paths above.
extension Row {
    /// The value of the column at `index`.
    @inlinable
    public func value(at index: Int) -> DatabaseValue {
        statement.value(at: index)
    }

    @inlinable
    public func decodeText(at index: Int) throws -> String {
        try decode(String.self, at: index)
    }

    @inlinable
    public func decodeOptionalText(at index: Int) throws -> String? {
        try decode(String?.self, at: index)
    }

    @inlinable
    public func decodeInteger(at index: Int) throws -> Int64 {
        try decode(Int64.self, at: index)
    }

    @inlinable
    public func decodeOptionalInteger(at index: Int) throws -> Int64? {
        try decode(Int64?.self, at: index)
    }

    @inlinable
    public func decodeReal(at index: Int) throws -> Double {
        try decode(Double.self, at: index)
    }

    @inlinable
    public func decodeOptionalReal(at index: Int) throws -> Double? {
        try decode(Double?.self, at: index)
    }

    public func decodingError(at index: Int, type: String) -> RowDecodingError {
        mismatch(index, type)
    }
}
