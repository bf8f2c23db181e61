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
        #expect(message { try ImportToken(contentsOfFile: directory.path) } == "cannot read the token file \(directory.path): Is a directory")
        let short = directory.appendingPathComponent("short").path
        try "0123456789abcde\n".write(toFile: short, atomically: true, encoding: .utf8)
        #expect(message { try ImportToken(contentsOfFile: short) }
            == "the token file \(short) holds 15 characters; a token needs at least 16, so that it cannot be guessed (make one: openssl rand -hex 24)")
        #expect(message { try ImportToken("s3cret") }
            == "the token holds 6 characters; a token needs at least 16, so that it cannot be guessed (make one: openssl rand -hex 24)")
        // Sixteen is enough; a whole line of 4 KiB too.
        #expect(try ImportToken("0123456789abcdef").matches("0123456789abcdef"))
        let long = directory.appendingPathComponent("long").path
        try String(repeating: "a", count: 4095).appending("\n").write(toFile: long, atomically: true, encoding: .utf8)
        #expect(try ImportToken(contentsOfFile: long).matches(String(repeating: "a", count: 4095)))
        // A device that never ends is not read to its end.
        #expect(message { try ImportToken(contentsOfFile: "/dev/zero") } == "the token file /dev/zero is longer than 4 KiB; a token is one line")
        try String(repeating: "a", count: 4097).write(toFile: long, atomically: true, encoding: .utf8)
        #expect(message { try ImportToken(contentsOfFile: long) } == "the token file \(long) is longer than 4 KiB; a token is one line")
    }

    /// The one line an ``ImportTokenError`` says, or nil when `body` throws none.
    func message(_ body: () throws -> ImportToken) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? ImportTokenError)?.message
        }
    }
}
#endif
