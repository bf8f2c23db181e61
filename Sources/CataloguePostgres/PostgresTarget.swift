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
/// Several hosts (`postgres://app@a.example:5432,b.example:5433/catalogue`, `?host=a,b`,
/// `PGHOST=a,b` with `PGPORT=5432,5433`) are tried in turn when the catalogue opens, as libpq
/// tries them, until one answers and fits `&target_session_attrs=` (`any`, `read-write`,
/// `read-only`, `primary`, `standby`, `prefer-standby`; see ``PostgresSessionAttributes``),
/// in a random order with `&load_balance_hosts=random`.
/// `&connect_timeout=SECONDS` limits the wait for the server and `&application_name=NAME` names
/// the client in `pg_stat_activity` ("catalogue" by default); `&options=-c%20search_path%3Dshop`
/// sends the server settings for the session, as libpq's `options` does: with `search_path`, the
/// catalogue lives in a schema of its own, so one database can hold several. `client_encoding`
/// and the `keepalives` settings are accepted and change nothing (the connection is always
/// UTF-8).
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
    public var password: String? {
        // Set by hand, it is no longer the password file's.
        didSet { passwordFile = nil }
    }
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
    /// The hosts after this one, tried in turn when it cannot be reached or does not fit
    /// ``sessionAttributes`` (libpq's list: `postgres://app@a:5432,b:5433/catalogue`), each with
    /// its own host, port and password (from the password file); empty for one host.
    ///
    /// ```swift
    /// try PostgresTarget(url: "postgres://app@a.example,b.example:5433/c").alternatives.map(\.port)  // [5433]
    /// ```
    public var alternatives: [PostgresTarget]
    /// Which kind of server to connect to (`target_session_attrs`): any (the default), or one
    /// that takes writes, a primary, a standby…
    ///
    /// ```swift
    /// try PostgresTarget(url: "postgres://app@a,b/c?target_session_attrs=read-write").sessionAttributes  // .readWrite
    /// ```
    public var sessionAttributes: PostgresSessionAttributes
    /// Whether the hosts are tried in a random order (`load_balance_hosts=random`, as in libpq
    /// 16), spreading the processes that open a catalogue over replicas, rather than in the
    /// order written (`disable`, the default).
    ///
    /// ```swift
    /// try PostgresTarget(url: "postgres://app@a,b/c?load_balance_hosts=random").loadBalancesHosts  // true
    /// ```
    public var loadBalancesHosts: Bool
    /// Server settings for each session, as PostgreSQL's command-line options (`options`, as in
    /// libpq: `-c name=value`, several separated by spaces), sent when each connection starts;
    /// nil: none. `-c search_path=shop` keeps the catalogue in the schema `shop`, which must exist.
    ///
    /// ```swift
    /// try PostgresTarget(url: "postgres://app@db/c?options=-c%20search_path%3Dshop").options  // "-c search_path=shop"
    /// ```
    public var options: String?

    /// Where ``password`` was read, when it came from the password file (no password was given
    /// in the URL, the service or `PGPASSWORD`): read again by ``withPasswordFileReread()``.
    /// Not part of the target's equality.
    var passwordFile: PostgresPasswordFile.Lookup? {
        get { passwordFileOrigin.lookup }
        set { passwordFileOrigin = PostgresPasswordFile.Origin(lookup: newValue) }
    }
    private var passwordFileOrigin = PostgresPasswordFile.Origin(lookup: nil)

    /// This target with the password its password file gives now, when ``password`` came from
    /// that file and the file now gives another (it was rotated there); nil otherwise, and
    /// also while the file gives none (missing, or caught half-written): the target keeps the
    /// password it has until a later reading finds one. libpq reads the file for each
    /// connection; the engine reads it again when the server refuses the login (see
    /// `HostProbe`).
    func withPasswordFileReread() -> PostgresTarget? {
        guard let passwordFile, let current = passwordFile.password(), current != password else { return nil }
        var renewed = self
        renewed.password = current
        renewed.passwordFile = passwordFile
        return renewed
    }

    /// The application name when the URL, the service and `PGAPPNAME` give none.
    public static let defaultApplicationName = "catalogue"
    /// The URL parameters a target reads (`host` and the rest of ``init(url:environment:)``).
    static let parameters = [
        "host", "service", "sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout",
        "application_name", "fallback_application_name", "target_session_attrs", "load_balance_hosts",
        "options",
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
        applicationName: String = PostgresTarget.defaultApplicationName, alternatives: [PostgresTarget] = [],
        sessionAttributes: PostgresSessionAttributes = .any, loadBalancesHosts: Bool = false, options: String? = nil
    ) {
        self.options = options
        self.loadBalancesHosts = loadBalancesHosts
        self.alternatives = alternatives
        self.sessionAttributes = sessionAttributes
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
    /// else "catalogue"; `target_session_attrs` from `PGTARGETSESSIONATTRS`, else `any`;
    /// `load_balance_hosts` from `PGLOADBALANCEHOSTS`, else `disable`; `options` from
    /// `PGOPTIONS`. A list of hosts (in the URL's authority, `host=`, the service's `host` or
    /// `PGHOST`) makes
    /// ``alternatives``; `PGPORT` (or the service's `port`) then gives one port for all or one
    /// for each.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func bad(_ reason: String) -> PostgresEngineError {
            PostgresEngineError.badURL(Self.redacted(text), reason: reason)
        }
        // libpq's list of hosts to try in turn (postgres://a:5432,b:5433/db), which
        // URLComponents cannot read: taken out, and the rest parsed without it.
        var parseable = text
        var authorityEntries: [PostgresHostList.Entry]?
        if Self.isURL(text), let range = PostgresHostList.authorityHostsRange(of: text), text[range].contains(",") {
            guard let entries = PostgresHostList.authorityEntries(text[range]) else {
                throw bad("a list of hosts is HOST:PORT,HOST:PORT (a name, an address or an [IPv6 address], each with a port or not), not \(text[range])")
            }
            authorityEntries = entries
            parseable.replaceSubrange(range, with: "")
        }
        guard Self.isURL(text), let components = URLComponents(string: parseable) else {
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
        // Hosts, or directories (starting with /) holding the server's Unix-domain socket, tried
        // in turn; with none anywhere, libpq's default socket.
        let listed: String? = if let hostParameter { hostParameter }
            else if authorityEntries != nil { nil }
            else { components.host.flatMap { $0.isEmpty ? nil : $0 } ?? unstated("host", "PGHOST") }
        // One port for every host, or one for each (libpq's PGPORT=5432,5433).
        let ports: [String] = if authorityEntries == nil, let port = components.port { [String(port)] }
            else { unstated("port", "PGPORT").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? [] }
        let endpoints = try Self.endpoints(
            listed: listed, authorityEntries: authorityEntries, ports: ports,
            portOrigin: service["port"] == nil ? "PGPORT" : "the service's port", bad: bad)
        self.host = endpoints[0].host
        self.socketDirectory = endpoints[0].socketDirectory
        self.port = endpoints[0].port
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
            case "connect_timeout", "application_name", "fallback_application_name", "target_session_attrs", "load_balance_hosts",
                "options":
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
            usesTLS: mode != .disable && endpoints.contains { $0.socketDirectory == nil }, environment: environment, bad: bad)
        self.clientCertificatePath = client?.certificate
        self.clientKeyPath = client?.key
        // A setting the URL states, else the service's, else the environment variable's, with
        // where it came from for a message about its value.
        func setting(_ key: String, _ variable: String) -> (text: String, origin: String)? {
            if let text = stated[key] { return (text, key) }
            if let text = service[key].flatMap({ $0.isEmpty ? nil : $0 }) { return (text, "the service's \(key)") }
            return fromEnvironment(variable).map { ($0, variable) }
        }
        if let (text, origin) = setting("connect_timeout", "PGCONNECT_TIMEOUT") {
            guard let seconds = Int(text), (1...86_400).contains(seconds) else {
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
        if let (text, origin) = setting("target_session_attrs", "PGTARGETSESSIONATTRS") {
            guard let attributes = PostgresSessionAttributes(rawValue: text) else {
                let names = PostgresSessionAttributes.allCases.map(\.rawValue).joined(separator: ", ")
                throw bad("\(origin) must be one of \(names), not \(text.isEmpty ? "empty" : text)")
            }
            self.sessionAttributes = attributes
        } else {
            self.sessionAttributes = .any
        }
        let balancing = setting("load_balance_hosts", "PGLOADBALANCEHOSTS")
        switch balancing?.text {
        case nil, "disable": self.loadBalancesHosts = false
        case "random": self.loadBalancesHosts = true
        case let text?:
            throw bad("\(balancing?.origin ?? "load_balance_hosts") must be disable or random, not \(text.isEmpty ? "empty" : text)")
        }
        self.options = nonEmpty(stated["options"]) ?? unstated("options", "PGOPTIONS")
        // The URL's password, the service's or PGPASSWORD serves every host; else each host's
        // line of the password file.
        let given = components.password.map { $0.removingPercentEncoding ?? $0 } ?? service["password"] ?? environment["PGPASSWORD"]
        let (databaseName, userName) = (self.database, self.user)
        func passwordFileLookup(for endpoint: Endpoint) -> PostgresPasswordFile.Lookup? {
            guard given == nil else { return nil }
            return PostgresPasswordFile.Lookup(
                hosts: endpoint.socketDirectory.map { ["localhost", $0] } ?? [endpoint.host], port: endpoint.port,
                database: databaseName, user: userName, environment: environment)
        }
        let lookup = passwordFileLookup(for: endpoints[0])
        self.passwordFileOrigin = PostgresPasswordFile.Origin(lookup: lookup)
        self.password = given ?? lookup?.password()
        self.alternatives = []
        let first = self
        self.alternatives = endpoints.dropFirst().map { endpoint in
            var other = first
            other.host = endpoint.host
            other.socketDirectory = endpoint.socketDirectory
            other.port = endpoint.port
            let lookup = passwordFileLookup(for: endpoint)
            other.password = given ?? lookup?.password()
            other.passwordFile = lookup
            return other
        }
    }

    /// The hosts to try, in order: `listed` (`host=`, the authority's one host, the service's or
    /// `PGHOST`, comma-separated) or else the authority's list, each with its written port, else
    /// `ports` (one for all or one per host; `portOrigin` names where they came from), else 5432.
    private static func endpoints(
        listed: String?, authorityEntries: [PostgresHostList.Entry]?, ports: [String], portOrigin: String,
        bad: (String) -> PostgresEngineError
    ) throws -> [Endpoint] {
        let entries: [PostgresHostList.Entry]
        if let listed {
            guard let parsed = PostgresHostList.entries(listed) else {
                throw bad("a list of hosts has no empty names: \(listed)")
            }
            entries = parsed
        } else {
            entries = authorityEntries ?? []
        }
        let hostCount = max(entries.count, 1)
        if ports.count > 1, ports.count != hostCount {
            throw bad("\(ports.count) ports (\(ports.joined(separator: ","))) for \(hostCount) host\(hostCount > 1 ? "s" : ""): give one port, or one for each host")
        }
        var endpoints: [Endpoint] = []
        for (index, entry) in (entries.isEmpty ? [nil] : entries.map(Optional.some)).enumerated() {
            let written = entry?.port.flatMap { $0.isEmpty ? nil : $0 }
            let shared = ports.count == 1 ? ports[0] : ports.count > index ? ports[index] : nil
            var port = 5432
            if let portText = written ?? shared.flatMap({ $0.isEmpty ? nil : $0 }) {
                guard let number = Int(portText) else {
                    throw bad("\(written != nil ? "the port of \(entry?.host ?? "")" : portOrigin) must be a port number, not \(portText)")
                }
                port = number
            }
            guard (1...65535).contains(port) else {
                throw bad("port \(port) is out of range")
            }
            endpoints.append(Endpoint(named: entry?.host, port: port))
        }
        return endpoints
    }

    /// One host of a list: its name (`localhost` for a socket), socket directory, and port.
    private struct Endpoint {
        var host: String
        var socketDirectory: String?
        var port: Int

        /// `named` a host, a socket directory (starting with /), or nil for libpq's default socket.
        init(named: String?, port: Int) {
            self.port = port
            if let named, !named.hasPrefix("/") {
                host = named
                socketDirectory = nil
            } else {
                host = "localhost"
                let directory = named ?? PostgresTarget.defaultSocketDirectory
                socketDirectory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
            }
        }
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
    /// `postgres://user@:port/database?host=/var/run/postgresql`; with ``alternatives``, every
    /// host in turn (`postgres://user@a:5432,b:5433/database`, a socket directory
    /// percent-encoded, as libpq reads it); with ``options``, they follow, percent-encoded
    /// (`?options=-c%20search_path%3Dshop`), since they may choose the catalogue's schema. No
    /// password.
    public var description: String {
        var query: [String] = []
        let base: String
        if !alternatives.isEmpty {
            base = "postgres://\(user)@\(([self] + alternatives).map(\.authorityHost).joined(separator: ","))/\(database)"
        } else if let socketDirectory {
            base = "postgres://\(user)@:\(port)/\(database)"
            query.append("host=\(socketDirectory)")
        } else {
            base = "postgres://\(user)@\(authorityHost)/\(database)"
        }
        if let options {
            query.append("options=" + (options.addingPercentEncoding(withAllowedCharacters: Self.queryValueCharacters) ?? options))
        }
        return query.isEmpty ? base : base + "?" + query.joined(separator: "&")
    }

    /// The characters a query value keeps as they are: ASCII letters and digits, and `-._~/`.
    private static let queryValueCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")

    /// This host as a URL's authority writes it: `host:port`, `[::1]:port`, `%2Ftmp:port`.
    private var authorityHost: String {
        if let socketDirectory {
            return (socketDirectory.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketDirectory) + ":\(port)"
        }
        return (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// This host alone, for messages about one of several: `a.example:5432`, or the socket's path.
    ///
    /// ```swift
    /// try PostgresTarget(url: "postgres://app@a.example,[::1]:5433/c").hosts.map(\.endpointDescription)
    /// // ["a.example:5432", "[::1]:5433"]
    /// ```
    public var endpointDescription: String {
        socketPath ?? (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// This target, then each of its ``alternatives``, without theirs: the hosts in the order
    /// written (the engine shuffles them when ``loadBalancesHosts``).
    ///
    /// ```swift
    /// let target = try PostgresTarget(url: "postgres://app@a.example:5432,b.example:5433/catalogue")
    /// target.hosts.map(\.description)
    /// // ["postgres://app@a.example:5432/catalogue", "postgres://app@b.example:5433/catalogue"]
    /// ```
    public var hosts: [PostgresTarget] {
        var first = self
        first.alternatives = []
        return [first] + alternatives
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
