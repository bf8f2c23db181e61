// The engine-neutral value types (DatabaseValue, DatabaseRow, Migration) are part of
// CatalogueCore's API: re-export them.
@_exported import DatabaseCore
