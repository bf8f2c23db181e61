#if Server
import DatabaseCore
import Foundation

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

    /// A token from its text, surrounding whitespace removed. Throws ``ImportTokenError`` when it
    /// is empty or holds characters a `Bearer` header cannot carry.
    public init(_ text: String, source: String = "the token") throws {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw ImportTokenError(message: "\(source) is empty")
        }
        guard token.unicodeScalars.allSatisfy(Self.allowedCharacters.contains) else {
            throw ImportTokenError(
                message: "\(source) has characters a Bearer header cannot carry (use letters, digits and -._~+/=)")
        }
        digest = SHA256.digest(of: Array(token.utf8))
    }

    /// The token in the file at `path` (its whole contents, surrounding whitespace removed).
    public init(contentsOfFile path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImportTokenError(message: "cannot read the token file \(path): \(Self.reason(error))")
        }
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

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError {
            return "no such file"
        }
        return nsError.localizedDescription
    }
}

/// A token file that cannot serve as the import token.
public struct ImportTokenError: Error, Sendable, CustomStringConvertible {
    /// One line saying what is wrong.
    public let message: String

    public var description: String { message }
}
#endif
