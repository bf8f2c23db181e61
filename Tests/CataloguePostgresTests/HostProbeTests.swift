#if PostgreSQL
import CatalogueKit
@testable import CataloguePostgres
import Foundation
import PostgresTestSupport
import Testing

/// A server that goes away and comes back, or refuses the login for a while, with one host in
/// the URL: calls fail at once with why (not after the pool's minute or the lease timeout), and
/// the first call after the server is back is served (not after the pool's back-off).
@Suite("PostgreSQL: a server that is down is said at once, and used again once it is back", .requiresPostgres, .serialized, .timeLimit(.minutes(5)))
struct HostProbeTests {
    /// The error `body` throws (nil when it returns).
    static func failure(_ body: @escaping @Sendable () throws -> Void) async throws -> (any Error)? {
        try await onOwnThread {
            do {
                try body()
                return nil
            } catch {
                return error
            }
        }
    }

    /// The errors of two searches, a read transaction and a write on `catalogue`, each of
    /// which must say that the database is unavailable.
    static func failures(of catalogue: Catalogue, searching search: FetchRequest<Country>) async throws -> [any Error] {
        var errors: [any Error] = []
        for _ in 0..<2 {
            if let error = try await failure({ _ = try catalogue.fetch(search) }) { errors.append(error) }
        }
        if let error = try await failure({ _ = try catalogue.read { try $0.fetchCount(FetchRequest<Country>()) } }) { errors.append(error) }
        if let error = try await failure({ _ = try catalogue.write { try $0.upsert(Country(code: "ZP", name: "Zedland")) } }) { errors.append(error) }
        for error in errors {
            #expect((error as? any DatabaseAvailabilityError)?.isDatabaseUnavailable == true, "\(error)")
        }
        return errors
    }

    /// A new database on the shared server and a superuser role of its own that logs in with
    /// the password "pw-first-Qx7" (distinctive: a message must never contain it).
    static func databaseWithRole(prefix: String) async throws -> (PostgresTestServer, PostgresTestDatabase, role: String) {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            let database = try server.createDatabase(prefix: prefix)
            let role = "\(prefix)_\(getpid())"
            try server.createRole(role, password: "pw-first-Qx7")
            try server.psql("ALTER ROLE :\"role\" SUPERUSER", variables: ["role": role])
            return (server, database, role)
        }
    }

    /// `search` finds Colombia on `catalogue`, and a write there lands in `database`.
    static func expectServed(_ catalogue: Catalogue, searching search: FetchRequest<Country>, database: PostgresTestDatabase) async throws {
        #expect(try await catalogue.fetch(search).map(\.name) == ["Colombia"])
        _ = try await catalogue.write { try $0.upsert(Country(code: "ZP", name: "Zedland")) }
        #expect(try await onOwnThread { try database.psql("SELECT name FROM country WHERE code = 'ZP'") } == "Zedland\n")
    }

    @Test("Stopped: searches, transactions and writes fail with 'connection refused'; restarted: the next call is served")
    func stoppedAndRestarted() async throws {
        let server = try await onOwnThread { try PostgresTestServer.start() }
        defer { try? server.stop() }
        // The catalogue's migration must outlive the crash-like stop below.
        _ = try await onOwnThread { try server.psql("ALTER SYSTEM SET synchronous_commit = on; SELECT pg_reload_conf();") }
        let database = try await onOwnThread { try server.createDatabase(prefix: "probe") }
        var options = PostgresEngine.Options()
        // Long enough that a call which waited for either would be seen failing differently.
        options.leaseTimeout = .seconds(30)
        let catalogue = try await onOwnThread { [options] in try Catalogue.connect(to: database.url, options: options) }
        let search = CatalogueSearch.countries(matching: "bog", scope: .capital)
        #expect(try await catalogue.fetch(search).map(\.name) == ["Colombia"])

        try await onOwnThread { try server.stopImmediately() }
        let refused = "cannot connect to \(database.url): connection refused (is the server running?)"
        // The first call may meet a connection the pool has not yet seen closed; the later ones
        // wait for a connection the pool cannot make, and the probe says why.
        let errors = try await Self.failures(of: catalogue, searching: search)
        #expect(errors.count == 4, "a call on the stopped server answered")
        #expect(errors.dropFirst().map { "\($0)" } == Array(repeating: refused, count: 3))

        try await onOwnThread { try server.restart() }
        // The last dial found the server down; the first call after that answer has stood for
        // its interval dials again, finds the server, and runs on a new pool.
        try await Task.sleep(for: .milliseconds(1_100))
        try await Self.expectServed(catalogue, searching: search, database: database)
    }

    @Test("A login refused while serving fails a waiting call at once with the server's reason; logged in again, the next call is served")
    func refusedLogin() async throws {
        let (server, database, role) = try await Self.databaseWithRole(prefix: "probe_login")
        var options = PostgresEngine.Options()
        // Long enough that a call which waited for the pool would be seen failing differently.
        options.leaseTimeout = .seconds(30)
        let url = server.url(database: database.name, user: role, password: "pw-first-Qx7")
        let catalogue = try await onOwnThread { [options] in try Catalogue.connect(to: url, options: options) }
        let search = CatalogueSearch.countries(matching: "bog", scope: .capital)
        #expect(try await catalogue.fetch(search).map(\.name) == ["Colombia"])

        // The password changes, and the role's connections (the pool's, the listener's) end.
        try await onOwnThread {
            try server.psql("ALTER ROLE :\"role\" PASSWORD 'pw-second-Zr9'", variables: ["role": role])
            try server.terminateConnections(of: role)
        }
        // The first call may meet a connection the pool has not yet seen closed; the later ones
        // wait for a connection the pool cannot log in, and the probe says why.
        let errors = try await Self.failures(of: catalogue, searching: search)
        #expect(errors.count == 4, "a call without a login answered")
        for error in errors.dropFirst() {
            #expect("\(error)".hasPrefix("cannot connect to postgres://\(role)@"), "\(error)")
            #expect("\(error)".hasSuffix(": password authentication failed for user \"\(role)\""), "\(error)")
            #expect(!"\(error)".contains("pw-first") && !"\(error)".contains("pw-second"), "a password in \(error)")
        }

        _ = try await onOwnThread { try server.psql("ALTER ROLE :\"role\" PASSWORD 'pw-first-Qx7'", variables: ["role": role]) }
        // The first call after the last refusal has stood for its interval dials again, logs
        // in, and runs on a new pool.
        try await Task.sleep(for: .milliseconds(1_100))
        try await Self.expectServed(catalogue, searching: search, database: database)
    }

    @Test("A password rotated in the password file is read again once the server refuses the old one: the call that met the refusal runs again with it, and the catalogue goes on")
    func passwordFileRotation() async throws {
        let rotating = try await RotatingPasswordFile.make(prefix: "probe_rotate")
        defer { rotating.remove() }
        var options = PostgresEngine.Options()
        options.leaseTimeout = .seconds(30)
        let catalogue = try await rotating.catalogue(options: options)
        let search = CatalogueSearch.countries(matching: "bog", scope: .capital)
        #expect(try await catalogue.fetch(search).map(\.name) == ["Colombia"])

        // Each time, the first call may meet a connection the pool has not yet seen closed; the
        // next waits for the pool, whose login is refused, finds the file's new password, and
        // runs again on a new pool that logs in with it. None fails for the old password.
        try await rotating.rotate(to: "pw-second-Zr9")
        let searched = try await RotatingPasswordFile.untilServed(attempts: 3) { _ = try catalogue.fetch(search) }
        #expect(searched.served && searched.errors.count <= 1 && !searched.errors.contains { $0.contains("password") }, "\(searched.errors)")
        #expect(catalogue.postgres?.target.password == "pw-second-Zr9")
        try await Self.expectServed(catalogue, searching: search, database: rotating.database)

        // A write, which waits for a lease: it runs again once, and lands once.
        try await rotating.rotate(to: "pw-third-Lm4")
        let attempt = Locked(0)
        let written = try await RotatingPasswordFile.untilServed(attempts: 2) {
            let number = attempt.withLock { value -> Int in
                value += 1
                return value
            }
            _ = try catalogue.write { db in try db.upsert(Product(name: "Rotated \(number)", type: "key")) }
        }
        #expect(written.served && written.errors.count <= 1 && !written.errors.contains { $0.contains("password") }, "\(written.errors)")
        #expect(try await catalogue.fetchCount(FetchRequest<Product>(predicate: .beginsWith("name", "Rotated"))) == 1)
        #expect(catalogue.postgres?.target.password == "pw-third-Lm4")

        // A sectioned controller's fetch, which reads the change token on the pool before its
        // snapshot.
        try await rotating.rotate(to: "pw-fourth-Hv2")
        let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: FetchRequest<Country>(sortDescriptors: .byName))
        let fetched = try await RotatingPasswordFile.untilServed(attempts: 2) { try controller.performFetch() }
        #expect(fetched.served && fetched.errors.count <= 1 && !fetched.errors.contains { $0.contains("password") }, "\(fetched.errors)")
        #expect(controller.fetchedCount > 200)
        #expect(catalogue.postgres?.target.password == "pw-fourth-Hv2")
    }

    @Test("Calls waiting together when the password is rotated in the password file: each runs again with the new password, none waits for the pool's minute")
    func passwordFileRotationUnderConcurrentCalls() async throws {
        let rotating = try await RotatingPasswordFile.make(prefix: "probe_rotate_many")
        defer { rotating.remove() }
        // The default options: a search waits for the pool as long as its statement may run.
        let catalogue = try await rotating.catalogue(options: PostgresEngine.Options())
        let search = CatalogueSearch.countries(matching: "bog", scope: .capital)
        #expect(try await catalogue.fetch(search).map(\.name) == ["Colombia"])

        try await rotating.rotate(to: "pw-second-Zr9")
        // Six searches at once: one dials and finds the new password; the others, waiting for
        // the same pool, learn it from that dial and run again too. Before, they waited until the
        // pool gave up making connections (67 s), and failed.
        let outcomes = await withTaskGroup(of: (Duration, String?).self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let began = ContinuousClock.now
                    let error = try? await Self.failure { _ = try catalogue.fetch(search) }
                    return (ContinuousClock.now - began, error.map { "\($0)" })
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let errors = outcomes.compactMap(\.1)
        // A search may meet a connection the pool has not yet seen closed.
        #expect(errors.count <= 1 && !errors.contains { $0.contains("password") }, "\(errors)")
        #expect(outcomes.allSatisfy { $0.0 < .seconds(30) }, "\(outcomes.map(\.0))")
        #expect(catalogue.postgres?.target.password == "pw-second-Zr9")
        try await Self.expectServed(catalogue, searching: search, database: rotating.database)
    }

    /// Stands in for postgres-nio's `ConnectionPoolError`, whose module it does not export; the
    /// description is the one a pool that had not connected for a minute threw (seen in a run of
    /// the test above without probes).
    struct ConnectionPoolError: Error, CustomStringConvertible {
        let description = "ConnectionPoolError(base: _ConnectionPoolModule.ConnectionPoolError.Base.connectionCreationCircuitBreakerTripped)"
    }

    @Test("The pool's circuit breaker is one line naming the server, and means the database is out of reach")
    func circuitBreaker() throws {
        let target = "postgres://app@db:5432/catalogue"
        let described = try #require(PostgresEngineError.describing(ConnectionPoolError(), target: target) as? PostgresEngineError)
        #expect("\(described)" == "cannot connect to \(target): the pool could make no connection for a minute")
        #expect(described.isDatabaseUnavailable)
    }

    @Test("The errors that mean the database is out of reach, and those that do not")
    func availability() {
        let target = "postgres://app@db:5432/catalogue"
        #expect(PostgresEngineError.cannotConnect(target: target, reason: "connection refused").isDatabaseUnavailable)
        #expect(PostgresEngineError.timedOut(target: target, what: "waiting for a connection", after: .seconds(15)).isDatabaseUnavailable)
        #expect(PostgresEngineError.server(target: target, message: "terminating connection due to administrator command", code: "57P01")
            .isDatabaseUnavailable)
        #expect(PostgresEngineError.server(target: target, message: "the database system is starting up", code: "57P03").isDatabaseUnavailable)
        #expect(PostgresEngineError.server(target: target, message: "connection failure", code: "08006").isDatabaseUnavailable)
        #expect(!PostgresEngineError.timedOut(target: target, what: "SELECT 1", after: .seconds(120)).isDatabaseUnavailable)
        #expect(!PostgresEngineError.server(target: target, message: "duplicate key value", code: "23505").isDatabaseUnavailable)
        #expect(!PostgresEngineError.server(target: target, message: "cannot execute INSERT in a read-only transaction", code: "25006")
            .isDatabaseUnavailable)
        #expect(!PostgresEngineError.badURL("postgres://", reason: "no host").isDatabaseUnavailable)
        #expect(!PostgresEngineError.unusable(target: target, reason: "pg_trgm is missing").isDatabaseUnavailable)
    }
}
#endif
