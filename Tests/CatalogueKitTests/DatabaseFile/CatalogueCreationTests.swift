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
/// over a file.
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
}
