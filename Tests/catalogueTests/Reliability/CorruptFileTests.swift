import Foundation
import PostgresTestSupport
import Testing

/// A corrupt catalogue is never written to, and corruption met while reading is one short line
/// (issue 13, item 3).
@Suite("Corrupt files (the built binary)", .serialized)
struct CorruptFileTests {
    /// A catalogue made by the binary, checkpointed, with one byte of one page of the `country`
    /// table changed: `transform` gets the page's first byte offset and the file's bytes.
    static func corruptCatalogue(_ runner: CommandRunner, _ transform: (Int, inout Data) -> Void) throws -> String {
        try #require(try runner.run(["search", "x"]).status == 0)
        let path = runner.databasePath
        _ = try sqliteValue(path, "PRAGMA wal_checkpoint(TRUNCATE)")
        let page = try #require(Int(try sqliteValue(path, "SELECT max(pageno) FROM dbstat WHERE name = 'country'")))
        let pageSize = try #require(Int(try sqliteValue(path, "PRAGMA page_size")))
        var bytes = try #require(FileManager.default.contents(atPath: path))
        transform((page - 1) * pageSize, &bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("An import into a catalogue with a damaged country page is refused, and the file is unchanged")
    func importRefused() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            // The first cell pointer of a country leaf page now points outside the page.
            let path = try Self.corruptCatalogue(runner) { start, bytes in bytes[start + 8] ^= 0x40 }
            #expect(try sqliteValue(path, "PRAGMA quick_check") != "ok")
            let products = runner.directory.appendingPathComponent("products.csv").path
            try "name,type\nFine product,thing\n".write(toFile: products, atomically: true, encoding: .utf8)
            let countries = runner.directory.appendingPathComponent("countries.csv").path
            try "code,name\nXK,Kosovo\n".write(toFile: countries, atomically: true, encoding: .utf8)
            let bytes = try #require(FileManager.default.contents(atPath: path))
            for arguments in [["import", "products", products], ["import", "countries", countries]] {
                let result = try runner.run(arguments)
                #expect(result.status == 1, "\(result.standardOutput)")
                let lines = result.standardError.split(separator: "\n")
                #expect(lines.count == 1, "\(result.standardError)")
                #expect(result.standardError.hasPrefix("catalogue: error: \(path): database disk image is malformed ("), "\(result.standardError)")
                #expect(result.standardOutput.isEmpty)
                #expect(FileManager.default.contents(atPath: path) == bytes, "the import changed the corrupt file")
                let log = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
                #expect(log == nil || (log?[.size] as? Int) == 0, "the import wrote to the log")
            }
        }
    }

    @Test("Corruption met while reading: one short line naming the file, no SQL")
    func readReportsOneLine() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            // A country leaf page whose page type is no longer a b-tree page.
            let path = try Self.corruptCatalogue(runner) { start, bytes in bytes[start] = 0x0C }
            for arguments in [["search", "", "--limit", "0"], ["export", "countries"], ["browse"]] {
                let result = try runner.run(arguments)
                #expect(result.status == 1, "\(arguments)")
                #expect(result.standardError == "catalogue: error: \(path): database disk image is malformed\n", "\(arguments): \(result.standardError)")
            }
        }
    }
}
