import CatalogueCore
import Foundation
import SQLiteStore

extension Connection {
    /// The words of `schema`'s FTS5 index that start with `first`, in order, read through an
    /// `fts5vocab` table in this connection's `temp` schema (the database file is not changed):
    /// the range `term >= first AND term < successor` of the index's term list, remembered
    /// until the database changes (``Connection/remembered(_:_:)``). Empty for a
    /// schema without a full-text table.
    ///
    /// ```swift
    /// try db.fullTextVocabulary(of: Country.schema, startingWith: "c")  // ["cabo", "cairo", …]
    /// ```
    public func fullTextVocabulary(of schema: RecordSchema, startingWith first: String) throws -> [String] {
        guard let table = schema.fullTextTable, !first.isEmpty else { return [] }
        return try remembered("vocabulary \(table) \(first)") {
            let vocabulary = try fullTextVocabularyTable(of: table)
            let upper: DatabaseValue = FetchPredicate.prefixSuccessor(of: first).map { .text($0) } ?? .blob(Data([0xFF]))
            return try fetchAll(
                "SELECT term FROM temp.\"\(vocabulary)\" WHERE term >= ? AND term < ?",
                StatementArguments([.text(first), upper])
            ) { try $0.decode(String.self, at: 0) }
        }
    }
}
