import CSQLite

/// `catalogue_in_matches(id, 'table_fts', pattern)`: 1 when `id` is among the rowids the FTS5
/// table `table_fts` matches for `pattern`, 0 when not, NULL for a NULL id. Registered on a
/// connection by ``Connection/registerFullTextMembership()`` (the catalogue's connections all
/// have it).
///
/// It answers what `+id IN (SELECT rowid FROM table_fts WHERE table_fts MATCH ?)` answers, for a
/// statement that reads another index in order and checks each row: the matches are collected
/// once per execution of the statement, into a sorted array kept as SQLite's auxiliary data of
/// the call (held while the pattern stays the same literal or bound parameter, dropped when the
/// statement is reset), and each row is looked up by binary search. Beyond reading the matches
/// from the index, which both do, SQLite's `IN` list costs about 1,100 instructions per match
/// to build (an ephemeral B-tree) and 1,250 per row to probe; this, an append per match and
/// about 400 per row, the call included: the ranked words page of `lamp` at 1,000,000 products
/// (22,260 matches, 11,529 keys read in order) ran 102 M instructions in the sqlite3 shell with
/// the `IN` list and 68 M with this function.
///
/// Like any function of the connection, it is never used in the schema (it is registered
/// `SQLITE_DIRECTONLY`), so the file stays readable by other SQLite tools.
///
/// ```swift
/// let matched: Int? = try db.scalar(
///     "SELECT catalogue_in_matches(?, 'product_fts', ?)", [42, "\"lamp\"*"])
/// ```
public enum FullTextMembership {
    /// The function's name in SQL.
    public static let functionName = "catalogue_in_matches"

    /// Registers ``functionName`` on a raw `sqlite3` connection handle, for a tool that runs the
    /// library's SQL on a handle of its own. Returns SQLite's result code.
    ///
    /// ```swift
    /// let code = FullTextMembership.register(on: handle)  // SQLITE_OK
    /// ```
    @discardableResult
    public static func register(on handle: OpaquePointer) -> Int32 {
        sqlite3_create_function_v2(
            handle, functionName, 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, nil,
            { context, _, values in
                guard let context, let values else { return }
                FullTextMembership.answer(context, id: values[0], table: values[1], pattern: values[2])
            },
            nil, nil, nil)
    }

    /// Index of the pattern among the function's arguments: its auxiliary data is the
    /// collected matches.
    private static let patternArgument: Int32 = 2

    private static func answer(_ context: OpaquePointer, id: OpaquePointer?, table: OpaquePointer?, pattern: OpaquePointer?) {
        guard sqlite3_value_type(id) != SQLITE_NULL else {
            sqlite3_result_null(context)
            return
        }
        let matches: CollectedMatches
        if let kept = sqlite3_get_auxdata(context, patternArgument) {
            matches = Unmanaged<CollectedMatches>.fromOpaque(kept).takeUnretainedValue()
        } else {
            guard let collected = collect(context, table: table, pattern: pattern) else { return }
            matches = collected
            // SQLite owns the retained reference from here on, and may release it at once
            // (then the next row collects again); `matches` stays alive for this row.
            sqlite3_set_auxdata(context, patternArgument, Unmanaged.passRetained(collected).toOpaque()) { kept in
                if let kept { Unmanaged<CollectedMatches>.fromOpaque(kept).release() }
            }
        }
        sqlite3_result_int(context, matches.contains(sqlite3_value_int64(id)) ? 1 : 0)
    }

    /// The rowids `table` matches for `pattern`, in ascending order, read on the connection
    /// running the statement (so in its transaction); nil, with the call's result set to the
    /// error, when the table name is not a plain identifier or the query fails.
    private static func collect(_ context: OpaquePointer, table: OpaquePointer?, pattern: OpaquePointer?) -> CollectedMatches? {
        guard let name = sqlite3_value_text(table).map({ String(cString: $0) }), isPlainIdentifier(name) else {
            sqlite3_result_error(context, "\(functionName): the second argument must name an FTS5 table", -1)
            return nil
        }
        guard let db = sqlite3_context_db_handle(context) else { return nil }
        let sql = "SELECT rowid FROM \"\(name)\" WHERE \"\(name)\" MATCH ?1 ORDER BY rowid"
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v3(db, sql, -1, 0, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var ids: [Int64] = []
        if code == SQLITE_OK, let statement {
            sqlite3_bind_value(statement, 1, pattern)
            code = sqlite3_step(statement)
            while code == SQLITE_ROW {
                ids.append(sqlite3_column_int64(statement, 0))
                code = sqlite3_step(statement)
            }
        }
        guard code == SQLITE_DONE else {
            sqlite3_result_error(context, sqlite3_errmsg(db), -1)
            sqlite3_result_error_code(context, code == SQLITE_OK ? SQLITE_ERROR : code)
            return nil
        }
        return CollectedMatches(ids)
    }

    /// Whether the function takes `name` as its table: letters, digits and underscores, not
    /// starting with a digit (quoted as an identifier without escaping). The catalogue's FTS5
    /// tables are named so.
    ///
    /// ```swift
    /// FullTextMembership.isPlainIdentifier("product_fts")  // true
    /// FullTextMembership.isPlainIdentifier("main.x")       // false
    /// ```
    public static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}

/// The matches of one call site of ``FullTextMembership``, ascending.
private final class CollectedMatches {
    let ids: [Int64]

    init(_ ids: [Int64]) {
        self.ids = ids
    }

    /// Binary search.
    func contains(_ id: Int64) -> Bool {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id
    }
}

extension Connection {
    /// Registers ``FullTextMembership/functionName`` on this connection.
    ///
    /// ```swift
    /// try db.registerFullTextMembership()
    /// let matched: Int? = try db.scalar("SELECT catalogue_in_matches(?, 'product_fts', ?)", [42, "\"lamp\"*"])
    /// ```
    public func registerFullTextMembership() throws {
        let code = FullTextMembership.register(on: handle)
        guard code == SQLITE_OK else { throw makeError(code: code, sql: nil) }
    }
}
