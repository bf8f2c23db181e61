import CatalogueCore

/// A substring index over one folded key column: an external-content FTS5 table with the
/// `trigram` tokenizer, named `table_keycolumn_trigram` (`product_name_key_trigram`), kept in
/// sync by triggers, for each column in ``RecordSchema/substringIndexedColumns``.
///
/// The table indexes the key exactly as stored (`case_sensitive 1`: the key is already folded)
/// and keeps only which rows hold each trigram (`detail=none`: a third of the size, and only
/// the candidates are wanted), without each row's token count (`columnsize=0`: only ranking
/// reads it, and writing it was nearly half the cost of filling the index). A `CONTAINS[cd]`
/// text of three or more characters becomes the trigrams that cover it, `"cre" "me "` for
/// `crème`, and the rows holding all of them are the candidates, which `instr` then checks
/// exactly.
///
/// When the index pays: reading a candidate costs a row lookup (about 0.85 µs at 1,000,000
/// products), while the ordered scan of the key index costs about 0.065 µs a key and stops at
/// the page's last match: quickly when matches are spread over the alphabet, after most of the
/// table when they cluster at its end. So a connection counts the candidates first, through the
/// index and stopping after the limit of the work at hand (``Work``), and scans only above it.
/// The limits come from measurements at 1,000,000 products (BENCHMARKS.md, "Contains: index or
/// scan").
///
/// ```swift
/// SQLiteTrigramIndex.matchPattern(for: "lamp 20")  // "\"lam\" \"p 2\" \" 20\""
/// ```
public struct SQLiteTrigramIndex: Sendable, Hashable {
    /// The FTS5 table (`product_name_key_trigram`).
    public let table: String
    /// The indexed key column (`name_key`).
    public let keyColumn: String
    /// The record table's qualified id (`product.id`), the FTS5 table's rowid.
    public let qualifiedID: String

    /// What a statement does with the matches, which decides when the index pays.
    public enum Work: Sendable, Hashable {
        /// A page (a request with a fetch limit): the index up to ``pageCandidateLimit``
        /// candidates (about 17 ms at the limit); above it, matches are common and the ordered
        /// scan usually fills a page within a few thousand keys.
        case page
        /// Every match in order, or an exact count: the index up to
        /// ``everyMatchCandidateLimit`` candidates; above it, the scan of every key (about 50 ms
        /// at 1,000,000) costs less.
        case everyMatch
        /// A count that stops after a cap: always the index, which stops after the cap's
        /// candidates, in rowid order, where the scan would read keys until it found the cap's
        /// matches.
        case cappedCount
    }

    /// The most candidates for which a page reads the index.
    public static let pageCandidateLimit = 20_000
    /// The most candidates for which every match, or an exact count, reads the index.
    public static let everyMatchCandidateLimit = 75_000

    /// The most candidates for which `work` reads the index; nil when it always does.
    public static func candidateLimit(for work: Work) -> Int? {
        switch work {
        case .page: pageCandidateLimit
        case .everyMatch: everyMatchCandidateLimit
        case .cappedCount: nil
        }
    }

    /// The index of `keyColumn` in `schema`.
    public init(schema: RecordSchema, keyColumn: String) {
        table = "\(schema.table)_\(keyColumn)_trigram"
        self.keyColumn = keyColumn
        qualifiedID = schema.qualifiedID
    }

    /// The index for a qualified key column (`product.name_key`), when the schema has one.
    public static func index(forQualifiedKey qualifiedKey: String, in schema: RecordSchema) -> SQLiteTrigramIndex? {
        schema.substringIndexedKey(qualified: qualifiedKey).map { SQLiteTrigramIndex(schema: schema, keyColumn: $0) }
    }

    /// The FTS5 query for the rows holding every trigram of `needle`: trigrams from every third
    /// character and the last one, each a quoted string (so no character is FTS5 syntax),
    /// which together cover the text. Nil for texts under three characters (no trigram) or
    /// holding NUL.
    public static func matchPattern(for needle: String) -> String? {
        let scalars = Array(needle.unicodeScalars)
        guard scalars.count >= 3, !scalars.contains("\0") else { return nil }
        var starts = Array(stride(from: 0, to: scalars.count - 2, by: 3))
        if starts.last != scalars.count - 3 { starts.append(scalars.count - 3) }
        var seen: Set<String> = []
        var phrases: [String] = []
        for start in starts {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + 3])
            let text = String(trigram)
            guard seen.insert(text).inserted else { continue }
            phrases.append("\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        }
        return phrases.joined(separator: " ")
    }

    /// The statements that create the index, fill it from the table's rows and keep it in sync
    /// (as migrations `0004_trigram_contains` and `0009_trigram_without_sizes` do for
    /// products). Its options are written in single quotes, so that sqlite-utils and Datasette,
    /// which look for `content="table"`, find the word index and not this one. Rows with an
    /// empty key are not indexed: they hold no trigram, and a row another tool inserts gets its
    /// key from a later UPDATE, which indexes it whichever trigger SQLite fires first.
    public func creationSQL(recordTable: String) -> [String] {
        [
            """
            CREATE VIRTUAL TABLE \(table) USING fts5 (
                \(keyColumn), content='\(recordTable)', content_rowid='id',
                tokenize='trigram case_sensitive 1', detail=none, columnsize=0
            );
            """,
            "INSERT INTO \(table) (rowid, \(keyColumn)) SELECT id, \(keyColumn) FROM \(recordTable) WHERE \(keyColumn) <> '' ORDER BY id;",
            """
            CREATE TRIGGER \(table)_after_insert AFTER INSERT ON \(recordTable) WHEN new.\(keyColumn) <> '' BEGIN
                INSERT INTO \(table) (rowid, \(keyColumn)) VALUES (new.id, new.\(keyColumn));
            END;
            """,
            """
            CREATE TRIGGER \(table)_after_delete AFTER DELETE ON \(recordTable) WHEN old.\(keyColumn) <> '' BEGIN
                INSERT INTO \(table) (\(table), rowid, \(keyColumn)) VALUES ('delete', old.id, old.\(keyColumn));
            END;
            """,
            """
            CREATE TRIGGER \(table)_after_update AFTER UPDATE OF \(keyColumn) ON \(recordTable) BEGIN
                INSERT INTO \(table) (\(table), rowid, \(keyColumn))
                    SELECT 'delete', old.id, old.\(keyColumn) WHERE old.\(keyColumn) <> '';
                INSERT INTO \(table) (rowid, \(keyColumn)) SELECT new.id, new.\(keyColumn) WHERE new.\(keyColumn) <> '';
            END;
            """,
        ]
    }
}
