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

    private static func decode<T: Decodable>(_ type: T.Type, from file: String) throws -> T {
        guard let text = CatalogueResources.seedFile(file) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "seed/" + file])
        }
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}
