#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import Foundation
import PostgresTestSupport
import Testing

/// Several hosts in one URL, tried in turn as libpq tries them, against the shared server, a
/// port nothing listens on, and a second server of the suite's own that is read-only by setting
/// (`default_transaction_read_only`, which libpq's `read-write` check treats as a standby does).
@Suite("PostgreSQL: several hosts and target_session_attrs", .requiresPostgres, .serialized, .timeLimit(.minutes(5)))
struct PostgresHostChoiceTests {
    /// The read-only server, started once for the suite; its watchdog removes it when the tests end.
    static let readOnlyServer = Result<PostgresTestServer, any Error> {
        let server = try PostgresTestServer.start()
        try server.psql("ALTER SYSTEM SET default_transaction_read_only = on; SELECT pg_reload_conf();")
        return server
    }

    /// A new catalogue database on the shared server and one of the same name on the read-only
    /// server, migrated and seeded there before it turned read-only (as a standby's copy is).
    static func databases() throws -> (shared: PostgresTestServer, readOnly: PostgresTestServer, name: String) {
        let shared = try PostgresTestServer.shared()
        let readOnly = try readOnlyServer.get()
        let name = try shared.createDatabase(prefix: "hosts").name
        // Each psql session starts read-only there, and sets itself writable.
        try readOnly.psql("""
            SET default_transaction_read_only = off;
            CREATE DATABASE :"name" TEMPLATE \(PostgresTestServer.templateDatabase);
            ALTER DATABASE :"name" SET default_transaction_read_only = off;
            """, variables: ["name": name])
        _ = try Catalogue.connect(to: "postgres://postgres@127.0.0.1:\(readOnly.port)/\(name)")
        try readOnly.psql(
            "SET default_transaction_read_only = off; ALTER DATABASE :\"name\" RESET default_transaction_read_only",
            variables: ["name": name])
        return (shared, readOnly, name)
    }

    /// What opening a URL came to: the host chosen, or the error's text.
    enum Outcome: Hashable {
        case success(String)
        case failure(String)
    }

    /// Opens the catalogue at `url` and searches it.
    static func open(_ url: String) -> Outcome {
        do {
            let catalogue = try Catalogue.connect(to: url)
            let found = try catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital)).map(\.name)
            #expect(found == ["Colombia"], "\(url)")
            return .success(catalogue.postgres?.target.endpointDescription ?? "not PostgreSQL")
        } catch {
            return .failure("\(error)")
        }
    }

    @Test("A host that cannot be reached passes to the next; none reachable names each host and why")
    func unreachableHostPasses() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            let database = try server.createDatabase(prefix: "hosts_down")
            let down = try FreePort.find()
            let url = "postgres://postgres@127.0.0.1:\(down),127.0.0.1:\(server.port)/\(database.name)"
            #expect(Self.open(url) == .success("127.0.0.1:\(server.port)"))
            let other = try FreePort.find()
            let refused = "connection refused (is the server running?)"
            let none = "postgres://postgres@127.0.0.1:\(down),127.0.0.1:\(other)/\(database.name)"
            #expect(Self.open(none) == .failure(
                "cannot connect to \(none): no host could be reached: 127.0.0.1:\(down): \(refused); 127.0.0.1:\(other): \(refused)"))
        }
    }

    @Test("read-write passes over a read-only server; any takes the first that answers; read-only the read-only one")
    func readWriteAndReadOnly() async throws {
        try await onOwnThread {
            let (shared, readOnly, name) = try Self.databases()
            let both = "postgres://postgres@127.0.0.1:\(readOnly.port),127.0.0.1:\(shared.port)/\(name)"
            #expect(Self.open(both + "?target_session_attrs=read-write") == .success("127.0.0.1:\(shared.port)"))
            #expect(Self.open(both + "?target_session_attrs=primary") == .success("127.0.0.1:\(readOnly.port)"))
            #expect(Self.open(both) == .success("127.0.0.1:\(readOnly.port)"))
            let reversed = "postgres://postgres@127.0.0.1:\(shared.port),127.0.0.1:\(readOnly.port)/\(name)"
            #expect(Self.open(reversed + "?target_session_attrs=read-only") == .success("127.0.0.1:\(readOnly.port)"))
            // The catalogue on the read-only server reads; a write there is the server's refusal.
            let catalogue = try Catalogue.connect(to: reversed + "?target_session_attrs=read-only")
            #expect(throws: (any Error).self) { try catalogue.write { try $0.upsert(Country(code: "ZZ", name: "Zedland")) } }
            // One host that does not fit says what it is.
            let only = "postgres://postgres@127.0.0.1:\(readOnly.port)/\(name)?target_session_attrs=read-write"
            #expect(Self.open(only) == .failure("cannot connect to postgres://postgres@127.0.0.1:\(readOnly.port)/\(name): "
                + "the server is read-only (default_transaction_read_only is on) (target_session_attrs=read-write)"))
        }
    }

    @Test("standby finds none here and names each host; prefer-standby falls back to the first that answered")
    func standby() async throws {
        try await onOwnThread {
            let (shared, readOnly, name) = try Self.databases()
            let down = try FreePort.find()
            let hosts = "postgres://postgres@127.0.0.1:\(down),127.0.0.1:\(readOnly.port),127.0.0.1:\(shared.port)/\(name)"
            #expect(Self.open(hosts + "?target_session_attrs=standby") == .failure("cannot connect to \(hosts): no host is a standby "
                + "(target_session_attrs=standby): 127.0.0.1:\(down): connection refused (is the server running?); "
                + "127.0.0.1:\(readOnly.port): not a standby; 127.0.0.1:\(shared.port): not a standby"))
            #expect(Self.open(hosts + "?target_session_attrs=prefer-standby") == .success("127.0.0.1:\(readOnly.port)"))
        }
    }

    @Test("load_balance_hosts=random spreads the opens over the hosts; without it, the first host every time")
    func loadBalanceHosts() async throws {
        try await onOwnThread {
            let (shared, readOnly, name) = try Self.databases()
            let both = "postgres://postgres@127.0.0.1:\(readOnly.port),127.0.0.1:\(shared.port)/\(name)"
            var chosen: [Outcome: Int] = [:]
            for _ in 0..<20 {
                chosen[Self.open(both + "?load_balance_hosts=random"), default: 0] += 1
            }
            // Each host is first with a chance of one in two: both chosen, but for a chance of 2 in 2^20.
            #expect(Set(chosen.keys) == [.success("127.0.0.1:\(readOnly.port)"), .success("127.0.0.1:\(shared.port)")], "\(chosen)")
            for _ in 0..<3 {
                #expect(Self.open(both) == .success("127.0.0.1:\(readOnly.port)"))
            }
            // Random order, then the session attributes: read-write never takes the read-only one.
            for _ in 0..<5 {
                #expect(Self.open(both + "?load_balance_hosts=random&target_session_attrs=read-write") == .success("127.0.0.1:\(shared.port)"))
            }
        }
    }

    @Test("A refused login ends the search, as in libpq: the next host is not tried")
    func refusedLoginStops() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            let database = try server.createDatabase(prefix: "hosts_login")
            let role = "hosts_\(getpid())"
            try server.createRole(role, password: "right")
            try server.psql("GRANT ALL ON DATABASE :\"name\" TO :\"role\"", variables: ["name": database.name, "role": role])
            let url = "postgres://\(role):wrong@127.0.0.1:\(server.port),127.0.0.1:\(server.port)/\(database.name)"
            guard case .failure(let message) = Self.open(url) else {
                Issue.record("a wrong password connected")
                return
            }
            #expect(message.contains("password authentication failed for user \"\(role)\""), "\(message)")
            #expect(!message.contains("no host"), "\(message)")
        }
    }
}
#endif
