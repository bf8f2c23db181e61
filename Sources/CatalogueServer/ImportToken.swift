#if Server
import CatalogueCore
import DatabaseCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The secret that `POST /api/{entity}/import` needs, as `Authorization: Bearer TOKEN`.
///
/// Only its SHA-256 digest is kept, and a presented token is compared digest to digest in
/// constant time: how long a comparison takes tells nothing about how much of a guess was right.
///
/// ```swift
/// let token = try ImportToken(contentsOfFile: "/etc/catalogue/token")
/// token.matches("the-token-from-the-file")  // true
/// ```
public struct ImportToken: Sendable {
    private let digest: [UInt8]

    /// The characters a bearer token may hold (RFC 6750 `b64token`).
    static let allowedCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=".unicodeScalars)

    /// The fewest characters a token has: 16 (a guess in 66¹⁶, which no client tries its way
    /// through). `openssl rand -hex 24` makes one of 48.
    public static let minimumLength = 16
    /// The largest token file read: 4 KiB. A token is one line.
    static let maximumFileSize = 4096

    /// A token from its text, surrounding whitespace removed. Throws ``ImportTokenError`` when it
    /// is empty, holds characters a `Bearer` header cannot carry, or is shorter than ``minimumLength``.
    public init(_ text: String, source: String = "the token") throws {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw ImportTokenError(message: "\(source) is empty")
        }
        guard token.unicodeScalars.allSatisfy(Self.allowedCharacters.contains) else {
            throw ImportTokenError(
                message: "\(source) has characters a Bearer header cannot carry (use letters, digits and -._~+/=)")
        }
        guard token.unicodeScalars.count >= Self.minimumLength else {
            throw ImportTokenError(
                message: "\(source) holds \(token.unicodeScalars.count) characters; a token needs at least "
                    + "\(Self.minimumLength), so that it cannot be guessed (make one: openssl rand -hex 24)")
        }
        digest = SHA256.digest(of: Array(token.utf8))
    }

    /// The token in the file at `path` (its whole contents, surrounding whitespace removed). A
    /// file of more than 4 KiB (a device such as `/dev/zero`, a file given by mistake) is
    /// refused after reading that much.
    public init(contentsOfFile path: String) throws {
        let data = try Self.read(path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportTokenError(message: "the token file \(path) is not UTF-8 text")
        }
        try self.init(text, source: "the token file \(path)")
    }

    /// Whether `presented` is the token, compared in constant time.
    public func matches(_ presented: some StringProtocol) -> Bool {
        let other = SHA256.digest(of: Array(presented.utf8))
        var difference: UInt8 = 0
        for (left, right) in zip(digest, other) {
            difference |= left ^ right
        }
        return difference == 0 && other.count == digest.count
    }

    /// The file's first ``maximumFileSize`` bytes, or an ``ImportTokenError`` naming it.
    private static func read(_ path: String) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImportTokenError(message: "cannot read the token file \(path): \(errorText(errno))")
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: maximumFileSize + 1)
        var count = 0
        while count < bytes.count {
            let received = bytes[count...].withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if received < 0, errno == EINTR { continue }
            guard received >= 0 else {
                throw ImportTokenError(message: "cannot read the token file \(path): \(errorText(errno))")
            }
            if received == 0 { break }
            count += received
        }
        guard count <= maximumFileSize else {
            throw ImportTokenError(message: "the token file \(path) is longer than 4 KiB; a token is one line")
        }
        return Data(bytes[..<count])
    }

    /// `strerror`'s text, with "no such file" for ENOENT.
    private static func errorText(_ code: Int32) -> String {
        code == ENOENT ? "no such file" : String(cString: strerror(code))
    }
}

/// A token file that cannot serve as the import token.
public struct ImportTokenError: Error, Sendable, CustomStringConvertible {
    /// One line saying what is wrong.
    public let message: String

    public var description: String { message }
}
#endif
