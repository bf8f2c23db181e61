import Foundation
import Testing
import CatalogueKit
@testable import CatalogueSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `CatalogueCreation.linkNewFile(_:to:makeLink:)`: how a whole new catalogue gets its name,
/// including on a file system without hard links, where it is renamed into place, and never
/// over a file; and that the temporary file it is built in is never one planted there.
@Suite("Giving a new catalogue its name")
struct CatalogueCreationTests {
    /// A `link(2)` that fails with `code`, as it does on a file system without hard links
    /// (`EPERM`, `ENOTSUP`, `EXDEV`…) or when the name is taken (`EEXIST`).
    static func failingLink(_ code: Int32) -> (String, String) -> Int32 {
        { _, _ in
            errno = code
            return -1
        }
    }

    @Test("Hard links: the file gets the name, and the temporary name stays until the caller removes it")
    func linked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(FileManager.default.createFile(atPath: directory.path(".c.creating"), contents: Data("new".utf8)))
        #expect(try CatalogueCreation.linkNewFile(directory.path(".c.creating"), to: directory.path("c")))
        #expect(FileManager.default.contents(atPath: directory.path("c")) == Data("new".utf8))
        #expect(directory.exists(".c.creating"))
    }

    @Test("No hard links: renamed into place when nothing is at the path", arguments: [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, EXDEV])
    func renamedWithoutHardLinks(code: Int32) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(FileManager.default.createFile(atPath: directory.path(".c.creating"), contents: Data("new".utf8)))
        // A log a deleted database left at the path goes first.
        #expect(FileManager.default.createFile(atPath: directory.path("c-wal"), contents: Data("old log".utf8)))
        let linked = try CatalogueCreation.linkNewFile(
            directory.path(".c.creating"), to: directory.path("c"), makeLink: Self.failingLink(code))
        #expect(linked)
        #expect(FileManager.default.contents(atPath: directory.path("c")) == Data("new".utf8))
        #expect(!directory.exists(".c.creating"))
        #expect(!directory.exists("c-wal"))
    }

    @Test("No hard links and a file at the path: false, and both files are left as they were")
    func neverRenamedOverAFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(FileManager.default.createFile(atPath: directory.path(".c.creating"), contents: Data("new".utf8)))
        #expect(FileManager.default.createFile(atPath: directory.path("c"), contents: Data("theirs".utf8)))
        let linked = try CatalogueCreation.linkNewFile(
            directory.path(".c.creating"), to: directory.path("c"), makeLink: Self.failingLink(EPERM))
        #expect(!linked)
        #expect(FileManager.default.contents(atPath: directory.path("c")) == Data("theirs".utf8))
        #expect(FileManager.default.contents(atPath: directory.path(".c.creating")) == Data("new".utf8))
    }

    @Test("The name taken: false; any other failure: cannotCreate with the system's reason")
    func failures() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let temporary = directory.path(".c.creating")
        let path = directory.path("c")
        #expect(FileManager.default.createFile(atPath: temporary, contents: Data("new".utf8)))
        #expect(try !CatalogueCreation.linkNewFile(temporary, to: path, makeLink: Self.failingLink(EEXIST)))
        #expect(throws: CatalogueError.cannotCreate(path: path, reason: String(cString: strerror(EACCES)))) {
            try CatalogueCreation.linkNewFile(temporary, to: path, makeLink: Self.failingLink(EACCES))
        }
        #expect(!directory.exists("c"))
        #expect(directory.exists(".c.creating"))
    }

    /// What someone who can write the directory may plant where a creation builds its file.
    enum PlantedFile: String, CaseIterable, CustomTestStringConvertible {
        case symbolicLink, hardLink, fifo, anotherUsersFile

        var testDescription: String { rawValue }
    }

    /// The reason a creation gives for `planted` at `temporary`.
    static func reason(for planted: PlantedFile, at temporary: String) -> String {
        let problem = switch planted {
        case .symbolicLink: "is a symbolic link, which catalogue never makes"
        case .hardLink: "has other names (hard links), so catalogue did not make it"
        case .fifo: "is not a regular file, so catalogue did not make it"
        case .anotherUsersFile: "belongs to another user, so catalogue did not make it"
        }
        return "\(temporary), where a new catalogue is built, \(problem); remove it"
    }

    @Test("A link, a FIFO or another user's file planted at the temporary name is refused, and the file it names is unchanged",
          arguments: PlantedFile.allCases)
    func plantedTemporaryFile(planted: PlantedFile) throws {
        // Another user's file needs root to make (CI runs as root).
        guard planted != .anotherUsersFile || geteuid() == 0 else { return }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        let temporary = CatalogueCreation.temporaryPath(for: path)
        let victim = directory.path("victim.txt")
        let precious = Data("precious data\n".utf8)
        #expect(FileManager.default.createFile(atPath: victim, contents: precious))
        switch planted {
        case .symbolicLink: #expect(symlink(victim, temporary) == 0)
        case .hardLink: #expect(link(victim, temporary) == 0)
        case .fifo: #expect(mkfifo(temporary, 0o644) == 0)
        case .anotherUsersFile:
            #expect(FileManager.default.createFile(atPath: temporary, contents: precious))
            #expect(chown(temporary, 65_534, 65_534) == 0)
        }
        // An empty catalogue, and a first import: both build in the temporary file.
        #expect(throws: CatalogueError.cannotCreate(path: path, reason: Self.reason(for: planted, at: temporary))) {
            try Catalogue(path: path)
        }
        #expect(throws: CatalogueError.cannotCreate(path: path, reason: Self.reason(for: planted, at: temporary))) {
            try Catalogue.importRecords(
                Product.self, from: ImportInput(text: "name,type\nWidget,tool\n", name: "products.csv"),
                options: ImportOptions(format: .csv), intoNewCatalogueAt: path)
        }
        #expect(FileManager.default.contents(atPath: victim) == precious)
        #expect(!directory.exists("c.sqlite"))
        if planted == .anotherUsersFile {
            #expect(FileManager.default.contents(atPath: temporary) == precious)
        }
        // Left for its owner to remove; once it is, the catalogue is made.
        #expect(unlink(temporary) == 0)
        let catalogue = try Catalogue(path: path)
        #expect(try catalogue.fetchCount(FetchRequest<Country>()) > 0)
        #expect(FileManager.default.contents(atPath: victim) == precious)
    }

    @Test("Opening an existing catalogue with a link or a FIFO at the temporary name neither follows it nor waits on it")
    func plantedBesideAnExistingCatalogue() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("c.sqlite")
        _ = try Catalogue(path: path)
        let temporary = CatalogueCreation.temporaryPath(for: path)
        let victim = directory.path("victim.txt")
        let precious = Data("precious data\n".utf8)
        #expect(FileManager.default.createFile(atPath: victim, contents: precious))
        #expect(symlink(victim, temporary) == 0)
        #expect(try Catalogue(path: path).fetchCount(FetchRequest<Country>()) > 0)
        #expect(FileManager.default.contents(atPath: victim) == precious)
        #expect(unlink(temporary) == 0)
        // A FIFO: opening it for reading would wait for a writer for ever.
        #expect(mkfifo(temporary, 0o644) == 0)
        #expect(try Catalogue(path: path).fetchCount(FetchRequest<Country>()) > 0)
    }
}
