import Foundation

/// The built-in seed: every country and territory (from `seed/countries.json`) and sample
/// products (from `seed/products.json`), loaded once, when a catalogue is created.
public enum SeedData {
    /// The seed's countries.
    public static func countries() throws -> [Country] {
        try decode([Country].self, from: "countries.json")
    }

    /// The seed's products.
    public static func products() throws -> [Product] {
        try decode([Product].self, from: "products.json")
    }

    /// Loads the seed into a new catalogue, in one transaction, and records when in
    /// `catalogue_info` (`seeded_at`). Only the creation of a catalogue calls it: an existing one
    /// is never seeded again, so deleted or edited seed rows stay as the user left them.
    static func load(into db: Connection) throws {
        try db.transaction(.immediate) {
            try db.upsert(contentsOf: try countries())
            try db.upsert(contentsOf: try products())
            try db.execute(
                "INSERT OR REPLACE INTO catalogue_info (key, value) VALUES ('seeded_at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from file: String) throws -> T {
        guard let text = CatalogueResources.seedFile(file) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "seed/" + file])
        }
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}
