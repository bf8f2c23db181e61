#if Server
import Foundation
import Testing
@testable import CatalogueServer

/// The import token: read from a file, trimmed, checked, compared in constant time.
@Suite("Import token")
struct ImportTokenTests {
    @Test("A token file's contents, whitespace trimmed, match; anything else does not")
    func fromFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "  s3cret-Token_value~+/=\n\n".write(toFile: path, atomically: true, encoding: .utf8)
        let token = try ImportToken(contentsOfFile: path)
        #expect(token.matches("s3cret-Token_value~+/="))
        for wrong in ["", "s3cret", "s3cret-Token_value~+/", "s3cret-Token_value~+/==", "S3CRET-TOKEN_VALUE~+/=", " s3cret-Token_value~+/="] {
            #expect(!token.matches(wrong), "\(wrong)")
        }
    }

    @Test("Missing, empty and unusable token files are refused with one line naming the file")
    func refused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing").path
        #expect(throws: ImportTokenError.self) { try ImportToken(contentsOfFile: missing) }
        do {
            _ = try ImportToken(contentsOfFile: missing)
        } catch {
            #expect(String(describing: error) == "cannot read the token file \(missing): no such file")
        }
        let empty = directory.appendingPathComponent("empty").path
        try " \n".write(toFile: empty, atomically: true, encoding: .utf8)
        #expect(throws: ImportTokenError.self) { try ImportToken(contentsOfFile: empty) }
        let spaced = directory.appendingPathComponent("spaced").path
        try "two words".write(toFile: spaced, atomically: true, encoding: .utf8)
        do {
            _ = try ImportToken(contentsOfFile: spaced)
            Issue.record("a token with a space was accepted")
        } catch {
            #expect(String(describing: error).contains("has characters a Bearer header cannot carry"))
        }
        #expect(throws: ImportTokenError.self) { try ImportToken(contentsOfFile: directory.path) }
    }
}
#endif
