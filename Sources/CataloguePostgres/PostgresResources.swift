#if PostgreSQL
import CatalogueCore

/// The catalogue's PostgreSQL migrations, embedded at build time from `migrations/postgres/*.sql`.
///
/// ```swift
/// PostgresResources.migrations.map(\.identifier).last  // "0006_notify_schema"
/// ```
public enum PostgresResources {
    /// The schema migrations, in file order.
    public static let migrations: [Migration] = EmbeddedResources.files
        .filter { $0.path.hasPrefix("migrations/postgres/") }
        .map { file in
            // EmbedResourcesPlugin refuses a badly named migration file at build time and hashes
            // every file it embeds.
            try! Migration(
                fileName: String(file.path.dropFirst("migrations/postgres/".count)), sql: file.contents,
                checksum: EmbeddedResources.sha256[file.path]!)
        }
}
#endif
