import CatalogueKit
import Foundation
import PostgresTestSupport
import Testing
#if PostgreSQL
import CataloguePostgres
#endif

/// The engines the suites of this target run on, as a test argument: SQLite (a database file)
/// always; PostgreSQL (a database of its own on the throwaway test server) in a build with the
/// PostgreSQL trait, where the server can start (and always under CI, where a missing server
/// must fail the tests: see ``PostgresTestServer/testsShouldRun(availability:environment:)``).
///
/// ```swift
/// @Test(arguments: EngineUnderTest.all)
/// func prefix(engine: EngineUnderTest) throws {
///     let catalogue = try engine.makeCatalogue()
///     #expect(try catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital)).map(\.name) == ["Colombia"])
/// }
/// ```
enum EngineUnderTest: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String {
        self == .sqlite ? "SQLite" : "PostgreSQL"
    }

    /// Every engine this test run covers: those built in and available, less those that
    /// `CATALOGUE_TEST_ENGINES` leaves out (CI's PostgreSQL stage sets it to `postgres`: the
    /// stage before it ran these suites on SQLite).
    static var all: [EngineUnderTest] {
        #if PostgreSQL
        let available: [EngineUnderTest] = PostgresTestServer.testsShouldRun() ? [.sqlite, .postgres] : [.sqlite]
        #else
        let available: [EngineUnderTest] = [.sqlite]
        #endif
        return selected(from: available, environment: ProcessInfo.processInfo.environment)
    }

    /// The engines of `available` that `CATALOGUE_TEST_ENGINES` (a comma-separated list of
    /// `sqlite` and `postgres`) names, or all of them when it is unset or empty. A name that is no
    /// engine, or a list that leaves none, stops the run: it would otherwise test nothing.
    ///
    /// ```swift
    /// EngineUnderTest.selected(from: [.sqlite, .postgres], environment: ["CATALOGUE_TEST_ENGINES": "postgres"])  // [.postgres]
    /// ```
    static func selected(from available: [EngineUnderTest], environment: [String: String]) -> [EngineUnderTest] {
        guard let list = environment["CATALOGUE_TEST_ENGINES"], !list.isEmpty else { return available }
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let wanted = names.map { name -> EngineUnderTest in
            guard let engine = EngineUnderTest(rawValue: name) else {
                preconditionFailure("CATALOGUE_TEST_ENGINES: \(name) is no engine (sqlite, postgres)")
            }
            return engine
        }
        let engines = available.filter(wanted.contains)
        precondition(!engines.isEmpty, "CATALOGUE_TEST_ENGINES=\(list) leaves no engine of \(available.map(\.rawValue)) to test")
        return engines
    }

    /// A new catalogue of its own on this engine (seeded unless `seed` is false), with the app's
    /// migrations for this engine, if any (an app's own record types).
    func makeCatalogue(seed: Bool = true, appMigrations: [Migration] = []) throws -> Catalogue {
        try makeStore(seed: seed, appMigrations: appMigrations).catalogue
    }

    /// A new database of its own on this engine, and a catalogue open on it.
    func makeStore(seed: Bool = true, appMigrations: [Migration] = []) throws -> TestStore {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("CatalogueEngineTests-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("catalogue.sqlite").path
            TestStore.removeAtExit(directory)
            let catalogue = try Catalogue(path: path, seed: seed, appMigrations: appMigrations)
            return TestStore(engine: self, location: path, catalogue: catalogue, seed: seed)
        case .postgres:
            #if PostgreSQL
            let server = try PostgresTestServer.shared()
            let template = seed ? Self.seededPostgresTemplate : Self.unseededPostgresTemplate
            let database = try server.createDatabase(prefix: "engine", template: try template.get())
            var options = PostgresEngine.Options()
            options.seed = seed
            options.appMigrations = appMigrations
            return TestStore(engine: self, location: database.url, catalogue: try Catalogue.connect(to: database.url, options: options), seed: seed)
            #else
            fatalError("PostgreSQL is not built in (swift test --traits PostgreSQL)")
            #endif
        }
    }

    #if PostgreSQL
    /// A database the PostgreSQL engine migrated and seeded once, which each seeded store is a
    /// copy of (`CREATE DATABASE … TEMPLATE`): the same tables, rows and sequences as a seeding of
    /// its own, in 0.2 s instead of the 1.6 s that migrating and seeding take (measured with the
    /// debug binary). The migration and first-use tests make their databases themselves.
    private static let seededPostgresTemplate = Result<String, any Error> { try makePostgresTemplate(seed: true) }
    /// The same, migrated and not seeded, for the stores made with `seed: false`.
    private static let unseededPostgresTemplate = Result<String, any Error> { try makePostgresTemplate(seed: false) }

    /// A new database the PostgreSQL engine has migrated (and seeded when `seed` is true), with
    /// no connection left open on it, as a template must be.
    private static func makePostgresTemplate(seed: Bool) throws -> String {
        let server = try PostgresTestServer.shared()
        let database = try server.createDatabase(prefix: seed ? "engine_seeded" : "engine_migrated")
        var options = PostgresEngine.Options()
        options.seed = seed
        // The catalogue's pool closes its connections when it goes; a template must have none.
        _ = try Catalogue.connect(to: database.url, options: options)
        guard try database.waitForNoSessions(timeout: 60) else {
            throw PostgresTestServerError.commandFailed(
                command: "wait for the \(seed ? "seeded" : "migrated") template's connections to close", status: 1, output: "still open after 60 s")
        }
        return database.name
    }
    #endif

    /// A seeded catalogue shared by the read-only tests of this run, one per engine.
    func sharedSeededCatalogue() throws -> Catalogue {
        try Self.shared.withLock { shared in
            if let catalogue = shared[self] { return catalogue }
            let catalogue = try makeCatalogue()
            shared[self] = catalogue
            return catalogue
        }
    }

    private static let shared = Mutex<[EngineUnderTest: Catalogue]>([:])
}

/// A catalogue under test and where its database is, so a second connection (another
/// `Catalogue` on the same file or database, as another process would open it) can be made.
struct TestStore: Sendable {
    let engine: EngineUnderTest
    /// The file path or `postgres://` URL.
    let location: String
    let catalogue: Catalogue
    let seed: Bool

    /// Another catalogue on the same database: its own connection(s), as another process's,
    /// with the app's migrations it was made with, if any.
    func openAgain(appMigrations: [Migration] = []) throws -> Catalogue {
        switch engine {
        case .sqlite:
            return try Catalogue(path: location, seed: seed, appMigrations: appMigrations)
        case .postgres:
            #if PostgreSQL
            var options = PostgresEngine.Options()
            options.seed = seed
            options.appMigrations = appMigrations
            return try Catalogue.connect(to: location, options: options)
            #else
            fatalError("PostgreSQL is not built in")
            #endif
        }
    }

    private static let directories = Mutex<[URL]?>(nil)

    /// Removes `directory` when the test process exits.
    static func removeAtExit(_ directory: URL) {
        directories.withLock { list in
            if list == nil {
                list = []
                atexit {
                    for directory in TestStore.directories.withLock({ $0 ?? [] }) {
                        try? FileManager.default.removeItem(at: directory)
                    }
                }
            }
            list?.append(directory)
        }
    }
}

/// A value behind a lock.
final class Mutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// PostgreSQL tests report themselves skipped here, with the reason and the apt-get line, when
/// this machine has no PostgreSQL (the engine-parameterized tests then run on SQLite only).
@Suite("Engines under test")
struct EnginesUnderTestTests {
    @Test("PostgreSQL runs the engine suites too", .requiresPostgres)
    func postgresIsCovered() throws {
        #if PostgreSQL
        #expect(EngineUnderTest.all.contains(.postgres))
        _ = try PostgresTestServer.shared()
        #else
        // A build without the PostgreSQL trait covers SQLite only: `swift test --traits PostgreSQL`.
        #expect(EngineUnderTest.all == [.sqlite])
        #endif
    }

    @Test("CATALOGUE_TEST_ENGINES picks among the available engines; unset or empty, all of them")
    func selectedEngines() {
        let both: [EngineUnderTest] = [.sqlite, .postgres]
        #expect(EngineUnderTest.selected(from: both, environment: [:]) == both)
        #expect(EngineUnderTest.selected(from: both, environment: ["CATALOGUE_TEST_ENGINES": ""]) == both)
        #expect(EngineUnderTest.selected(from: both, environment: ["CATALOGUE_TEST_ENGINES": "postgres"]) == [.postgres])
        #expect(EngineUnderTest.selected(from: both, environment: ["CATALOGUE_TEST_ENGINES": "sqlite"]) == [.sqlite])
        #expect(EngineUnderTest.selected(from: both, environment: ["CATALOGUE_TEST_ENGINES": "postgres, sqlite"]) == both)
        #expect(EngineUnderTest.selected(from: [.sqlite], environment: ["CATALOGUE_TEST_ENGINES": "sqlite,postgres"]) == [.sqlite])
    }
}
