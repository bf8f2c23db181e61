import Foundation

/// The migrations and seed data built into the library (from `migrations/*.sql` and `seed/*.json`
/// at build time, so an installed binary carries them).
///
/// ```swift
/// CatalogueResources.migrations.map(\.identifier)  // ["0001_initial"]
/// ```
public enum CatalogueResources {
    /// The schema migrations, in order.
    public static let migrations: [Migration] = {
        EmbeddedResources.files
            .filter { $0.path.hasPrefix("migrations/") }
            .map { file in
                // EmbedResourcesPlugin refuses a badly named migration file at build time, so
                // this cannot fail at run time.
                try! Migration(fileName: String(file.path.dropFirst("migrations/".count)), sql: file.contents)
            }
    }()

    /// The contents of the embedded seed file `name` (e.g. "countries.json").
    static func seedFile(_ name: String) -> String? {
        EmbeddedResources.files.first { $0.path == "seed/" + name }?.contents
    }
}
