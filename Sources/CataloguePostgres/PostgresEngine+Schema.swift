#if PostgreSQL
import CatalogueCore

/// The schema that holds a catalogue: the first schema of the session's `search_path` that
/// exists (`public` by default; another with `options=-c search_path=shop` in the URL, or the
/// role's or database's own setting), so that one database can hold several catalogues.
///
/// ```swift
/// let catalogue = try Catalogue.connect(to: "postgres://app@db/shared?options=-c%20search_path%3Dshop")
/// catalogue.postgres?.schema  // "shop"
/// ```
extension PostgresEngine {
    /// The schema the catalogue's tables are in (or will be made in); throws
    /// ``PostgresEngineError/unusable(target:reason:)`` when no schema of `search_path` exists,
    /// saying how to make one, before anything is written.
    static func catalogueSchema(_ runner: PostgresStatementRunner, target: String) throws -> String {
        let sql = "SELECT current_schema(), current_setting('search_path')"
        guard let row = try runner.rows(SQLFragment(sql)).first else {
            throw PostgresEngineError.unusable(target: target, reason: "the server did not say its schema")
        }
        let cells = PostgresRecordRow(row, sql: sql)
        guard let schema = try cells.decodeOptionalText(at: 0) else {
            let path = try cells.decodeText(at: 1)
            throw PostgresEngineError.unusable(
                target: target,
                reason: "no schema of the search_path (\(path.isEmpty ? "empty" : path)) exists; create the catalogue's (CREATE SCHEMA name) or choose one that exists (options=-c search_path=name)")
        }
        return schema
    }
}
#endif
