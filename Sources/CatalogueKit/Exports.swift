// CatalogueKit's API uses the database layer's types (Connection, DatabaseError, Row, …);
// re-export them so `import CatalogueKit` is all an app needs.
@_exported import SQLiteStore
