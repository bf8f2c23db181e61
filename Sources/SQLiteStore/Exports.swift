// SQLiteStore's API uses the engine-neutral value types (DatabaseValue, Migration, …);
// re-export them so `import SQLiteStore` is all a user of the database layer needs.
@_exported import DatabaseCore
