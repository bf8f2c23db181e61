#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import Foundation
import PostgresTestSupport
import Testing

/// Following a primary that fails over: two servers of the suite's own hold the same catalogue,
/// and the tests turn the one the catalogue chose read-only (as a demoted primary is) or stop it,
/// while the other takes writes.
@Suite("PostgreSQL: a host that fails over is followed", .requiresPostgres, .serialized, .timeLimit(.minutes(5)))
struct PostgresHostChangeTests {
    /// Two servers with a migrated catalogue database of the same name, both writable.
    struct Servers {
        let first: PostgresTestServer
        let second: PostgresTestServer
        let name: String

        init(prefix: String) throws {
            name = "\(prefix)_\(getpid())"
            first = try PostgresTestServer.start()
            second = try PostgresTestServer.start()
            for server in [first, second] {
                try server.psql("CREATE DATABASE :\"name\" TEMPLATE \(PostgresTestServer.templateDatabase)", variables: ["name": name])
                _ = try Catalogue.connect(to: "postgres://postgres@127.0.0.1:\(server.port)/\(name)")
            }
        }

        /// The URL listing both, the first first, with `query`.
        func url(_ query: String = "") -> String {
            "postgres://postgres@127.0.0.1:\(first.port),127.0.0.1:\(second.port)/\(name)" + query
        }

        func stop() {
            try? first.stop()
            try? second.stop()
        }
    }

    /// Writes with `catalogue` until a write fails (a reloaded setting reaches the pool's open
    /// sessions within moments), for at most five seconds: the error's text, or nil.
    static func firstRefusal(of catalogue: Catalogue, code: String) -> String? {
        for _ in 0..<50 {
            do {
                _ = try catalogue.write { try $0.upsert(zedland(code)) }
            } catch {
                return "\(error)"
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    /// Makes `server` read-only (`on`) or writable for every session, those already open too;
    /// returns once a new session sees it (the postmaster reloads its settings on a signal).
    static func setReadOnly(_ server: PostgresTestServer, _ readOnly: Bool) throws {
        let value = readOnly ? "on" : "off"
        try server.psql("""
            SET default_transaction_read_only = off;
            ALTER SYSTEM SET default_transaction_read_only = \(value);
            SELECT pg_reload_conf();
            """)
        var tries = 0
        while try server.psql("SHOW default_transaction_read_only") != value + "\n", tries < 100 {
            tries += 1
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    static func zedland(_ code: String) -> Country {
        Country(code: code, name: "Zedland \(code)")
    }

    @Test("read-write: a write refused by a demoted primary throws; the next runs on the host that took over, and the change stream follows")
    func demotedPrimary() async throws {
        let servers = try await onOwnThread { try Servers(prefix: "failover_demoted") }
        defer { servers.stop() }
        let (first, second, name) = (servers.first, servers.second, servers.name)
        let url = servers.url("?target_session_attrs=read-write")
        let catalogue = try await onOwnThread {
            try Self.setReadOnly(second, true)
            return try Catalogue.connect(to: url)
        }
        #expect(catalogue.postgres?.target.endpointDescription == "127.0.0.1:\(first.port)")
        let changes = try await onOwnThread { catalogue.changes(pollingInterval: .milliseconds(20)) }
        var iterator = changes.makeAsyncIterator()

        // The failover: the first server turns read-only, the second takes writes.
        try await onOwnThread {
            try Self.setReadOnly(first, true)
            try Self.setReadOnly(second, false)
        }
        let refused = try await onOwnThread { Self.firstRefusal(of: catalogue, code: "ZA") }
        #expect(refused?.contains("read-only transaction") == true, "\(refused ?? "every write landed on the demoted server")")
        _ = try await onOwnThread { try catalogue.write { try $0.upsert(Self.zedland("ZB")) } }
        #expect(catalogue.postgres?.target.endpointDescription == "127.0.0.1:\(second.port)")
        #expect(try await onOwnThread { try second.psql("SELECT name FROM country WHERE code = 'ZB'", database: name) } == "Zedland ZB\n")
        #expect(try await onOwnThread { try first.psql("SELECT count(*) FROM country WHERE code = 'ZB'", database: name) } == "0\n")
        #expect(try await catalogue.fetch(CatalogueSearch.countries(matching: "zedland zb", mode: .words)).map(\.code) == ["ZB"])

        // Another writer on the second server is heard: the listener moved there (it may take
        // a reconnection's half second, so the writer writes until it is heard).
        let other = try await onOwnThread { try Catalogue.connect(to: "postgres://postgres@127.0.0.1:\(second.port)/\(name)") }
        let written = WrittenIDs()
        let writer = Task {
            for letter in UnicodeScalar("A").value...UnicodeScalar("T").value {
                let country = try await other.write { db in try db.upsert(Self.zedland("Y" + String(UnicodeScalar(letter)!))).record }
                await written.add(try #require(country.id))
                try await Task.sleep(for: .milliseconds(300))
            }
        }
        defer { writer.cancel() }
        var heard = false
        while !heard, let change = try await iterator.next() {
            guard change.origin == .elsewhere, let ids = change.changedIDs(of: Country.self) else { continue }
            heard = await written.containsAny(of: ids)
        }
        #expect(heard, "the change stream ended before it heard the writer on the second server")
    }

    /// The host changes an engine reported, in order.
    final class HostChanges: @unchecked Sendable {
        // @unchecked: `changes` is only touched under `lock`.
        private let lock = NSLock()
        private var changes: [String] = []

        func append(_ change: String) { lock.withLock { changes.append(change) } }

        var all: [String] { lock.withLock { changes } }
    }

    /// The ids another catalogue wrote, as the test's tasks learn them.
    actor WrittenIDs {
        private var ids: Set<Int64> = []

        func add(_ id: Int64) { ids.insert(id) }

        func containsAny(of others: Set<Int64>) -> Bool { !ids.isDisjoint(with: others) }
    }

    @Test("A host that stops: the call that meets it throws and hostChanged is told; the next runs on the other host")
    func stoppedHost() async throws {
        let servers = try await onOwnThread { try Servers(prefix: "failover_stopped") }
        defer { servers.stop() }
        let (first, second, name) = (servers.first, servers.second, servers.name)
        let changes = HostChanges()
        var options = PostgresEngine.Options()
        options.leaseTimeout = .seconds(3)
        options.connectTimeout = .seconds(3)
        options.hostChanged = { from, to in changes.append("\(from.endpointDescription) -> \(to.endpointDescription)") }
        let catalogue = try await onOwnThread { [options] in try Catalogue.connect(to: servers.url(), options: options) }
        #expect(catalogue.postgres?.target.endpointDescription == "127.0.0.1:\(first.port)")
        #expect(try await catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital)).map(\.name) == ["Colombia"])

        try await onOwnThread { try first.stopImmediately() }
        let failed = try await onOwnThread { () -> (any Error)? in
            do {
                _ = try catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital))
                return nil
            } catch {
                return error
            }
        }
        #expect(failed != nil, "a search on the stopped server answered")
        #expect(changes.all == ["127.0.0.1:\(first.port) -> 127.0.0.1:\(second.port)"])
        let found = try await onOwnThread { try catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital)).map(\.name) }
        #expect(found == ["Colombia"])
        #expect(catalogue.postgres?.target.endpointDescription == "127.0.0.1:\(second.port)")
        _ = try await onOwnThread { try catalogue.write { try $0.upsert(Self.zedland("ZC")) } }
        #expect(try await onOwnThread { try second.psql("SELECT name FROM country WHERE code = 'ZC'", database: name) } == "Zedland ZC\n")
    }

    @Test("any: a read-only host still serves, and a write it refuses does not change the host")
    func anyKeepsTheHost() async throws {
        let servers = try await onOwnThread { try Servers(prefix: "failover_any") }
        defer { servers.stop() }
        let catalogue = try await onOwnThread { try Catalogue.connect(to: servers.url()) }
        try await onOwnThread { try Self.setReadOnly(servers.first, true) }
        let refused = try await onOwnThread { Self.firstRefusal(of: catalogue, code: "ZD") }
        #expect(refused?.contains("read-only transaction") == true, "\(refused ?? "every write landed on the read-only server")")
        await #expect(throws: (any Error).self) { try await catalogue.write { try $0.upsert(Self.zedland("ZE")) } }
        #expect(catalogue.postgres?.target.endpointDescription == "127.0.0.1:\(servers.first.port)")
        #expect(try await catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital)).map(\.name) == ["Colombia"])
    }
}
#endif
