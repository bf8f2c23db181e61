import CatalogueKit
import Foundation
import Testing
@testable import CatalogueCommands

@Suite("InteractiveStateStore: the saved state per database, under XDG_STATE_HOME")
struct InteractiveStateStoreTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private let search = SavedInteractiveState(
        searchActive: true, searchText: "bogotá", scope: "capital", selectedID: 48, selectedPosition: 0)

    @Test("Save then load: one state per entity, the last entity remembered")
    func roundTrip() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = InteractiveStateStore(databasePath: directory.appendingPathComponent("a.sqlite").path, directory: directory)
        #expect(store.load() == nil)
        try store.save(search, entity: .countries)
        let products = SavedInteractiveState(searchActive: false, searchText: "", scope: "device", selectedID: 4, selectedPosition: 2)
        try store.save(products, entity: .products)
        let file = try #require(store.load())
        #expect(file.lastEntity == .products)
        #expect(file.entities["countries"] == search)
        #expect(file.entities["products"] == products)
        #expect(file.database == store.databasePath)
    }

    @Test("Saving a session's states: every entity shown, the match mode, the last entity; others kept")
    func sessionStates() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = InteractiveStateStore(databasePath: directory.appendingPathComponent("a.sqlite").path, directory: directory)
        try store.save(search, entity: .countries)
        let terms = SavedInteractiveState(
            searchActive: true, searchText: "ipod 2007", matchMode: .terms, scope: "all", selectedID: 3, selectedPosition: 0)
        try store.save([.products: terms], lastEntity: .products)
        var file = try #require(store.load())
        #expect(file.lastEntity == .products)
        #expect(file.entities["products"]?.matchMode == .terms)
        #expect(file.entities["countries"] == search)
        let countries = SavedInteractiveState(searchActive: false, searchText: "", scope: "name", selectedID: 1, selectedPosition: 0)
        try store.save([.countries: countries, .products: terms], lastEntity: .countries)
        file = try #require(store.load())
        #expect(file.lastEntity == .countries)
        #expect(file.entities == ["countries": countries, "products": terms])
    }

    @Test("The file is named by a hash of the database's absolute path")
    func keyedByPath() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = InteractiveStateStore(databasePath: directory.appendingPathComponent("a.sqlite").path, directory: directory)
        let b = InteractiveStateStore(databasePath: directory.appendingPathComponent("b.sqlite").path, directory: directory)
        #expect(a.fileURL != b.fileURL)
        #expect(a.fileURL.lastPathComponent.hasPrefix("interactive-"))
        #expect(a.fileURL.deletingLastPathComponent().path == directory.path)
        try a.save(search, entity: .countries)
        #expect(b.load() == nil)

        // A relative path and a path through a symbolic link are the same database.
        let link = directory.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory.appendingPathComponent("real"))
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("real/c.sqlite").path, contents: Data())
        let viaLink = InteractiveStateStore(databasePath: link.appendingPathComponent("c.sqlite").path, directory: directory)
        let direct = InteractiveStateStore(databasePath: directory.appendingPathComponent("real/c.sqlite").path, directory: directory)
        #expect(viaLink.fileURL == direct.fileURL)
        #expect(InteractiveStateStore.absolutePath("x.sqlite").hasPrefix("/"))
    }

    @Test("Written atomically: no temporary file left; a corrupt or foreign file loads as nil")
    func atomicAndDefensive() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = InteractiveStateStore(databasePath: "/data/a.sqlite", directory: directory.appendingPathComponent("nested"))
        try store.save(search, entity: .countries)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("nested").path)
        #expect(names == [store.fileURL.lastPathComponent])
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        try Data("{not json".utf8).write(to: store.fileURL)
        #expect(store.load() == nil)
        try store.save(search, entity: .countries)  // replaces the corrupt file
        #expect(store.load()?.entities["countries"] == search)

        let other = InteractiveStateStore.File(database: "/elsewhere.sqlite", lastEntity: .countries, entities: [:])
        try JSONEncoder().encode(other).write(to: store.fileURL)
        #expect(store.load() == nil)
    }

    @Test("Missing directories are made (this user's only); one that cannot be made is named in one line")
    func directories() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let deep = directory.appendingPathComponent("a/b/catalogue")
        try InteractiveStateStore(databasePath: "/data/a.sqlite", directory: deep).save(search, entity: .countries)
        for made in ["a", "a/b", "a/b/catalogue"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(made).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o700, "\(made)")
        }
        let blocker = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let blocked = InteractiveStateStore(databasePath: "/data/a.sqlite", directory: blocker.appendingPathComponent("catalogue"))
        #expect {
            try blocked.save(search, entity: .countries)
        } throws: { error in
            "\(error)" == "cannot create the directory \(blocker.path)/catalogue: Not a directory"
        }
    }

    @Test("The default directory is Catalogue.stateDirectory(): $XDG_STATE_HOME/catalogue")
    func defaultDirectory() {
        let directory = Catalogue.stateDirectory(environment: ["XDG_STATE_HOME": "/tmp/xdg-state", "HOME": "/home/u"])
        #expect(directory.path == "/tmp/xdg-state/catalogue")
        #expect(Catalogue.stateDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.local/state/catalogue")
    }

    @Test("The JSON a user finds on disk")
    func json() throws {
        let data = try JSONEncoder().encode(search)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["searchActive"] as? Bool == true)
        #expect(object["searchText"] as? String == "bogotá")
        #expect(object["scope"] as? String == "capital")
        #expect(object["selectedID"] as? Int == 48)
        #expect(object["selectedPosition"] as? Int == 0)
    }
}
