import CatalogueKit
import Foundation

/// A products database of a given size, built once with CatalogueKit and kept on disk between
/// runs (under `.data/`, keyed by size and generator version).
struct BenchmarkData {
    static let generatorVersion = 1
    let size: Int
    let path: String
    /// Seconds CatalogueKit's batch upsert took to build it (nil when reused from disk).
    let buildSeconds: Double?

    static func prepare(size: Int, directory: URL) throws -> BenchmarkData {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("products-\(size)-v\(generatorVersion).sqlite").path
        if FileManager.default.fileExists(atPath: path) {
            // Opened for writing once, so that a file built by an earlier version gets the
            // current schema's migrations (the engines open it read-only).
            _ = try Catalogue(path: path, seed: false)
            return BenchmarkData(size: size, path: path, buildSeconds: nil)
        }
        let partial = path + ".partial"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
        let products = ProductGenerator.products(count: size)
        let seconds: Double
        do {
            let catalogue = try Catalogue(path: partial, seed: false)
            seconds = try time {
                try catalogue.write { db in _ = try db.upsert(contentsOf: products) }
            }
            try catalogue.sqlite!.database.inDatabase { db in
                try db.execute("ANALYZE")
                try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return BenchmarkData(size: size, path: path, buildSeconds: seconds)
    }
}
