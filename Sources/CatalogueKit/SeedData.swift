import Foundation

/// The built-in seed: every country and territory (from `seed/countries.json`) and sample
/// products (from `seed/products.json`), loaded once into a new catalogue.
public enum SeedData {
    /// The seed's countries.
    public static func countries() throws -> [Country] {
        try decode([Country].self, from: "countries.json")
    }

    /// The seed's products.
    public static func products() throws -> [Product] {
        try decode([Product].self, from: "products.json")
    }

    /// Loads the seed unless this database was seeded before (recorded in `catalogue_info`),
    /// in one transaction. Deleting seeded rows later does not bring them back.
    static func seedIfNeeded(_ db: Connection) throws {
        let key = "seeded_at"
        let seeded: String? = try db.scalar("SELECT value FROM catalogue_info WHERE key = ?", [key])
        guard seeded == nil else { return }
        try db.transaction(.immediate) {
            // Checked again inside the transaction: another process may have seeded meanwhile.
            let seeded: String? = try db.scalar("SELECT value FROM catalogue_info WHERE key = ?", [key])
            guard seeded == nil else { return }
            try db.upsert(contentsOf: try countries())
            try db.upsert(contentsOf: try products())
            try db.execute(
                "INSERT INTO catalogue_info (key, value) VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", [key])
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from file: String) throws -> T {
        guard let text = CatalogueResources.seedFile(file) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "seed/" + file])
        }
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}
