import CSQLite

/// `catalogue_in_matches(id, 'table_fts', pattern)`: 1 when `id` is among the rowids the FTS5
/// table `table_fts` matches for `pattern`, 0 when not, NULL for a NULL id. Registered on a
/// connection by ``Connection/registerFullTextMembership()`` (the catalogue's connections all
/// have it), with the functions that collect a statement's matches once for several of its
/// parts (``collectFunctionName``, ``collectedCountFunctionName``) and that take the matches
/// an earlier statement of the same read transaction collected (``knownCountFunctionName``).
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
/// A statement that also counts the matches collects them once for the count and every check:
///
/// ```sql
/// WITH s AS MATERIALIZED (SELECT catalogue_collect_matches('product_fts', ?1) AS collected),
///      c AS MATERIALIZED (SELECT catalogue_collected_count(collected, 'product_fts', ?1) AS matches, collected FROM s)
/// SELECT … WHERE catalogue_in_matches(product.id, 'product_fts', ?1, (SELECT collected FROM c)) …
/// ```
///
/// Like any function of the connection, these are never used in the schema (they are
/// registered `SQLITE_DIRECTONLY`), so the file stays readable by other SQLite tools.
///
/// ```swift
/// let matched: Int? = try db.scalar(
///     "SELECT catalogue_in_matches(?, 'product_fts', ?)", [42, "\"lamp\"*"])
/// ```
public enum FullTextMembership {
    /// The membership function's name in SQL: `catalogue_in_matches(id, 'table_fts', pattern)`,
    /// and `catalogue_in_matches(id, 'table_fts', pattern, set)` to look rows up in the set
    /// numbered `set` by ``collectFunctionName`` (the same table and pattern; when the set is
    /// gone, it collects the matches itself).
    public static let functionName = "catalogue_in_matches"

    /// `catalogue_collect_matches('table_fts', pattern)`: collects the rowids `table_fts` matches
    /// for `pattern` and returns a number for them, new on the connection, which
    /// ``functionName``'s four-argument form and ``collectedCountFunctionName`` take. The set
    /// lives as long as the call's statement is not reset; called again in the same execution
    /// (the same literal or bound pattern), it returns the same number without collecting again.
    public static let collectFunctionName = "catalogue_collect_matches"

    /// `catalogue_collected_count(set, 'table_fts', pattern)`: how many rowids the set numbered
    /// `set` holds (``collectFunctionName``); when the set is gone, the matches counted again.
    public static let collectedCountFunctionName = "catalogue_collected_count"

    /// `catalogue_known_match_count('table_fts', pattern)`: how many rowids `table_fts` matches
    /// for `pattern` when a statement of the same read transaction
    /// (``Connection/readTransaction(_:)``) collected them, NULL when none did: a count that
    /// follows a page reads `coalesce(catalogue_known_match_count(…), <its own count>)`.
    public static let knownCountFunctionName = "catalogue_known_match_count"

    /// Registers ``functionName`` (both forms), ``collectFunctionName``,
    /// ``collectedCountFunctionName`` and ``knownCountFunctionName`` on a raw `sqlite3`
    /// connection handle, for a tool that runs the library's SQL on a handle of its own (there
    /// no read transaction shares its matches: ``knownCountFunctionName`` answers NULL, and
    /// counts read the index). Returns SQLite's result code.
    ///
    /// ```swift
    /// let code = FullTextMembership.register(on: handle)  // SQLITE_OK
    /// ```
    @discardableResult
    public static func register(on handle: OpaquePointer) -> Int32 {
        register(on: handle, sets: CollectedMatchSets())
    }

    /// Registers the functions with `sets` as their user data (a ``Connection`` keeps it, to
    /// share the sets within its read transactions).
    static func register(on handle: OpaquePointer, sets: CollectedMatchSets) -> Int32 {
        let functions: [(name: String, arguments: Int32, deterministic: Bool, call: Callback)] = [
            (functionName, 3, true, { context, _, values in
                guard let context, let values else { return }
                FullTextMembership.answer(context, id: values[0], table: values[1], pattern: values[2], set: nil)
            }),
            (functionName, 4, true, { context, _, values in
                guard let context, let values else { return }
                FullTextMembership.answer(context, id: values[0], table: values[1], pattern: values[2], set: values[3])
            }),
            (collectFunctionName, 2, false, { context, _, values in
                guard let context, let values else { return }
                FullTextMembership.collectSet(context, table: values[0], pattern: values[1])
            }),
            (collectedCountFunctionName, 3, false, { context, _, values in
                guard let context, let values else { return }
                FullTextMembership.count(context, set: values[0], table: values[1], pattern: values[2])
            }),
            (knownCountFunctionName, 2, false, { context, _, values in
                guard let context, let values else { return }
                FullTextMembership.knownCount(context, table: values[0], pattern: values[1])
            }),
        ]
        for function in functions {
            // Each registration holds a reference to the sets, which SQLite gives back when it
            // drops the function (with the connection), or at once when the registration fails.
            let flags = SQLITE_UTF8 | SQLITE_DIRECTONLY | (function.deterministic ? SQLITE_DETERMINISTIC : 0)
            let code = sqlite3_create_function_v2(
                handle, function.name, function.arguments, flags, sets.retainedPointer(), function.call, nil, nil,
                { CollectedMatchSets.release($0) })
            guard code == SQLITE_OK else { return code }
        }
        return SQLITE_OK
    }

    /// A scalar function's implementation, as SQLite calls it.
    private typealias Callback = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

    /// Index of the pattern among ``functionName``'s arguments: its auxiliary data is the
    /// collected matches.
    private static let membershipPatternArgument: Int32 = 2
    /// Index of the pattern among ``collectFunctionName``'s arguments: its auxiliary data is the
    /// set it collected.
    private static let collectPatternArgument: Int32 = 1

    private static func answer(
        _ context: OpaquePointer, id: OpaquePointer?, table: OpaquePointer?, pattern: OpaquePointer?, set: OpaquePointer?
    ) {
        guard sqlite3_value_type(id) != SQLITE_NULL else {
            sqlite3_result_null(context)
            return
        }
        let id = sqlite3_value_int64(id)
        if let kept = sqlite3_get_auxdata(context, membershipPatternArgument) {
            // The call of every row but the first: the auxiliary data holds the set, so it is
            // read without a retain and release of its own (the set is referenced weakly, so
            // each of those would take the runtime's slow path).
            let found = Unmanaged<CollectedMatches>.fromOpaque(kept)._withUnsafeGuaranteedRef { $0.contains(id) }
            sqlite3_result_int(context, found ? 1 : 0)
            return
        }
        guard let name = tableName(context, table, of: functionName) else { return }
        let matches: CollectedMatches
        if let set, sqlite3_value_type(set) == SQLITE_INTEGER, let userData = sqlite3_user_data(context),
           let collected = CollectedMatchSets.from(userData).matches(
               sqlite3_value_int64(set), table: name, pattern: text(of: pattern)) {
            matches = collected
        } else {
            guard let collected = collect(context, table: name, pattern: pattern) else { return }
            matches = collected
        }
        // SQLite owns the retained reference from here on, and may release it at once
        // (then the next row collects again); `matches` stays alive for this row.
        sqlite3_set_auxdata(context, membershipPatternArgument, Unmanaged.passRetained(matches).toOpaque()) { kept in
            if let kept { Unmanaged<CollectedMatches>.fromOpaque(kept).release() }
        }
        sqlite3_result_int(context, matches.contains(id) ? 1 : 0)
    }

    private static func collectSet(_ context: OpaquePointer, table: OpaquePointer?, pattern: OpaquePointer?) {
        guard let name = tableName(context, table, of: collectFunctionName), let userData = sqlite3_user_data(context) else { return }
        let sets = CollectedMatchSets.from(userData)
        let patternText = text(of: pattern)
        if let kept = sqlite3_get_auxdata(context, collectPatternArgument) {
            let matches = Unmanaged<CollectedMatches>.fromOpaque(kept).takeUnretainedValue()
            if sets.matches(matches.setID, table: name, pattern: patternText) === matches {
                sqlite3_result_int64(context, matches.setID)
                return
            }
        }
        guard let matches = collect(context, table: name, pattern: pattern) else { return }
        let id = sets.add(matches, table: name, pattern: patternText)
        // The call's auxiliary data keeps the set alive until the statement is reset; the sets
        // hold it weakly.
        sqlite3_set_auxdata(context, collectPatternArgument, Unmanaged.passRetained(matches).toOpaque()) { kept in
            if let kept { Unmanaged<CollectedMatches>.fromOpaque(kept).release() }
        }
        sqlite3_result_int64(context, id)
    }

    private static func count(_ context: OpaquePointer, set: OpaquePointer?, table: OpaquePointer?, pattern: OpaquePointer?) {
        guard let name = tableName(context, table, of: collectedCountFunctionName), let userData = sqlite3_user_data(context) else { return }
        if sqlite3_value_type(set) == SQLITE_INTEGER,
           let matches = CollectedMatchSets.from(userData).matches(sqlite3_value_int64(set), table: name, pattern: text(of: pattern)) {
            sqlite3_result_int64(context, Int64(matches.ids.count))
        } else if let matches = collect(context, table: name, pattern: pattern) {
            sqlite3_result_int64(context, Int64(matches.ids.count))
        }
    }

    private static func knownCount(_ context: OpaquePointer, table: OpaquePointer?, pattern: OpaquePointer?) {
        guard let name = tableName(context, table, of: knownCountFunctionName) else { return }
        guard let userData = sqlite3_user_data(context), let db = sqlite3_context_db_handle(context),
              let matches = CollectedMatchSets.from(userData).shared(
                  table: name, pattern: text(of: pattern), changes: sqlite3_total_changes64(db))
        else {
            sqlite3_result_null(context)
            return
        }
        sqlite3_result_int64(context, Int64(matches.ids.count))
    }

    /// The table argument of `function`, when it is a plain identifier; nil, with the call's
    /// result set to an error, when not.
    private static func tableName(_ context: OpaquePointer, _ table: OpaquePointer?, of function: String) -> String? {
        guard let name = text(of: table), isPlainIdentifier(name) else {
            sqlite3_result_error(context, "\(function): the table argument must name an FTS5 table", -1)
            return nil
        }
        return name
    }

    private static func text(of value: OpaquePointer?) -> String? {
        sqlite3_value_text(value).map { String(cString: $0) }
    }

    /// The rowids `table` matches for `pattern`, in ascending order, read on the connection
    /// running the statement (so in its transaction), or taken from a statement of the same
    /// read transaction that read them (``CollectedMatchSets/shared(table:pattern:changes:)``);
    /// nil, with the call's result set to the error, when the query fails.
    private static func collect(_ context: OpaquePointer, table name: String, pattern: OpaquePointer?) -> CollectedMatches? {
        guard let db = sqlite3_context_db_handle(context) else { return nil }
        let sets = sqlite3_user_data(context).map(CollectedMatchSets.from)
        let patternText = text(of: pattern)
        let changes = sqlite3_total_changes64(db)
        if let shared = sets?.shared(table: name, pattern: patternText, changes: changes) { return shared }
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
        let matches = CollectedMatches(ids)
        sets?.share(matches, table: name, pattern: patternText, changes: changes)
        return matches
    }

    /// Whether the functions take `name` as their table: letters, digits and underscores, not
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

extension Connection {
    /// Registers ``FullTextMembership``'s functions on this connection; within its read
    /// transactions (``readTransaction(_:)``), the matches one statement collected are taken by
    /// the next (``FullTextMembership/knownCountFunctionName``).
    ///
    /// ```swift
    /// try db.registerFullTextMembership()
    /// let matched: Int? = try db.scalar("SELECT catalogue_in_matches(?, 'product_fts', ?)", [42, "\"lamp\"*"])
    /// ```
    public func registerFullTextMembership() throws {
        let sets = CollectedMatchSets()
        let code = FullTextMembership.register(on: handle, sets: sets)
        guard code == SQLITE_OK else { throw makeError(code: code, sql: nil) }
        fullTextMatchSets = sets
    }
}
