// CatalogueKit is the catalogue with its embedded default engine, SQLite: the engine-neutral
// core (records, fetch requests, search, sections, import and export), the SQLite engine, and
// the database layer's types (Connection, DatabaseError, Row, …), so `import CatalogueKit` is
// all an app needs. PostgreSQL is a separate product, CataloguePostgres.
@_exported import CatalogueCore
@_exported import CatalogueSQLite
@_exported import SQLiteStore
