import Foundation

/// The seed data built into the library (from `seed/*.json` at build time, so an installed
/// binary carries it). Each engine's module embeds its own migrations.
///
/// ```swift
/// CatalogueResources.seedFile("countries.json")?.isEmpty  // false
/// ```
public enum CatalogueResources {
    /// The contents of the embedded seed file `name` (e.g. "countries.json").
    public static func seedFile(_ name: String) -> String? {
        EmbeddedResources.files.first { $0.path == "seed/" + name }?.contents
    }
}
