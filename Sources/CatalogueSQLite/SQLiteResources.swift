import SQLiteStore

/// The catalogue's SQLite migrations, embedded at build time from `migrations/*.sql`, so an
/// installed binary carries its schema.
///
/// ```swift
/// SQLiteResources.migrations.map(\.identifier)  // ["0001_initial"]
/// ```
public enum SQLiteResources {
    /// The schema migrations, in order.
    public static let migrations: [Migration] = {
        EmbeddedResources.files
            .filter { $0.path.hasPrefix("migrations/") }
            .map { file in
                // EmbedResourcesPlugin refuses a badly named migration file at build time and
                // hashes every file it embeds, so this cannot fail at run time.
                try! Migration(
                    fileName: String(file.path.dropFirst("migrations/".count)), sql: file.contents,
                    checksum: EmbeddedResources.sha256[file.path]!)
            }
    }()
}
