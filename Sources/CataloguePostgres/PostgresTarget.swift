#if PostgreSQL
import Foundation

/// Where a PostgreSQL catalogue is: `postgres://user:password@host:port/database`, parsed.
///
/// The user defaults to `postgres`, the port to 5432, the database to the user's name; the
/// password may also come from `PGPASSWORD`. `?sslmode=disable|prefer|require|verify-ca|verify-full`
/// chooses TLS as libpq does (default `prefer`: encrypted when the server offers it, the
/// certificate not checked), and `&sslrootcert=PATH` the authority a certificate is checked
/// against. ``description`` never shows the password.
///
/// ```swift
/// let target = try PostgresTarget(url: "postgres://reader:secret@db.example:5433/catalogue")
/// target.description  // "postgres://reader@db.example:5433/catalogue"
/// ```
public struct PostgresTarget: Sendable, Hashable, CustomStringConvertible {
    /// TLS use, as libpq's `sslmode` says it.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// `disable`: plain TCP.
        case disable
        /// `prefer`: TLS when the server offers it, plain TCP otherwise; the certificate is not
        /// checked.
        case prefer
        /// `require`: TLS or no connection; the certificate is not checked (unless
        /// ``PostgresTarget/rootCertificatePath`` is given, as in libpq).
        case require
        /// `verify-ca`: TLS with a certificate signed by a trusted authority
        /// (``PostgresTarget/rootCertificatePath``, or the system's).
        case verifyCA = "verify-ca"
        /// `verify-full`: as `verify-ca`, and the certificate must name the host.
        case verifyFull = "verify-full"
    }

    /// The server's host name or address.
    public var host: String
    /// The server's TCP port.
    public var port: Int
    /// The role to connect as.
    public var user: String
    /// The role's password, if it needs one.
    public var password: String?
    /// The database holding the catalogue.
    public var database: String
    /// Whether to use TLS.
    public var tls: TLSMode
    /// A PEM file of the certificate authorities to trust (`sslrootcert`); nil: the system's.
    public var rootCertificatePath: String?

    /// A target from its parts; the database defaults to the user's name, as in libpq.
    public init(
        host: String, port: Int = 5432, user: String = "postgres", password: String? = nil, database: String? = nil,
        tls: TLSMode = .prefer, rootCertificatePath: String? = nil
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database ?? user
        self.tls = tls
        self.rootCertificatePath = rootCertificatePath
    }

    /// Whether `text` names a PostgreSQL database (`postgres://` or `postgresql://`), rather than a file.
    public static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Parses `url`; throws ``PostgresEngineError/badURL(_:reason:)`` naming what is wrong.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw PostgresEngineError.badURL(Self.redacted(text), reason: "expected postgres://user@host:port/database")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresEngineError.badURL(Self.redacted(text), reason: "no host")
        }
        self.host = host
        self.port = components.port ?? 5432
        guard (1...65535).contains(port) else {
            throw PostgresEngineError.badURL(Self.redacted(text), reason: "port \(port) is out of range")
        }
        self.user = components.user.flatMap { $0.removingPercentEncoding ?? $0 }.flatMap { $0.isEmpty ? nil : $0 } ?? "postgres"
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 } ?? environment["PGPASSWORD"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.removingPercentEncoding ?? path
        guard !database.contains("/") else {
            throw PostgresEngineError.badURL(Self.redacted(text), reason: "the path must be one database name")
        }
        self.database = database.isEmpty ? user : database
        var tls = TLSMode.prefer
        var rootCertificatePath: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw PostgresEngineError.badURL(
                        Self.redacted(text), reason: "sslmode must be one of \(modes), not \(item.value ?? "empty")")
                }
                tls = mode
            case "sslrootcert":
                guard let path = item.value, !path.isEmpty else {
                    throw PostgresEngineError.badURL(Self.redacted(text), reason: "sslrootcert needs a file: sslrootcert=PATH")
                }
                rootCertificatePath = path
            default:
                throw PostgresEngineError.badURL(Self.redacted(text), reason: "unknown parameter \(item.name) (known: sslmode, sslrootcert)")
            }
        }
        if rootCertificatePath != nil, tls == .disable || tls == .prefer {
            throw PostgresEngineError.badURL(
                Self.redacted(text), reason: "sslrootcert needs sslmode=require, verify-ca or verify-full (with \(tls.rawValue) no certificate is checked)")
        }
        self.tls = tls
        self.rootCertificatePath = rootCertificatePath
    }

    /// `postgres://user@host:port/database`: no password.
    public var description: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(hostPart):\(port)/\(database)"
    }

    /// `text` with any password replaced by `***`, for messages about a URL that did not parse.
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else { return text }
        let credentials = text[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
#endif
