import CatalogueCore

/// A substring index over ranges of a folded key column's order: which run of about 64
/// consecutive keys holds each trigram. A `CONTAINS[cd]` page in key order reads only the runs
/// that can hold a match, in order, and stops at the page: a few hundred keys read, where the
/// ordered scan reads every key before the page's last match and the per-row trigram index
/// (``SQLiteTrigramIndex``) looks up and sorts every candidate.
///
/// Two tables per key column, named after it (`product_name_key_range`, and
/// `product_name_key_range_trigram`):
/// - the ranges, `(id, first_key, appended)`: a range holds the keys from its `first_key` up to
///   the next range's. Ids grow with `first_key` and leave room between them
///   (``idSpacing``), so a range can be split in place. The first range starts at `''`.
/// - an FTS5 table (`trigram` tokenizer, `detail=none`) whose documents hold keys, each
///   followed by a newline, and one more newline at the end (``document(of:)``). Its rowid is
///   `range id << 32 | sequence`: sequence 0 holds the keys the range was built with, and each
///   key written since (a trigger) is a document of its own, numbered by the range's `appended`
///   count. FTS5 returns rowids in order, so the ranges that hold every trigram of a text come
///   in key order.
/// - an `fts5vocab` table of that index's trigrams (`product_name_key_range_terms`). The
///   newlines make every character of a key the first of a trigram, so the ranges holding a
///   text of one or two characters are those holding a trigram that starts with it: this
///   table lists them (``matchPattern(forShortText:terms:)``).
///
/// A deleted or renamed key stays in its range's documents until the range is rebuilt: that
/// only makes a range read for nothing, never hides a match. CatalogueKit rebuilds a range
/// once ``keysPerRange`` keys have been added to it (at the end of its write transactions),
/// and the whole index after an import that adds many rows.
///
/// ```swift
/// let ranges = SQLiteKeyRangeIndex(schema: Product.schema, keyColumn: "name_key")
/// ranges.rangeTable    // "product_name_key_range"
/// ranges.trigramTable  // "product_name_key_range_trigram"
/// ranges.termTable     // "product_name_key_range_terms"
/// ```
public struct SQLiteKeyRangeIndex: Sendable, Hashable {
    /// The ranges (`product_name_key_range`).
    public let rangeTable: String
    /// The FTS5 table of the ranges' keys (`product_name_key_range_trigram`).
    public let trigramTable: String
    /// The `fts5vocab` table of its trigrams (`product_name_key_range_terms`), one row per
    /// trigram.
    public let termTable: String
    /// The record table (`product`).
    public let recordTable: String
    /// The indexed key column (`name_key`).
    public let keyColumn: String

    /// How many keys a range holds when it is built (a range never splits a run of equal keys).
    public static let keysPerRange = 64
    /// The gap between the ids of neighbouring ranges when the index is built: room to split a
    /// range into as many as 256 without renumbering.
    public static let idSpacing: Int64 = 256
    /// Range ids stay below this, so that `id << 32 | sequence` is a positive 64-bit rowid.
    public static let idLimit: Int64 = 1 << 31

    /// The index of `keyColumn` in `schema`.
    public init(schema: RecordSchema, keyColumn: String) {
        self.init(recordTable: schema.table, keyColumn: keyColumn)
    }

    /// The index of `keyColumn` in `recordTable`.
    init(recordTable: String, keyColumn: String) {
        self.recordTable = recordTable
        self.keyColumn = keyColumn
        rangeTable = "\(recordTable)_\(keyColumn)_range"
        trigramTable = "\(rangeTable)_trigram"
        termTable = "\(rangeTable)_terms"
    }

    /// The name of the trigger that adds inserted keys (`product_name_key_range_after_insert`):
    /// `table_key` and this suffix, which is how a connection finds the indexes of a database.
    static let insertTriggerSuffix = "_range_after_insert"

    /// The index for a qualified key column (`product.name_key`), when the schema has one.
    public static func index(forQualifiedKey qualifiedKey: String, in schema: RecordSchema) -> SQLiteKeyRangeIndex? {
        schema.substringIndexedKey(qualified: qualifiedKey).map { SQLiteKeyRangeIndex(schema: schema, keyColumn: $0) }
    }

    /// The ranges holding every trigram of a pattern (bound as `?1`), in key order, from the
    /// range whose id is bound as `?2` on: one row per document, its range id (`rowid >> 32`),
    /// so a range may come several times in a row.
    public var matchingRangesSQL: String {
        "SELECT rowid >> 32 FROM \(trigramTable) WHERE \(trigramTable) MATCH ?1 AND rowid >= ?2 << 32 ORDER BY rowid"
    }

    /// The trigrams of the index that start with a text of one or two characters: bind the
    /// text and ``shortTextTermBound(_:)``. Rows in the order FTS5 keeps its terms (bytewise).
    ///
    /// ```swift
    /// let terms = try db.fetchAll(ranges.shortTextTermsSQL, ["mo", SQLiteKeyRangeIndex.shortTextTermBound("mo")]) {
    ///     $0.statement.string(at: 0)
    /// }                                  // ["mon", "mor"] at 1,000,000 products
    /// ```
    public var shortTextTermsSQL: String {
        "SELECT term FROM \(termTable) WHERE term >= ?1 AND term <= ?2"
    }

    /// The greatest trigram starting with `text` (one or two characters): the text followed by
    /// U+10FFFF until it is three characters long.
    ///
    /// ```swift
    /// SQLiteKeyRangeIndex.shortTextTermBound("mo")  // "mo\u{10FFFF}"
    /// ```
    public static func shortTextTermBound(_ text: String) -> String {
        var bound = String.UnicodeScalarView(text.unicodeScalars)
        while bound.count < 3 { bound.append("\u{10FFFF}") }
        return String(bound)
    }

    /// The id and first key of the range at a position in key order (bound, from 0).
    ///
    /// ```swift
    /// let end = try db.fetchOne(ranges.rangeAtPositionSQL, [32]) { ($0.statement.int64(at: 0), $0.statement.string(at: 1)) }
    /// ```
    public var rangeAtPositionSQL: String {
        "SELECT id, first_key FROM \(rangeTable) ORDER BY id LIMIT 1 OFFSET ?"
    }

    /// A document of the trigram table: each key followed by a newline, then one more newline,
    /// so that each character of a key starts a trigram (two follow it at the latest).
    ///
    /// ```swift
    /// SQLiteKeyRangeIndex.document(of: ["mo", "q"])  // "mo\nq\n\n"
    /// ```
    public static func document(of keys: [String]) -> String {
        var document = ""
        for key in keys {
            document += key
            document += "\n"
        }
        return document + "\n"
    }

    /// ``document(of:)`` in SQL, for a key expression.
    static func documentSQL(ofKey key: String) -> String {
        "\(key) || char(10, 10)"
    }

    /// ``document(of:)`` in SQL, for the keys of a group, in the group's order.
    static func documentSQL(ofKeysIn key: String) -> String {
        "group_concat(\(key) || char(10), '') || char(10)"
    }

    /// A range's first key, and the next range's id and first key (NULL after the last range),
    /// for the range id bound as `?1`.
    public var boundsSQL: String {
        """
        SELECT \(rangeTable).first_key, next.id, next.first_key FROM \(rangeTable)
        LEFT JOIN (SELECT id, first_key FROM \(rangeTable) WHERE id > ?1 ORDER BY id LIMIT 1) AS next
        WHERE \(rangeTable).id = ?1
        """
    }

    /// The statements that create the index, fill it from the table's rows and keep it in sync
    /// (as migrations `0006_contains_key_ranges` and `0007_short_contains_key_ranges` do for
    /// products).
    public func creationSQL() -> [String] {
        [
            """
            CREATE TABLE \(rangeTable) (
                id INTEGER PRIMARY KEY,
                first_key TEXT NOT NULL UNIQUE,
                appended INTEGER NOT NULL DEFAULT 0
            );
            """,
            "CREATE INDEX \(rangeTable)_grown ON \(rangeTable) (id) WHERE appended >= \(Self.keysPerRange);",
            trigramTableSQL,
            termTableSQL,
        ] + fillSQL + triggerSQL
    }

    /// The `fts5vocab` table over the trigram table, which finds it by name when read (it stays
    /// valid when the trigram table is dropped and created again).
    var termTableSQL: String {
        "CREATE VIRTUAL TABLE \(termTable) USING fts5vocab(\(trigramTable), row);"
    }

    /// The FTS5 table: options in single quotes, no `content=` (its documents are its own), so
    /// that tools looking for the record's word index do not take it for one.
    var trigramTableSQL: String {
        "CREATE VIRTUAL TABLE \(trigramTable) USING fts5 (keys, tokenize='trigram case_sensitive 1', detail=none);"
    }

    /// Fills the empty index from the table's keys: a range starts at every ``keysPerRange``th
    /// key in key order (unless it repeats the key before it), the first at `''`; each range's
    /// keys become its document 0. About 2.3 s at 1,000,000 products.
    var fillSQL: [String] {
        [
            """
            WITH ordered AS (
                SELECT \(keyColumn) AS key, row_number() OVER win - 1 AS position, lag(\(keyColumn)) OVER win AS previous
                FROM \(recordTable) WHERE \(keyColumn) <> '' WINDOW win AS (ORDER BY \(keyColumn))
            )
            INSERT INTO \(rangeTable) (id, first_key)
            SELECT (position / \(Self.keysPerRange)) * \(Self.idSpacing), CASE WHEN position = 0 THEN '' ELSE key END
            FROM ordered WHERE position % \(Self.keysPerRange) = 0 AND (position = 0 OR key IS NOT previous);
            """,
            "INSERT OR IGNORE INTO \(rangeTable) (id, first_key) VALUES (0, '');",
            """
            INSERT INTO \(trigramTable) (rowid, keys)
            SELECT range_id << 32, \(Self.documentSQL(ofKeysIn: "key")) FROM (
                SELECT \(keyColumn) AS key, (\(rangeLookup("\(recordTable).\(keyColumn)"))) AS range_id
                FROM \(recordTable) WHERE \(keyColumn) <> ''
            ) GROUP BY range_id;
            """,
        ]
    }

    /// A subquery for the id of the range that holds `key`.
    func rangeLookup(_ key: String) -> String {
        "SELECT id FROM \(rangeTable) WHERE first_key <= \(key) ORDER BY first_key DESC LIMIT 1"
    }

    /// The triggers: a key inserted, or changed, is added to its range as a document of its own.
    /// Deletes leave the range alone (see the type's notes).
    var triggerSQL: [String] {
        func add(_ key: String) -> String {
            """
                UPDATE \(rangeTable) SET appended = appended + 1 WHERE id = (\(rangeLookup(key)));
                INSERT INTO \(trigramTable) (rowid, keys)
                    SELECT (id << 32) | appended, \(Self.documentSQL(ofKey: key)) FROM \(rangeTable) WHERE first_key <= \(key) ORDER BY first_key DESC LIMIT 1;
            """
        }
        return [
            """
            CREATE TRIGGER \(recordTable)_\(keyColumn)\(Self.insertTriggerSuffix) AFTER INSERT ON \(recordTable) WHEN new.\(keyColumn) <> '' BEGIN
            \(add("new.\(keyColumn)"))
            END;
            """,
            """
            CREATE TRIGGER \(rangeTable)_after_update AFTER UPDATE OF \(keyColumn) ON \(recordTable)
            WHEN new.\(keyColumn) <> '' AND new.\(keyColumn) IS NOT old.\(keyColumn) BEGIN
            \(add("new.\(keyColumn)"))
            END;
            """,
        ]
    }

    /// The FTS5 query for the ranges holding every trigram of each text: each text's pattern
    /// (``SQLiteTrigramIndex/matchPattern(for:)``), joined by FTS5's implicit AND. Nil when a
    /// text has no trigram.
    ///
    /// ```swift
    /// SQLiteKeyRangeIndex.matchPattern(for: ["pât", "sol"])  // "\"pât\" \"sol\""
    /// ```
    public static func matchPattern(for needles: [String]) -> String? {
        var patterns: [String] = []
        for needle in needles {
            guard let pattern = SQLiteTrigramIndex.matchPattern(for: needle) else { return nil }
            patterns.append(pattern)
        }
        return patterns.isEmpty ? nil : patterns.joined(separator: " ")
    }

    /// The FTS5 query for the ranges holding a text of one or two characters, given the
    /// trigrams of the index that start with it (``shortTextTermsSQL``): any of them, each a
    /// quoted string. Nil when there is none: then no key holds the text.
    ///
    /// ```swift
    /// SQLiteKeyRangeIndex.matchPattern(forShortText: "mo", terms: ["mon", "mor"])  // "(\"mon\" OR \"mor\")"
    /// ```
    public static func matchPattern(forShortText text: String, terms: [String]) -> String? {
        let quoted = terms
            .filter { $0.utf8.starts(with: text.utf8) && $0.unicodeScalars.count == 3 }
            .map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return quoted.isEmpty ? nil : "(" + quoted.joined(separator: " OR ") + ")"
    }

    /// Whether `text` is served by the trigrams that start with it: one or two characters,
    /// no NUL.
    ///
    /// ```swift
    /// SQLiteKeyRangeIndex.isShortText("mo")   // true
    /// SQLiteKeyRangeIndex.isShortText("mon")  // false: it has a trigram of its own
    /// ```
    public static func isShortText(_ text: String) -> Bool {
        (1...2).contains(text.unicodeScalars.count) && !text.unicodeScalars.contains("\0")
    }
}
