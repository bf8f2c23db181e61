import CatalogueCore
import SQLiteStore
/// How a ``Catalogue`` treats its file.
///
/// ```swift
/// let reader = try Catalogue(path: path, access: .readOnly)   // never writes an existing file
/// ```
public enum CatalogueAccess: Sendable, Hashable {
    /// Create a missing catalogue; migrate an existing one; allow writes (unless this user
    /// cannot write the file, which then opens read-only).
    case readWrite
    /// Create a missing catalogue; open an existing one read-only, never migrating or writing
    /// it. A catalogue that needs a migration is refused with
    /// ``CatalogueError/needsMigration(path:migration:)``.
    case readOnly
}
