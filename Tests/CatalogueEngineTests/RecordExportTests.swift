import CatalogueKit
import Testing

/// ``RecordExporter`` reads its rows in batches (`WHERE id > last … LIMIT n`): whatever the batch
/// size, the same bytes, on every engine.
@Suite("Record export in batches")
struct RecordExportTests {
    /// What the exporter writes for `type` in `format` with batches of `batchSize` rows.
    func exported<R: ImportableRecord>(
        _ type: R.Type, _ catalogue: Catalogue, format: RecordFileFormat, batchSize: Int
    ) throws -> (bytes: [UInt8], count: Int) {
        var bytes: [UInt8] = []
        let output = ExportOutput(bufferSize: 100) { bytes += $0 }
        let count = try catalogue.read { db in try RecordExporter<R>(format: format, batchSize: batchSize).export(from: db, to: output) }
        try output.flush()
        return (bytes, count)
    }

    @Test("Batches of 1, 7, 74 (products' count) and the default: the same bytes and count", arguments: EngineUnderTest.all)
    func batchSizes(engine: EngineUnderTest) throws {
        let catalogue = try engine.makeCatalogue()
        let productCount = try catalogue.fetchCount(FetchRequest<Product>())
        for format in RecordFileFormat.allCases {
            let whole = try exported(Product.self, catalogue, format: format, batchSize: 10_000)
            #expect(whole.count == productCount)
            for size in [1, 7, productCount] {
                let batched = try exported(Product.self, catalogue, format: format, batchSize: size)
                #expect(batched.count == whole.count, "\(format), \(size)")
                #expect(batched.bytes == whole.bytes, "\(format), batches of \(size)")
            }
            // Countries are exported without their id column, and still batched by id.
            let countries = try exported(Country.self, catalogue, format: format, batchSize: 10_000)
            #expect(try exported(Country.self, catalogue, format: format, batchSize: 9).bytes == countries.bytes, "\(format)")
        }
    }
}
