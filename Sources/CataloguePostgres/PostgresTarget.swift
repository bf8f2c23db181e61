#if PostgreSQL
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a PostgreSQL catalogue is: `postgres://user:password@host:port/database`, parsed.
///
/// The host may be a directory holding the server's Unix-domain socket (`?host=/var/run/postgresql`,
/// a host starting with `/`, or `PGHOST`), which needs no password where the server trusts its
/// local users (`peer`), as `psql` connects; with no host anywhere, libpq's default socket.
/// What the URL leaves out comes from the connection service it names (`?service=NAME` or
/// `PGSERVICE`, defined in `~/.pg_service.conf` as for `psql "service=NAME"`), libpq's
/// environment variables (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`,
/// `PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY`) and password file (`~/.pgpass`), then
/// libpq's defaults: port 5432, the user this process runs as, the database named as the user.
/// `?sslmode=disable|prefer|require|verify-ca|verify-full`
/// chooses TLS as libpq does (default `prefer`: encrypted when the server offers it, the
/// certificate not checked), `&sslrootcert=PATH` the authority a certificate is checked
/// against (`system`: the system's, with `verify-full`, as libpq 16 reads it), and `&sslcert=PATH&sslkey=PATH` the certificate this client proves its role with,
/// where the server authenticates by certificate (`cert` in `pg_hba.conf`; by default
/// `~/.postgresql/postgresql.crt` and `.key` when they exist, as in libpq).
/// `&connect_timeout=SECONDS` limits the wait for the server and `&application_name=NAME` names
/// the client in `pg_stat_activity` ("catalogue" by default); `client_encoding` and the
/// `keepalives` settings are accepted and change nothing (the connection is always UTF-8).
/// ``description`` never shows the password.
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
    /// The directory of the server's Unix-domain socket, when the target is reached through it
    /// rather than TCP (``host`` is then `localhost`, as libpq names such connections).
    public var socketDirectory: String?
    /// A PEM file with this client's certificate (`sslcert`), sent when the connection uses TLS,
    /// for servers that authenticate roles by certificate; nil: none.
    public var clientCertificatePath: String?
    /// A PEM file with the private key of ``clientCertificatePath`` (`sslkey`), readable by its
    /// owner alone, as libpq requires.
    public var clientKeyPath: String?
    /// How long connecting may take (`connect_timeout`); nil: the engine's
    /// ``PostgresEngine/Options/connectTimeout``.
    public var connectTimeout: Duration?
    /// The name the server shows for this client (`application_name`, in `pg_stat_activity`
    /// and the server's log).
    public var applicationName: String

    /// The application name when the URL, the service and `PGAPPNAME` give none.
    public static let defaultApplicationName = "catalogue"
    /// The URL parameters a target reads (`host` and the rest of ``init(url:environment:)``).
    static let parameters = [
        "host", "service", "sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout",
        "application_name", "fallback_application_name",
    ]
    /// libpq's parameters that change nothing here, accepted and not used.
    static let unusedParameters: Set<String> = [
        "client_encoding", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
    ]

    /// The Unix-domain socket libpq would use when neither the URL nor `PGHOST` names a host:
    /// `/var/run/postgresql` (Debian's, and most distributions'), else `/tmp` (PostgreSQL's own
    /// default).
    public static var defaultSocketDirectory: String {
        access("/var/run/postgresql", F_OK) == 0 ? "/var/run/postgresql" : "/tmp"
    }

    /// The socket's path when the target is a Unix-domain socket: `DIRECTORY/.s.PGSQL.PORT`.
    public var socketPath: String? {
        socketDirectory.map { "\($0)/.s.PGSQL.\(port)" }
    }

    /// A target from its parts; the database defaults to the user's name, as in libpq.
    public init(
        host: String, port: Int = 5432, user: String = "postgres", password: String? = nil, database: String? = nil,
        tls: TLSMode = .prefer, rootCertificatePath: String? = nil, socketDirectory: String? = nil,
        clientCertificatePath: String? = nil, clientKeyPath: String? = nil, connectTimeout: Duration? = nil,
        applicationName: String = PostgresTarget.defaultApplicationName
    ) {
        self.socketDirectory = socketDirectory
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database ?? user
        self.tls = tls
        self.rootCertificatePath = rootCertificatePath
        self.clientCertificatePath = clientCertificatePath
        self.clientKeyPath = clientKeyPath
        self.connectTimeout = connectTimeout
        self.applicationName = applicationName
    }

    /// Whether `text` names a PostgreSQL database (`postgres://` or `postgresql://`), rather than a file.
    public static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Parses `url`; throws ``PostgresEngineError/badURL(_:reason:)`` naming what is wrong.
    ///
    /// What the URL leaves out comes from the service it names (`service=NAME`, or `PGSERVICE`:
    /// libpq's connection service file, `~/.pg_service.conf`), then from libpq's environment
    /// variables, then libpq's defaults:
    /// the host from `PGHOST`, else the Unix-domain socket in ``defaultSocketDirectory``; the
    /// port from `PGPORT`, else 5432; the user from `PGUSER`, else the name this process runs
    /// as; the database from `PGDATABASE`, else the user's name; the password from `PGPASSWORD`,
    /// else libpq's password file (`PGPASSFILE` or `~/.pgpass`); `sslmode` from `PGSSLMODE`,
    /// else `prefer`; `sslrootcert` from `PGSSLROOTCERT` when the mode checks certificates;
    /// `sslcert` and `sslkey` from `PGSSLCERT` and `PGSSLKEY`, else `~/.postgresql/postgresql.crt`
    /// (when it exists) and `~/.postgresql/postgresql.key`; `connect_timeout` from
    /// `PGCONNECT_TIMEOUT`; `application_name` from `PGAPPNAME`, else `fallback_application_name`,
    /// else "catalogue".
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func bad(_ reason: String) -> PostgresEngineError {
            PostgresEngineError.badURL(Self.redacted(text), reason: reason)
        }
        // libpq's list of hosts to try in turn (postgres://a:5432,b:5433/db), which
        // URLComponents cannot read: said as such, not as a malformed URL.
        if Self.isURL(text), let hosts = Self.authorityHosts(of: text), hosts.contains(",") {
            throw bad(Self.severalHosts(hosts))
        }
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw bad("expected postgres://user@host:port/database")
        }
        func fromEnvironment(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        // A service (`service=NAME` or PGSERVICE) comes before the environment, as in libpq.
        let serviceName = components.queryItems?.first(where: { $0.name == "service" }).map { $0.value ?? "" }
            ?? fromEnvironment("PGSERVICE")
        if let serviceName, serviceName.isEmpty {
            throw bad("service needs a name: service=NAME")
        }
        let service: [String: String]
        do {
            service = try serviceName.map { name throws(PostgresServiceFile.Failure) in
                try PostgresServiceFile.settings(of: name, environment: environment)
            } ?? [:]
        } catch {
            throw bad(error.description)
        }
        // A setting the URL left out: the service's, else the environment variable's.
        func unstated(_ key: String, _ variable: String) -> String? {
            service[key].flatMap { $0.isEmpty ? nil : $0 } ?? fromEnvironment(variable)
        }
        let hostParameter = components.queryItems?.first(where: { $0.name == "host" }).map { $0.value ?? "" }
        if let hostParameter, hostParameter.isEmpty {
            throw bad("host needs a name, an address or a socket directory: host=NAME")
        }
        // A host, or a directory (starting with /) holding the server's Unix-domain socket; with
        // none anywhere, libpq's default socket.
        let named = hostParameter ?? components.host.flatMap({ $0.isEmpty ? nil : $0 }) ?? unstated("host", "PGHOST")
        if let named, named.contains(",") {
            throw bad(Self.severalHosts(named))
        }
        let host: String
        if let named, !named.hasPrefix("/") {
            host = named
            self.socketDirectory = nil
        } else {
            host = "localhost"
            let directory = named ?? Self.defaultSocketDirectory
            self.socketDirectory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        }
        self.host = host
        if let port = components.port {
            self.port = port
        } else if let text = unstated("port", "PGPORT") {
            guard let port = Int(text) else {
                throw bad("\(service["port"] == nil ? "PGPORT" : "the service's port") must be a port number, not \(text)")
            }
            self.port = port
        } else {
            self.port = 5432
        }
        guard (1...65535).contains(port) else {
            throw bad("port \(port) is out of range")
        }
        self.user = components.user.flatMap { $0.removingPercentEncoding ?? $0 }.flatMap { $0.isEmpty ? nil : $0 }
            ?? unstated("user", "PGUSER") ?? Self.loginName ?? "postgres"
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.removingPercentEncoding ?? path
        guard !database.contains("/") else {
            throw bad("the path must be one database name")
        }
        self.database = database.isEmpty ? unstated("dbname", "PGDATABASE") ?? user : database
        var tls: TLSMode?
        var rootCertificatePath: String?
        var clientCertificatePath: String?
        var clientKeyPath: String?
        var stated: [String: String] = [:]
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw bad("sslmode must be one of \(Self.modeNames), not \(item.value ?? "empty")")
                }
                tls = mode
            case "sslrootcert":
                guard let path = item.value, !path.isEmpty else {
                    throw bad("sslrootcert needs a file: sslrootcert=PATH")
                }
                rootCertificatePath = path
            case "sslcert", "sslkey":
                guard let path = item.value, !path.isEmpty else {
                    throw bad("\(item.name) needs a file: \(item.name)=PATH")
                }
                if item.name == "sslcert" { clientCertificatePath = path } else { clientKeyPath = path }
            case "connect_timeout", "application_name", "fallback_application_name":
                stated[item.name] = item.value ?? ""
            case "host", "service":
                break  // read above
            case _ where Self.unusedParameters.contains(item.name):
                break
            default:
                throw bad("unknown parameter \(item.name) (known: \(Self.parameters.joined(separator: ", ")))")
            }
        }
        if tls == nil, let mode = unstated("sslmode", "PGSSLMODE") {
            guard let parsed = TLSMode(rawValue: mode) else {
                throw bad("\(service["sslmode"] == nil ? "PGSSLMODE" : "the service's sslmode") must be one of \(Self.modeNames), not \(mode)")
            }
            tls = parsed
        }
        // libpq's sslrootcert=system (PostgreSQL 16): the system's authorities, and the host
        // checked: verify-full by default, and no weaker mode.
        if (rootCertificatePath ?? unstated("sslrootcert", "PGSSLROOTCERT")) == "system" {
            if let tls, tls != .verifyFull {
                throw bad("sslrootcert=system needs sslmode=verify-full (its default), not \(tls.rawValue)")
            }
            tls = .verifyFull
            rootCertificatePath = nil
        } else {
            let mode = tls ?? .prefer
            if rootCertificatePath != nil, mode == .disable || mode == .prefer {
                throw bad("sslrootcert needs sslmode=require, verify-ca or verify-full (with \(mode.rawValue) no certificate is checked)")
            }
            if rootCertificatePath == nil, mode != .disable, mode != .prefer {
                rootCertificatePath = unstated("sslrootcert", "PGSSLROOTCERT")
            }
        }
        let mode = tls ?? .prefer
        self.tls = mode
        self.rootCertificatePath = rootCertificatePath
        if mode == .disable, clientCertificatePath != nil || clientKeyPath != nil {
            throw bad("\(clientCertificatePath != nil ? "sslcert" : "sslkey") needs TLS (with sslmode=disable no certificate is sent)")
        }
        let client = try PostgresClientCertificate.paths(
            certificate: clientCertificatePath ?? unstated("sslcert", "PGSSLCERT"),
            key: clientKeyPath ?? unstated("sslkey", "PGSSLKEY"),
            usesTLS: mode != .disable && socketDirectory == nil, environment: environment, bad: bad)
        self.clientCertificatePath = client?.certificate
        self.clientKeyPath = client?.key
        if let text = stated["connect_timeout"] ?? unstated("connect_timeout", "PGCONNECT_TIMEOUT") {
            guard let seconds = Int(text), (1...86_400).contains(seconds) else {
                let origin = stated["connect_timeout"] != nil ? "connect_timeout"
                    : service["connect_timeout"] != nil ? "the service's connect_timeout" : "PGCONNECT_TIMEOUT"
                throw bad("\(origin) must be whole seconds from 1 to 86400, not \(text.isEmpty ? "empty" : text)")
            }
            self.connectTimeout = .seconds(seconds)
        } else {
            self.connectTimeout = nil
        }
        func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        self.applicationName = nonEmpty(stated["application_name"]) ?? unstated("application_name", "PGAPPNAME")
            ?? nonEmpty(stated["fallback_application_name"]) ?? nonEmpty(service["fallback_application_name"])
            ?? Self.defaultApplicationName
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 } ?? service["password"] ?? environment["PGPASSWORD"]
            ?? PostgresPasswordFile.password(
                hosts: socketDirectory.map { ["localhost", $0] } ?? [host], port: port, database: self.database, user: user,
                environment: environment)
    }

    /// The hosts part of a URL's authority (after any `user:password@`), as written.
    private static func authorityHosts(of text: String) -> Substring? {
        guard let scheme = text.range(of: "://") else { return nil }
        let rest = text[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
    }

    /// Why a list of hosts is refused.
    private static func severalHosts(_ hosts: some StringProtocol) -> String {
        "several hosts (\(hosts)) are not supported: name one (catalogue does not fail over from one server to another)"
    }

    /// libpq's `sslmode` values, for messages.
    private static var modeNames: String {
        TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// The name this process runs as (libpq's default user), if the system knows it.
    private static var loginName: String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// `postgres://user@host:port/database`, or for a Unix-domain socket
    /// `postgres://user@:port/database?host=/var/run/postgresql`: no password.
    public var description: String {
        if let socketDirectory {
            return "postgres://\(user)@:\(port)/\(database)?host=\(socketDirectory)"
        }
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
