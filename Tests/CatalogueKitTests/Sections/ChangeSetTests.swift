@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite
import CatalogueTestSupport
import Foundation
import Testing

/// Change sets from writes by SQLite's own shell (another process, another tool). (The
/// engine-neutral change-set tests, on SQLite and PostgreSQL, are in
/// CatalogueEngineTests/ChangeSetTests.)
@Suite("Change sets (SQLite shell)", .serialized)
struct ChangeSetTests {
    /// First letters: ASCII, letters whose section comes from folding (É under E, Å under A),
    /// letters that fold to themselves (Ø, ß: under #), a decomposed É, digits and punctuation.
    static let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0'").map(String.init)
        + ["É", "Å", "Ç", "Ø", "ß", "Œ", "ñ", "e\u{301}", "İ", "ǅ"]
    /// The other letters of a name, with diacritics that sort apart byte-wise.
    static let rest = Array("abcdefghijklmnopqrstuvwxyz").map(String.init) + ["é", "ü", "ø", "ç", "ß"]

    static func randomName(_ random: inout SplitMix64) -> String {
        let first = letters[Int(random.next() % UInt64(letters.count))]
        let others = (0..<3).map { _ in rest[Int(random.next() % UInt64(rest.count))] }.joined()
        return first + others + " \(random.next() % 100_000)"
    }

    /// The arrangement a controller over every product by name must show, computed in Swift
    /// from the rows alone: folded name, name (both byte-wise) and id; sections by the first
    /// letter A–Z of the folded name, `#` last.
    static func expectedArrangement(_ catalogue: Catalogue) throws -> [[Int64]] {
        let rows = try catalogue.database.read { db in
            try db.fetchAll("SELECT id, name FROM product") { (id: try $0.decode(Int64.self, at: 0), name: try $0.decode(String.self, at: 1)) }
        }
        let sorted = rows.sorted { left, right in
            let (leftKey, rightKey) = (Array(Folding.fold(left.name).utf8), Array(Folding.fold(right.name).utf8))
            if leftKey != rightKey { return leftKey.lexicographicallyPrecedes(rightKey) }
            if left.name != right.name { return Array(left.name.utf8).lexicographicallyPrecedes(Array(right.name.utf8)) }
            return left.id < right.id
        }
        func section(_ name: String) -> String {
            guard let first = Folding.fold(name).unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return "#" }
            return String(first).uppercased()
        }
        var sections: [String: [Int64]] = [:]
        for row in sorted { sections[section(row.name), default: []].append(row.id) }
        return sections.keys.sorted { ($0 == "#" ? 1 : 0, $0) < ($1 == "#" ? 1 : 0, $1) }.map { sections[$0]! }
    }

    static func sqliteShell(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-bail", path]
        let input = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data((".timeout 5000\n" + sql).utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(process.terminationStatus == 0, "sqlite3 failed: \(message)")
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    @Test("Random inserts, deletes and renames, here and from a second process: replaying the change set gives the new results")
    func propertyReplay() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["CATALOGUE_TEST_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("changes.sqlite")
        let catalogue = try Catalogue(path: path, seed: false)
        try catalogue.write { db in
            for _ in 0..<300 { try db.insert(Product(name: Self.randomName(&random), type: "thing")) }
        }
        let request = FetchRequest<Product>(sortDescriptors: FetchSortDescriptor.byName)
        let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: request)
        try controller.performFetch()

        for round in 0..<30 {
            // Load a few rows so updates of loaded records are reported.
            for _ in 0..<3 where controller.numberOfSections > 0 {
                let section = Int(random.next() % UInt64(controller.numberOfSections))
                _ = try controller.object(at: ResultIndexPath(row: 0, section: section))
            }
            let old = controller.sectionedIDs
            let ids = old.flatMap(\.ids)
            let fromOtherProcess = round % 3 == 2
            var statements: [String] = []
            var renamed: Set<Int64> = []
            try catalogue.write { db in
                for _ in 0..<Int(random.next() % 6) {
                    let name = Self.randomName(&random)
                    if fromOtherProcess {
                        // The keys the library would write: folded, not merely lowercased.
                        statements.append("INSERT INTO product (name, name_key, type, type_key) VALUES (\(Self.quoted(name)), \(Self.quoted(Folding.fold(name))), 'thing', 'thing');")
                    } else {
                        try db.insert(Product(name: name, type: "thing"))
                    }
                }
                for _ in 0..<Int(random.next() % 4) where !ids.isEmpty {
                    let id = ids[Int(random.next() % UInt64(ids.count))]
                    if fromOtherProcess {
                        statements.append("DELETE FROM product WHERE id = \(id);")
                    } else {
                        try db.delete(Product.self, id: id)
                    }
                }
                for _ in 0..<Int(random.next() % 5) where !ids.isEmpty {
                    let id = ids[Int(random.next() % UInt64(ids.count))]
                    let name = Self.randomName(&random)
                    renamed.insert(id)
                    if fromOtherProcess {
                        statements.append("UPDATE product SET name = \(Self.quoted(name)), name_key = \(Self.quoted(Folding.fold(name))) WHERE id = \(id);")
                    } else if var product = try db.record(Product.self, id: id) {
                        product.name = name
                        try db.update(product)
                    }
                }
            }
            if fromOtherProcess, !statements.isEmpty {
                try Self.sqliteShell(path, "BEGIN;\n" + statements.joined(separator: "\n") + "\nCOMMIT;\n")
            }
            let changes = try controller.processPendingChanges() ?? ChangeSet(changes: [])
            let new = controller.sectionedIDs
            let replayed = try replay(changes, on: old.map(\.ids), new: new.map(\.ids))
            #expect(replayed == new.map(\.ids), "round \(round), seed \(seed)")
            for (from, _) in changes.updatedRows {
                #expect(renamed.contains(old[from.section].ids[from.row]), "round \(round): update of a record not renamed")
            }
            // The controller's new arrangement is what a fresh fetch gives.
            let fresh = SectionedResultsController(catalogue: catalogue, fetchRequest: request)
            try fresh.performFetch()
            #expect(fresh.sectionedIDs.map(\.ids) == new.map(\.ids), "round \(round), seed \(seed)")
            #expect(fresh.sections.map(\.name) == controller.sections.map(\.name))
            // And it is the arrangement a Swift model of folding and sections gives.
            #expect(new.map(\.ids) == (try Self.expectedArrangement(catalogue)), "round \(round), seed \(seed)")
        }
    }

    @Test("A bulk import into many rows yields one change set that replays correctly")
    func bulkChange() throws {
        let catalogue = try emptyCatalogue()
        var random = SplitMix64(seed: 7)
        try catalogue.write { db in
            for _ in 0..<20_000 { try db.insert(Product(name: Self.randomName(&random), type: "thing")) }
        }
        let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: FetchRequest<Product>(sortDescriptors: FetchSortDescriptor.byName))
        try controller.performFetch()
        let old = controller.sectionedIDs.map(\.ids)
        try catalogue.write { db in
            for _ in 0..<2_000 { try db.insert(Product(name: Self.randomName(&random), type: "thing")) }
        }
        let changes = try #require(try controller.processPendingChanges())
        #expect(changes.insertedRows.count == 2_000)
        #expect(changes.movedRows.isEmpty)
        #expect(try replay(changes, on: old, new: controller.sectionedIDs.map(\.ids)) == controller.sectionedIDs.map(\.ids))
    }
}
