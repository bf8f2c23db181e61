#if PostgreSQL
@testable import CataloguePostgres
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``PostgresTarget``: what a `postgres://` URL says, and the one-line errors for what it
/// cannot say. No server needed.
@Suite("PostgreSQL URL")
struct PostgresTargetTests {
    /// The name this process runs as: libpq's default user.
    static var loginName: String {
        String(cString: getpwuid(geteuid())!.pointee.pw_name)
    }

    /// An environment without a password file (`PGPASSFILE` naming none) or a home directory
    /// (no `~/.postgresql/postgresql.crt`) plus `variables`.
    static func environment(_ variables: [String: String] = [:]) -> [String: String] {
        ["PGPASSFILE": "/nonexistent/pgpass", "HOME": "/nonexistent/home"].merging(variables) { $1 }
    }

    @Test("Defaults, as libpq's: the user this process runs as, port 5432, the database named as the user, TLS preferred")
    func defaults() throws {
        let target = try PostgresTarget(url: "postgres://db.example", environment: Self.environment())
        let user = Self.loginName
        #expect(target == PostgresTarget(host: "db.example", user: user))
        #expect(target.description == "postgres://\(user)@db.example:5432/\(user)")
        #expect(target.tls == .prefer && target.rootCertificatePath == nil && target.password == nil)
    }

    @Test("What the URL leaves out comes from libpq's environment variables; what it says wins")
    func environmentVariables() throws {
        let environment = Self.environment([
            "PGHOST": "env.example", "PGPORT": "6543", "PGUSER": "env_user", "PGDATABASE": "env_db",
            "PGPASSWORD": "env-secret", "PGSSLMODE": "verify-full", "PGSSLROOTCERT": "/etc/env-ca.pem",
        ])
        let fromEnvironment = try PostgresTarget(url: "postgres://", environment: environment)
        #expect(fromEnvironment == PostgresTarget(
            host: "env.example", port: 6543, user: "env_user", password: "env-secret", database: "env_db",
            tls: .verifyFull, rootCertificatePath: "/etc/env-ca.pem"))
        #expect(try PostgresTarget(url: "postgresql:///", environment: environment).host == "env.example")
        let fromURL = try PostgresTarget(
            url: "postgres://app:url-secret@db.example:5433/catalogue?sslmode=require&sslrootcert=/etc/url-ca.pem", environment: environment)
        #expect(fromURL == PostgresTarget(
            host: "db.example", port: 5433, user: "app", password: "url-secret", database: "catalogue",
            tls: .require, rootCertificatePath: "/etc/url-ca.pem"))
        // PGSSLROOTCERT=system: verify-full with the system's authorities, unless the URL says a weaker mode.
        let system = try PostgresTarget(url: "postgres://db.example", environment: Self.environment(["PGSSLROOTCERT": "system"]))
        #expect(system.tls == .verifyFull && system.rootCertificatePath == nil)
        #expect(throws: PostgresEngineError.badURL(
            "postgres://db.example?sslmode=prefer", reason: "sslrootcert=system needs sslmode=verify-full (its default), not prefer")) {
            try PostgresTarget(url: "postgres://db.example?sslmode=prefer", environment: Self.environment(["PGSSLROOTCERT": "system"]))
        }
        // PGSSLROOTCERT serves only a mode that checks certificates; PGDATABASE defaults to PGUSER's name.
        let preferred = try PostgresTarget(
            url: "postgres://db.example?sslmode=prefer", environment: Self.environment(["PGSSLROOTCERT": "/etc/env-ca.pem", "PGUSER": "u"]))
        #expect(preferred.rootCertificatePath == nil && preferred.database == "u")
    }

    @Test("A socket directory as the host, in the URL, its host parameter or PGHOST; libpq's default socket with no host anywhere")
    func unixSocket() throws {
        let environment = Self.environment(["PGUSER": "app"])
        let cases: [(url: String, variables: [String: String], directory: String, port: Int)] = [
            ("postgres:///catalogue", [:], PostgresTarget.defaultSocketDirectory, 5432),
            ("postgres://%2Ftmp%2Fpg:5433/catalogue", [:], "/tmp/pg", 5433),
            ("postgres://@:5433/catalogue?host=/tmp/pg/", [:], "/tmp/pg", 5433),
            ("postgres://db.example/catalogue?host=/tmp/pg", [:], "/tmp/pg", 5432),
            ("postgres:///catalogue", ["PGHOST": "/run/pg", "PGPORT": "6000"], "/run/pg", 6000),
        ]
        for (url, variables, directory, port) in cases {
            let target = try PostgresTarget(url: url, environment: environment.merging(variables) { $1 })
            #expect(target.socketDirectory == directory, "\(url)")
            #expect(target.socketPath == "\(directory)/.s.PGSQL.\(port)", "\(url)")
            #expect(target.host == "localhost", "\(url)")
            #expect(target.description == "postgres://app@:\(port)/catalogue?host=\(directory)", "\(url)")
        }
        // A host parameter that names a host is TCP; an empty one is a mistake.
        #expect(try PostgresTarget(url: "postgres:///catalogue?host=db.example", environment: environment).socketDirectory == nil)
        #expect(throws: PostgresEngineError.badURL(
            "postgres:///catalogue?host=", reason: "host needs a name, an address or a socket directory: host=NAME")) {
            try PostgresTarget(url: "postgres:///catalogue?host=", environment: environment)
        }
        // The password file knows a socket connection as localhost, or by its directory.
        let file = try Self.passwordFile(["/tmp/pg:5433:*:app:by-directory", "localhost:*:*:app:by-localhost"])
        defer { unlink(file) }
        #expect(try PostgresTarget(url: "postgres://%2Ftmp%2Fpg:5433/c", environment: ["PGPASSFILE": file, "PGUSER": "app"]).password
            == "by-directory")
        #expect(try PostgresTarget(url: "postgres://%2Ftmp%2Fpg:5432/c", environment: ["PGPASSFILE": file, "PGUSER": "app"]).password
            == "by-localhost")
    }

    @Test("Bad environment variables are one line naming the variable", arguments: [
        (["PGHOST": "db", "PGPORT": "five"], "PGPORT must be a port number, not five"),
        (["PGHOST": "db", "PGPORT": "70000"], "port 70000 is out of range"),
        (["PGHOST": "db", "PGSSLMODE": "allow-ish"], "PGSSLMODE must be one of disable, prefer, require, verify-ca, verify-full, not allow-ish"),
    ])
    func badEnvironment(variables: [String: String], reason: String) {
        #expect(throws: PostgresEngineError.badURL("postgres:///catalogue", reason: reason)) {
            try PostgresTarget(url: "postgres:///catalogue", environment: Self.environment(variables))
        }
    }

    /// Writes `lines` to a new password file with `mode`; returns its path.
    static func passwordFile(_ lines: [String], mode: mode_t = 0o600) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, mode) == 0)
        return path
    }

    @Test("The password file: the first matching line, with * and escapes; after the URL and PGPASSWORD")
    func passwordFile() throws {
        let path = try Self.passwordFile([
            "# host:port:database:user:password",
            "db.example:5432:catalogue:reader:first",
            "db.example:5432:catalogue:reader:not-this-one",
            "db.example:*:*:writer:wild",
            "other.example:5433:cat\\:alogue:app:with\\:colon\\\\and-backslash",
            "malformed line",
        ])
        defer { unlink(path) }
        let environment = ["PGPASSFILE": path]
        func password(_ url: String, _ extra: [String: String] = [:]) throws -> String? {
            try PostgresTarget(url: url, environment: environment.merging(extra) { $1 }).password
        }
        #expect(try password("postgres://reader@db.example/catalogue") == "first")
        #expect(try password("postgres://writer@db.example:6000/anything") == "wild")
        #expect(try password("postgres://app@other.example:5433/cat%3Aalogue") == "with:colon\\and-backslash")
        #expect(try password("postgres://reader@db.example/other") == nil)
        #expect(try password("postgres://reader@db.example:5433/catalogue") == nil)
        #expect(try password("postgres://reader@db.example/catalogue", ["PGPASSWORD": "from-env"]) == "from-env")
        #expect(try password("postgres://reader:from-url@db.example/catalogue", ["PGPASSWORD": "from-env"]) == "from-url")
        // HOME's .pgpass when PGPASSFILE is not set.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("home-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(link(path, home + "/.pgpass") == 0)
        #expect(try PostgresTarget(url: "postgres://reader@db.example/catalogue", environment: ["HOME": home]).password == "first")
    }

    @Test("A password from the password file is read again as the file is now; a given one, or one set by hand, is not")
    func passwordFileReread() throws {
        let path = try Self.passwordFile(["db.example:5432:catalogue:reader:first"])
        defer { unlink(path) }
        let environment = ["PGPASSFILE": path]
        let target = try PostgresTarget(url: "postgres://reader@db.example,other.example/catalogue", environment: environment)
        #expect(target.password == "first")
        #expect(target.withPasswordFileReread() == nil, "the file gives the same password")

        try "db.example:5432:catalogue:reader:second\n*:*:*:reader:elsewhere\n".write(toFile: path, atomically: false, encoding: .utf8)
        let renewed = try #require(target.withPasswordFileReread())
        #expect(renewed.password == "second")
        #expect(renewed.description == target.description)
        #expect(renewed.withPasswordFileReread() == nil, "read again with the password it gave")
        // Each host keeps its own line.
        #expect(target.alternatives.first?.password == nil)
        #expect(target.alternatives.first?.withPasswordFileReread()?.password == "elsewhere")

        // Given in the URL or PGPASSWORD, or set by hand: the file is not the password's.
        #expect(try PostgresTarget(url: "postgres://reader:given@db.example/catalogue", environment: environment).withPasswordFileReread() == nil)
        #expect(try PostgresTarget(url: "postgres://reader@db.example/catalogue", environment: environment.merging(["PGPASSWORD": "given"]) { $1 })
            .withPasswordFileReread() == nil)
        var byHand = try PostgresTarget(url: "postgres://reader@db.example/catalogue", environment: environment)
        byHand.password = "by-hand"
        #expect(byHand.withPasswordFileReread() == nil)

        // A file grown readable by others (or gone, or caught half-written) gives no password:
        // the target keeps its own, and a later reading takes the file's once it gives one.
        try "db.example:5432:catalogue:reader:third\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o644) == 0)
        #expect(renewed.withPasswordFileReread() == nil)
        #expect(chmod(path, 0o600) == 0)
        #expect(renewed.withPasswordFileReread()?.password == "third")
    }

    @Test("A password file its group or others can read is ignored, as libpq ignores it")
    func passwordFilePermissions() throws {
        for (mode, used) in [(mode_t(0o600), true), (0o400, true), (0o640, false), (0o604, false), (0o644, false)] {
            let path = try Self.passwordFile(["*:*:*:*:secret"], mode: mode)
            defer { unlink(path) }
            let target = try PostgresTarget(url: "postgres://app@db/catalogue", environment: ["PGPASSFILE": path])
            #expect((target.password == "secret") == used, "mode \(String(mode, radix: 8))")
        }
    }

    /// A directory holding a user's service file (`.pg_service.conf`, as in HOME) and a system
    /// one (`pg_service.conf`, as in PGSYSCONFDIR), and the environment that names them.
    struct ServiceFiles {
        let directory: String
        var environment: [String: String] {
            PostgresTargetTests.environment(["PGSERVICEFILE": directory + "/.pg_service.conf", "PGSYSCONFDIR": directory])
        }

        init(user: [String], system: [String] = []) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgservice-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            try (user.joined(separator: "\n") + "\n").write(toFile: directory + "/.pg_service.conf", atomically: false, encoding: .utf8)
            if !system.isEmpty {
                try (system.joined(separator: "\n") + "\n").write(toFile: directory + "/pg_service.conf", atomically: false, encoding: .utf8)
            }
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test("A service (service=NAME or PGSERVICE) gives what the URL leaves out, before the environment; the user's file before the system's")
    func serviceFile() throws {
        let files = try ServiceFiles(user: [
            "# the team's servers",
            "[other]",
            "host=other.example",
            "",
            "[catalogue]",
            "host = db.example",
            "port=5433",
            "dbname=catalogue",
            "user=reader",
            "password=s3cret",
            "sslmode=verify-full",
            "sslrootcert=/etc/team-ca.pem",
            "application_name=psql",
            "port=9999",
            "[local]",
            "host=/var/run/postgresql",
            "dbname=catalogue",
        ], system: [
            "[catalogue]",
            "host=system.example",
            "[shared]",
            "host=shared.example",
            "port=6000",
        ])
        defer { files.remove() }
        let environment = files.environment.merging(["PGHOST": "env.example", "PGPORT": "7000", "PGUSER": "env_user"]) { $1 }
        let expected = PostgresTarget(
            host: "db.example", port: 5433, user: "reader", password: "s3cret", database: "catalogue",
            tls: .verifyFull, rootCertificatePath: "/etc/team-ca.pem", applicationName: "psql")
        #expect(try PostgresTarget(url: "postgres://?service=catalogue", environment: environment) == expected)
        #expect(try PostgresTarget(url: "postgres:///", environment: environment.merging(["PGSERVICE": "catalogue"]) { $1 }) == expected)
        // What the URL says wins; the URL's service beats PGSERVICE.
        let stated = try PostgresTarget(
            url: "postgres://app@db2.example/other_db?service=catalogue&sslmode=require",
            environment: environment.merging(["PGSERVICE": "other"]) { $1 })
        #expect(stated == PostgresTarget(
            host: "db2.example", port: 5433, user: "app", password: "s3cret", database: "other_db",
            tls: .require, rootCertificatePath: "/etc/team-ca.pem", applicationName: "psql"))
        // A service that leaves things out: the environment, then the defaults.
        let other = try PostgresTarget(url: "postgres://?service=other", environment: environment)
        #expect(other == PostgresTarget(host: "other.example", port: 7000, user: "env_user", database: "env_user"))
        // A socket directory as the service's host.
        let local = try PostgresTarget(url: "postgres://?service=local", environment: files.environment)
        #expect(local.socketPath == "/var/run/postgresql/.s.PGSQL.5432" && local.database == "catalogue")
        // Only in the system's file.
        #expect(try PostgresTarget(url: "postgres://?service=shared", environment: files.environment).host == "shared.example")
    }

    @Test("A service that is not there, or a line its section cannot hold, is one line naming the file and line")
    func badServiceFile() throws {
        let files = try ServiceFiles(user: [
            "[catalogue]",
            "host=db.example",
            "gssencmode=disable",
            "[typo",
            "[noequals]",
            "host db.example",
            "[badport]",
            "port=five",
        ])
        defer { files.remove() }
        let user = files.directory + "/.pg_service.conf"
        let cases: [(url: String, reason: String)] = [
            ("postgres://?service=catalogue", "\(user), line 3: the setting gssencmode is not supported "
                + "(supported: application_name, connect_timeout, dbname, fallback_application_name, host, load_balance_hosts, options, password, port, "
                + "sslcert, sslkey, sslmode, sslrootcert, target_session_attrs, user)"),
            ("postgres://?service=nope", "\(user), line 4: a section is [NAME], not [typo"),
            ("postgres://?service=", "service needs a name: service=NAME"),
        ]
        for (url, reason) in cases {
            #expect(throws: PostgresEngineError.badURL(url, reason: reason)) {
                try PostgresTarget(url: url, environment: files.environment)
            }
        }
        let clean = try ServiceFiles(user: ["[noequals]", "host db.example", "[badport]", "port=five", "[ok]", "host=db"])
        defer { clean.remove() }
        let cleanUser = clean.directory + "/.pg_service.conf"
        let cleanCases: [(url: String, reason: String)] = [
            ("postgres://?service=noequals", "\(cleanUser), line 2: expected key=value, not host db.example"),
            ("postgres://?service=badport", "the service's port must be a port number, not five"),
            ("postgres://?service=missing", "no service missing in \(cleanUser) or \(clean.directory)/pg_service.conf"),
        ]
        for (url, reason) in cleanCases {
            #expect(throws: PostgresEngineError.badURL(url, reason: reason)) {
                try PostgresTarget(url: url, environment: clean.environment)
            }
        }
        // Sections before the one wanted are not checked line by line, as libpq reads them.
        #expect(try PostgresTarget(url: "postgres://?service=ok", environment: clean.environment).host == "db")
    }

    @Test("A client certificate: sslcert and sslkey from the URL, the service or PGSSLCERT and PGSSLKEY, else ~/.postgresql's when there")
    func clientCertificate() throws {
        let files = try ServiceFiles(user: ["[certified]", "host=db.example", "sslcert=/etc/team/client.crt", "sslkey=/etc/team/client.key"])
        defer { files.remove() }
        func paths(_ url: String, _ variables: [String: String] = [:]) throws -> [String?] {
            let target = try PostgresTarget(url: url, environment: files.environment.merging(variables) { $1 })
            return [target.clientCertificatePath, target.clientKeyPath]
        }
        let environment = ["PGSSLCERT": "/env/client.crt", "PGSSLKEY": "/env/client.key"]
        #expect(try paths("postgres://db.example") == [nil, nil])
        #expect(try paths("postgres://db.example?sslcert=url.crt&sslkey=url.key", environment) == ["url.crt", "url.key"])
        #expect(try paths("postgres://db.example", environment) == ["/env/client.crt", "/env/client.key"])
        #expect(try paths("postgres://?service=certified", environment) == ["/etc/team/client.crt", "/etc/team/client.key"])
        #expect(try paths("postgres://?service=certified&sslkey=url.key") == ["/etc/team/client.crt", "url.key"])
        // Without TLS no certificate is sent: the environment's and the service's are not used.
        #expect(try paths("postgres://db.example?sslmode=disable", environment) == [nil, nil])
        #expect(try paths("postgres://?service=certified&sslmode=disable") == [nil, nil])

        // libpq's defaults: ~/.postgresql/postgresql.crt when it exists, with postgresql.key.
        let home = files.directory + "/home"
        try FileManager.default.createDirectory(atPath: home + "/.postgresql", withIntermediateDirectories: true)
        #expect(try paths("postgres://db.example", ["HOME": home]) == [nil, nil])
        #expect(try paths("postgres://db.example?sslcert=url.crt", ["HOME": home]) == ["url.crt", home + "/.postgresql/postgresql.key"])
        try "not checked until a connection\n".write(toFile: home + "/.postgresql/postgresql.crt", atomically: false, encoding: .utf8)
        #expect(try paths("postgres://db.example", ["HOME": home])
            == [home + "/.postgresql/postgresql.crt", home + "/.postgresql/postgresql.key"])
        #expect(try paths("postgres://db.example?sslkey=url.key", ["HOME": home]) == [home + "/.postgresql/postgresql.crt", "url.key"])
        #expect(try paths("postgres://db.example", ["HOME": home, "PGSSLCERT": "/env/client.crt"])
            == ["/env/client.crt", home + "/.postgresql/postgresql.key"])
        #expect(try paths("postgres://db.example?sslmode=disable", ["HOME": home]) == [nil, nil])
        // Nor over a Unix-domain socket, which libpq never encrypts.
        #expect(try paths("postgres:///catalogue?host=/var/run/postgresql", ["HOME": home]) == [nil, nil])
        #expect(try paths("postgres:///catalogue?host=/var/run/postgresql", environment) == [nil, nil])
        // Not in the description.
        #expect(try PostgresTarget(url: "postgres://app@db.example/c?sslcert=url.crt&sslkey=url.key", environment: files.environment)
            .description == "postgres://app@db.example:5432/c")
    }

    @Test("connect_timeout and application_name from the URL, the service, PGCONNECT_TIMEOUT or PGAPPNAME; client_encoding and keepalives accepted")
    func timeoutAndName() throws {
        let files = try ServiceFiles(user: [
            "[named]", "host=db.example", "connect_timeout=7", "application_name=team-app",
            "[fallback]", "host=db.example", "fallback_application_name=team-fallback",
            "[slow]", "host=db.example", "connect_timeout=soon",
        ])
        defer { files.remove() }
        func target(_ url: String, _ variables: [String: String] = [:]) throws -> PostgresTarget {
            try PostgresTarget(url: url, environment: files.environment.merging(variables) { $1 })
        }
        let plain = try target("postgres://db.example")
        #expect(plain.connectTimeout == nil && plain.applicationName == "catalogue")
        let stated = try target("postgres://db.example?connect_timeout=3&application_name=reports&client_encoding=UTF8&keepalives=1")
        #expect(stated.connectTimeout == .seconds(3) && stated.applicationName == "reports")
        let environment = ["PGCONNECT_TIMEOUT": "5", "PGAPPNAME": "from-env"]
        let fromEnvironment = try target("postgres://db.example", environment)
        #expect(fromEnvironment.connectTimeout == .seconds(5) && fromEnvironment.applicationName == "from-env")
        let fromService = try target("postgres://?service=named", environment)
        #expect(fromService.connectTimeout == .seconds(7) && fromService.applicationName == "team-app")
        // A fallback name serves only when no application name is given anywhere.
        #expect(try target("postgres://?service=fallback").applicationName == "team-fallback")
        #expect(try target("postgres://?service=fallback", environment).applicationName == "from-env")
        #expect(try target("postgres://db.example?fallback_application_name=url-fallback").applicationName == "url-fallback")
        #expect(try target("postgres://db.example?application_name=&fallback_application_name=url-fallback").applicationName == "url-fallback")
        // Bad timeouts, each naming where it came from.
        let cases: [(url: String, variables: [String: String], reason: String)] = [
            ("postgres://db.example?connect_timeout=0", [:], "connect_timeout must be whole seconds from 1 to 86400, not 0"),
            ("postgres://db.example?connect_timeout=2.5", [:], "connect_timeout must be whole seconds from 1 to 86400, not 2.5"),
            ("postgres://db.example?connect_timeout=", [:], "connect_timeout must be whole seconds from 1 to 86400, not empty"),
            ("postgres://db.example", ["PGCONNECT_TIMEOUT": "-1"], "PGCONNECT_TIMEOUT must be whole seconds from 1 to 86400, not -1"),
            ("postgres://?service=slow", [:], "the service's connect_timeout must be whole seconds from 1 to 86400, not soon"),
        ]
        for (url, variables, reason) in cases {
            #expect(throws: PostgresEngineError.badURL(url, reason: reason)) { try target(url, variables) }
        }
    }

    @Test("Several hosts, in the URL, its host parameter or PGHOST, are tried in turn: the first is the target, the rest its alternatives")
    func severalHosts() throws {
        let listed = try PostgresTarget(
            url: "postgres://app:secret@a.example:5432,b.example:5433/catalogue?sslmode=require", environment: Self.environment())
        #expect(listed.hosts.map(\.endpointDescription) == ["a.example:5432", "b.example:5433"])
        #expect(listed.hosts.allSatisfy { $0.password == "secret" && $0.user == "app" && $0.tls == .require && $0.database == "catalogue" })
        #expect(listed.description == "postgres://app@a.example:5432,b.example:5433/catalogue")
        #expect(listed.alternatives[0].description == "postgres://app@b.example:5433/catalogue")
        #expect(listed.sessionAttributes == .any)
        // A host without a port takes PGPORT (else 5432); an IPv6 address in brackets, a socket
        // directory percent-encoded, as libpq reads them.
        let mixed = try PostgresTarget(url: "postgres://app@[::1]:5434,b.example,%2Ftmp%2Fpg/c", environment: Self.environment(["PGPORT": "6000"]))
        #expect(mixed.hosts.map(\.endpointDescription) == ["[::1]:5434", "b.example:6000", "/tmp/pg/.s.PGSQL.6000"])
        #expect(mixed.description == "postgres://app@[::1]:5434,b.example:6000,%2Ftmp%2Fpg:6000/c")
        #expect(try PostgresTarget(url: mixed.description, environment: Self.environment()).hosts == mixed.hosts)
        // host= and PGHOST lists, with one port for all or one for each.
        let parameter = try PostgresTarget(url: "postgres://app@/c?host=a.example,b.example", environment: Self.environment(["PGPORT": "5432,5433"]))
        #expect(parameter.hosts.map(\.endpointDescription) == ["a.example:5432", "b.example:5433"])
        let variable = try PostgresTarget(url: "postgres://app@/c", environment: Self.environment(["PGHOST": "a.example,b.example", "PGPORT": "7000"]))
        #expect(variable.hosts.map(\.endpointDescription) == ["a.example:7000", "b.example:7000"])
        // One host: no alternatives, as before.
        #expect(try PostgresTarget(url: "postgres://app@a.example/c", environment: Self.environment()).alternatives.isEmpty)
        // A comma elsewhere (a password, a database name) is not a list of hosts.
        let target = try? PostgresTarget(url: "postgres://app:se,cret@a.example/cata%2Clogue", environment: Self.environment())
        #expect(target?.host == "a.example" && target?.password == "se,cret" && target?.database == "cata,logue" && target?.alternatives == [])
    }

    @Test("Each host of a list takes its own line of the password file")
    func severalHostsPasswords() throws {
        let file = try Self.passwordFile(["a.example:5432:c:app:for-a", "b.example:5433:c:app:for-b"])
        defer { unlink(file) }
        let target = try PostgresTarget(url: "postgres://app@a.example:5432,b.example:5433,c.example/c", environment: ["PGPASSFILE": file])
        #expect(target.hosts.map(\.password) == ["for-a", "for-b", nil])
        // A password in the URL (or PGPASSWORD) serves every host.
        let given = try PostgresTarget(url: "postgres://app:given@a.example:5432,b.example:5433/c", environment: ["PGPASSFILE": file])
        #expect(given.hosts.map(\.password) == ["given", "given"])
    }

    @Test("load_balance_hosts is disable (the default) or random, from the URL, the service or PGLOADBALANCEHOSTS")
    func loadBalanceHosts() throws {
        func balances(_ url: String, _ variables: [String: String] = [:]) throws -> Bool {
            try PostgresTarget(url: url, environment: Self.environment(variables)).loadBalancesHosts
        }
        #expect(try !balances("postgres://app@a.example,b.example/c"))
        #expect(try balances("postgres://app@a.example,b.example/c?load_balance_hosts=random"))
        #expect(try !balances("postgres://app@a.example,b.example/c?load_balance_hosts=disable", ["PGLOADBALANCEHOSTS": "random"]))
        #expect(try balances("postgres://app@a.example,b.example/c", ["PGLOADBALANCEHOSTS": "random"]))
        let files = try ServiceFiles(user: ["[spread]", "host=a.example,b.example", "load_balance_hosts=random"])
        defer { files.remove() }
        #expect(try PostgresTarget(url: "postgres://app@/c?service=spread", environment: files.environment).loadBalancesHosts)
        #expect(throws: PostgresEngineError.badURL(
            "postgres://a.example/c?load_balance_hosts=yes", reason: "load_balance_hosts must be disable or random, not yes")) {
            try PostgresTarget(url: "postgres://a.example/c?load_balance_hosts=yes", environment: Self.environment())
        }
        #expect(throws: PostgresEngineError.badURL("postgres://a.example/c", reason: "PGLOADBALANCEHOSTS must be disable or random, not on")) {
            try PostgresTarget(url: "postgres://a.example/c", environment: Self.environment(["PGLOADBALANCEHOSTS": "on"]))
        }
    }

    @Test("A malformed list of hosts or ports is one line", arguments: [
        ("postgres://app@a.example,,b.example/c", [:], "a list of hosts is HOST:PORT,HOST:PORT (a name, an address or an [IPv6 address], each with a port or not), not a.example,,b.example"),
        ("postgres://app@[::1,b.example/c", [:], "a list of hosts is HOST:PORT,HOST:PORT (a name, an address or an [IPv6 address], each with a port or not), not [::1,b.example"),
        ("postgres://app@a.example:x,b.example/c", [:], "the port of a.example must be a port number, not x"),
        ("postgres://app@a.example:70000,b.example/c", [:], "port 70000 is out of range"),
        ("postgres://app@/c?host=a.example,,b.example", [:], "a list of hosts has no empty names: a.example,,b.example"),
        ("postgres://app@/c", ["PGHOST": "a.example,b.example", "PGPORT": "1,2,3"], "3 ports (1,2,3) for 2 hosts: give one port, or one for each host"),
        ("postgres://app@a.example/c", ["PGPORT": "1,2"], "2 ports (1,2) for 1 host: give one port, or one for each host"),
    ] as [(String, [String: String], String)])
    func badHostLists(url: String, variables: [String: String], reason: String) {
        #expect(throws: PostgresEngineError.badURL(url, reason: reason)) {
            try PostgresTarget(url: url, environment: Self.environment(variables))
        }
    }

    @Test("target_session_attrs takes libpq's six values, from the URL, the service or PGTARGETSESSIONATTRS")
    func sessionAttributes() throws {
        for attributes in PostgresSessionAttributes.allCases {
            let url = "postgres://app@a.example,b.example/c?target_session_attrs=\(attributes.rawValue)"
            #expect(try PostgresTarget(url: url, environment: Self.environment()).sessionAttributes == attributes)
        }
        let variable = try PostgresTarget(url: "postgres://app@a.example/c", environment: Self.environment(["PGTARGETSESSIONATTRS": "primary"]))
        #expect(variable.sessionAttributes == .primary)
        let stated = try PostgresTarget(
            url: "postgres://app@a.example/c?target_session_attrs=standby", environment: Self.environment(["PGTARGETSESSIONATTRS": "primary"]))
        #expect(stated.sessionAttributes == .standby)
        let files = try ServiceFiles(user: ["[pair]", "host=a.example,b.example", "port=5432,5433", "target_session_attrs=read-write"])
        defer { files.remove() }
        let service = try PostgresTarget(url: "postgres://app@/c?service=pair", environment: files.environment)
        #expect(service.sessionAttributes == .readWrite)
        #expect(service.hosts.map(\.endpointDescription) == ["a.example:5432", "b.example:5433"])
        let reason = "target_session_attrs must be one of any, read-write, read-only, primary, standby, prefer-standby, not writable"
        #expect(throws: PostgresEngineError.badURL("postgres://a.example/c?target_session_attrs=writable", reason: reason)) {
            try PostgresTarget(url: "postgres://a.example/c?target_session_attrs=writable", environment: Self.environment())
        }
        #expect(throws: PostgresEngineError.badURL("postgres://a.example/c", reason: "PGTARGETSESSIONATTRS" + reason.dropFirst("target_session_attrs".count))) {
            try PostgresTarget(url: "postgres://a.example/c", environment: Self.environment(["PGTARGETSESSIONATTRS": "writable"]))
        }
        // Which server states each accepts (prefer-standby: a standby first; the engine falls back).
        #expect(PostgresSessionAttributes.readWrite.accepts(inRecovery: false, readOnly: false))
        #expect(!PostgresSessionAttributes.readWrite.accepts(inRecovery: false, readOnly: true))
        #expect(!PostgresSessionAttributes.readWrite.accepts(inRecovery: true, readOnly: true))
        #expect(PostgresSessionAttributes.readOnly.accepts(inRecovery: false, readOnly: true))
        #expect(!PostgresSessionAttributes.readOnly.accepts(inRecovery: false, readOnly: false))
        #expect(PostgresSessionAttributes.primary.accepts(inRecovery: false, readOnly: true))
        #expect(!PostgresSessionAttributes.primary.accepts(inRecovery: true, readOnly: true))
        #expect(PostgresSessionAttributes.standby.accepts(inRecovery: true, readOnly: true))
        #expect(!PostgresSessionAttributes.standby.accepts(inRecovery: false, readOnly: true))
        #expect(PostgresSessionAttributes.any.accepts(inRecovery: true, readOnly: false))
    }

    @Test("sslmode takes libpq's five modes; sslrootcert a file, with a mode that checks certificates", arguments: [
        ("?sslmode=disable", PostgresTarget.TLSMode.disable, nil as String?),
        ("?sslmode=prefer", .prefer, nil),
        ("?sslmode=require", .require, nil),
        ("?sslmode=verify-ca", .verifyCA, nil),
        ("?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem", .verifyFull, "/etc/ssl/ca.pem"),
        ("?sslrootcert=ca.pem&sslmode=require", .require, "ca.pem"),
        // libpq 16: the system's authorities, and verify-full by default.
        ("?sslrootcert=system", .verifyFull, nil),
        ("?sslrootcert=system&sslmode=verify-full", .verifyFull, nil),
    ])
    func tlsModes(query: String, mode: PostgresTarget.TLSMode, rootCertificate: String?) throws {
        let target = try PostgresTarget(url: "postgres://app:secret@db:5433/catalogue" + query, environment: Self.environment())
        #expect(target.tls == mode)
        #expect(target.rootCertificatePath == rootCertificate)
        #expect(target.description == "postgres://app@db:5433/catalogue")
    }

    @Test("options (server settings for each session, e.g. the catalogue's schema) from the URL, the service or PGOPTIONS; shown in the description")
    func sessionOptions() throws {
        func options(_ url: String, _ variables: [String: String] = [:]) throws -> String? {
            try PostgresTarget(url: url, environment: Self.environment(variables)).options
        }
        #expect(try options("postgres://app@db/c") == nil)
        #expect(try options("postgres://app@db/c?options=-c%20search_path%3Dshop") == "-c search_path=shop")
        #expect(try options("postgres://app@db/c?options=", ["PGOPTIONS": "-c search_path=env"]) == "-c search_path=env")
        #expect(try options("postgres://app@db/c?options=-c%20work_mem%3D8MB", ["PGOPTIONS": "-c search_path=env"]) == "-c work_mem=8MB")
        #expect(try options("postgres://app@db/c", ["PGOPTIONS": "-c search_path=env"]) == "-c search_path=env")
        let files = try ServiceFiles(user: ["[staging]", "host=db.example", "options=-c search_path=staging -c work_mem=8MB"])
        defer { files.remove() }
        let service = try PostgresTarget(url: "postgres://app@/c?service=staging", environment: files.environment)
        #expect(service.options == "-c search_path=staging -c work_mem=8MB")
        #expect(service.description == "postgres://app@db.example:5432/c?options=-c%20search_path%3Dstaging%20-c%20work_mem%3D8MB")
        let socket = try PostgresTarget(url: "postgres://app@/c?host=/run/pg&options=-c%20search_path%3Dshop", environment: Self.environment())
        #expect(socket.description == "postgres://app@:5432/c?host=/run/pg&options=-c%20search_path%3Dshop")
        let hosts = try PostgresTarget(url: "postgres://app@a:1,b:2/c?options=-c%20search_path%3Dshop", environment: Self.environment())
        #expect(hosts.description == "postgres://app@a:1,b:2/c?options=-c%20search_path%3Dshop")
        #expect(hosts.alternatives.map(\.options) == ["-c search_path=shop"])
        // Parsed back, the description gives the same options.
        #expect(try options(hosts.description) == "-c search_path=shop")
    }

    @Test("A bad sslmode, sslrootcert, sslcert or sslkey is one line naming what is allowed, the password hidden", arguments: [
        ("?sslmode=verify", "sslmode must be one of disable, prefer, require, verify-ca, verify-full, not verify"),
        ("?sslrootcert=", "sslrootcert needs a file: sslrootcert=PATH"),
        ("?sslrootcert=ca.pem", "sslrootcert needs sslmode=require, verify-ca or verify-full (with prefer no certificate is checked)"),
        ("?sslmode=disable&sslrootcert=ca.pem", "sslrootcert needs sslmode=require, verify-ca or verify-full (with disable no certificate is checked)"),
        ("?sslrootcert=system&sslmode=verify-ca", "sslrootcert=system needs sslmode=verify-full (its default), not verify-ca"),
        ("?sslmode=require&sslrootcert=system", "sslrootcert=system needs sslmode=verify-full (its default), not require"),
        ("?sslcert=", "sslcert needs a file: sslcert=PATH"),
        ("?sslcert=client.crt&sslkey=", "sslkey needs a file: sslkey=PATH"),
        ("?sslkey=client.key", "sslkey needs sslcert=PATH, the certificate the key belongs to"),
        ("?sslmode=disable&sslcert=client.crt", "sslcert needs TLS (with sslmode=disable no certificate is sent)"),
        ("?sslmode=disable&sslkey=client.key", "sslkey needs TLS (with sslmode=disable no certificate is sent)"),
        ("?gssencmode=disable", "unknown parameter gssencmode (known: host, service, sslmode, sslrootcert, sslcert, sslkey, "
            + "connect_timeout, application_name, fallback_application_name, target_session_attrs, load_balance_hosts, options)"),
    ])
    func badTLSParameters(query: String, reason: String) {
        let url = "postgres://app:secret@db:5433/catalogue" + query
        #expect(throws: PostgresEngineError.badURL("postgres://app:***@db:5433/catalogue" + query, reason: reason)) {
            try PostgresTarget(url: url, environment: Self.environment())
        }
    }
}
#endif
