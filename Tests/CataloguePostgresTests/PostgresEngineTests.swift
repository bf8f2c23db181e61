#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import Foundation
import PostgresTestSupport
import Testing

// Five minutes: in CI's PostgreSQL stage about a hundred synchronous engine tests wait on the
// server on Swift concurrency's two cooperative threads, and a test's clock runs while it waits
// behind them; the polling arm of changesFromElsewhere once exceeded two minutes so (2026-11-27),
// though a change arrives within 20 ms once it runs. A hang still ends the run.
/// Opening a PostgreSQL catalogue: migrations and seeding once, refusal of databases that are
/// not ours or are newer, the README's example, concurrent readers, and other writers' changes
/// by LISTEN and by the change log polled where LISTEN is switched off.
@Suite("PostgreSQL engine", .requiresPostgres, .timeLimit(.minutes(5)))
struct PostgresEngineTests {
    func database() throws -> PostgresTestDatabase {
        try PostgresTestServer.shared().createDatabase(prefix: "engine_own")
    }

    /// Runs a blocking call (connecting, psql) on a dispatch thread, as an app's async code must:
    /// never on one of Swift concurrency's few threads.
    func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    @Test("The README's example: connect, then an async search prints Colombia; 16 searches at once all answer")
    func readmeExample() async throws {
        let url = try await offThread { try database().url }
        let catalogue = try await offThread { try Catalogue.connect(to: url) }
        let results = try await catalogue.search(CatalogueSearch.countries(matching: "bog", scope: .capital))
        #expect(results.records.first?.name == "Colombia")
        #expect(catalogue.location == url)
        #expect(catalogue.engine.name == "PostgreSQL")
        let names = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<16 {
                group.addTask { try await catalogue.fetch(CatalogueSearch.countries(matching: "cote")).map(\.name) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names == Array(repeating: ["Côte d'Ivoire"], count: 16))
    }

    @Test("The server sees each connection as catalogue, or as the URL's application_name")
    func applicationName() async throws {
        for (query, expected) in [("", "catalogue"), ("?application_name=team-reports", "team-reports")] {
            let owned = try await offThread { try database() }
            let catalogue = try await offThread { try Catalogue.connect(to: owned.url + query) }
            _ = try await catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital))
            // Client connections only: an autovacuum worker visiting the new database is listed
            // with it, under no name (CI's run of d993efd saw ",team-reports").
            let names = try await offThread {
                try owned.server.psql(
                    "SELECT string_agg(DISTINCT application_name, ',') FROM pg_stat_activity "
                        + "WHERE datname = :'name' AND backend_type = 'client backend'",
                    variables: ["name": owned.name])
            }
            #expect(names.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(query)")
        }
    }

    @Test("connect_timeout bounds the wait for a server that accepts the connection and never answers")
    func connectTimeout() async throws {
        // A socket that listens and never accepts: the kernel completes the TCP handshake, and
        // the startup message is never answered.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(listening)
        let url = "postgres://app@127.0.0.1:\(UInt16(bigEndian: address.sin_port))/catalogue?sslmode=disable&connect_timeout=1"
        let message = try await offThread { () -> String? in
            do {
                _ = try Catalogue.connect(to: url)
                return nil
            } catch {
                return "\(error)"
            }
        }
        // Not the default 10 s.
        #expect(message == "cannot connect to postgres://app@127.0.0.1:\(UInt16(bigEndian: address.sin_port))/catalogue: "
            + "timed out after 1 s (to wait longer: connect_timeout=SECONDS in the URL, or PGCONNECT_TIMEOUT)")
    }

    @Test("Migrated and seeded once: a second connection finds the same rows; a deleted seed row does not come back")
    func seedOnce() throws {
        let database = try database()
        let first = try Catalogue.connect(to: database.url)
        let countries = try first.fetchCount(FetchRequest<Country>())
        #expect(countries == 250)
        let colombia = try #require(try first.fetch(CatalogueSearch.countries(matching: "colombia")).first)
        try first.write { db in _ = try db.delete(Country.self, id: try #require(colombia.id)) }
        let second = try Catalogue.connect(to: database.url)
        #expect(try second.fetchCount(FetchRequest<Country>()) == 249)
        #expect(try database.psql("SELECT identifier FROM catalogue_migrations ORDER BY identifier")
            == PostgresResources.migrations.map { $0.identifier + "\n" }.joined())
    }

    @Test("An async read cancelled inside its transaction still ends it: no connection goes back to the pool in a transaction")
    func cancelledReadEndsItsTransaction() async throws {
        let database = try database()
        let catalogue = try await offThread { try Catalogue.connect(to: database.url) }
        let request = CatalogueSearch.countries(matching: "a", mode: .contains)
        let (counting, countingStarted) = AsyncStream.makeStream(of: Void.self)
        let reader = Task {
            try await catalogue.read { db in
                // Each count is a statement of the read's transaction; the loop ends only when one
                // is refused because the task was cancelled.
                var first = true
                while true {
                    _ = try db.fetchCount(request)
                    if first { countingStarted.yield() }
                    first = false
                }
            }
        }
        for await _ in counting { break }
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        let inTransaction = try await offThread {
            try database.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'")
        }
        #expect(inTransaction == "0\n")
    }

    @Test("An import, and a bulk upsert staged by COPY, leave nothing in the GIN indexes' pending lists, which every search would read until autovacuum",
          arguments: ["import", "upsert(contentsOf:)"])
    func bulkWritesMergePendingIndexEntries(write: String) throws {
        let database = try database()
        var options = PostgresEngine.Options()
        options.seed = false
        let catalogue = try Catalogue.connect(to: database.url, options: options)
        // Autovacuum (and autoanalyze) also empty the pending lists: on a busy machine it can run
        // between a write and the check, which then would see nothing either way.
        try database.psql("ALTER TABLE product SET (autovacuum_enabled = off)")
        if write == "import" {
            let csv = "name,type\n" + (0..<3_000).map { "Lamp \($0) brass,kitchen\n" }.joined()
            try catalogue.importRecords(Product.self, from: ImportInput(text: csv, name: "lamps.csv"), options: ImportOptions(format: .csv))
        } else {
            let lamps = (0..<3_000).map { Product(name: "Lamp \($0) brass", type: "kitchen") }
            #expect(try catalogue.write { db in try db.upsert(contentsOf: lamps) } == UpsertCounts(inserted: 3_000))
        }
        let pendingPages = """
            SELECT coalesce(sum(gin_clean_pending_list(i.indexrelid)), 0) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'gin' AND i.indrelid = 'product'::regclass
            """
        #expect(try database.psql(pendingPages) == "0\n")
        #expect(try catalogue.fetchCount(CatalogueSearch.products(matching: "brass", mode: .words)) == 3_000)
        // The same rows written without the import do leave pages there (what the check sees).
        try database.psql("INSERT INTO product (name, name_key, type, type_key, words) "
            + "SELECT 'Kettle ' || n, 'kettle ' || n, 'kitchen', 'kitchen', to_tsvector('simple', 'kettle ' || n) FROM generate_series(1, 3000) AS n")
        #expect(try database.psql(pendingPages) != "0\n")
    }

    @Test("A database migrated by a newer version is refused, untouched")
    func newerMigration() throws {
        let database = try database()
        _ = try Catalogue.connect(to: database.url)
        try database.psql("INSERT INTO catalogue_migrations (identifier, checksum) VALUES ('9999_future', 'x')")
        let before = try database.psql("SELECT count(*) FROM country")
        #expect {
            _ = try Catalogue.connect(to: database.url)
        } throws: { error in
            (error as? MigrationError) == .unknownMigration(identifier: "9999_future", path: database.url)
        }
        #expect(try database.psql("SELECT count(*) FROM country") == before)
    }

    @Test("A database migrated by the earlier 0001 (pg_trgm and its indexes in it) opens; an edited 0001 is refused")
    func earlierInitialMigration() throws {
        let database = try database()
        _ = try Catalogue.connect(to: database.url)
        // The checksum the development builds before 0003 recorded for 0001_initial.
        try database.psql("""
            UPDATE catalogue_migrations SET checksum = '7d44ef6fc58c29c0df5cdefba2215b3262ab56dae31703a51e281f456ccfccc4'
            WHERE identifier = '0001_initial'
            """)
        let reopened = try Catalogue.connect(to: database.url)
        #expect(try reopened.fetchCount(FetchRequest<Country>()) == 250)
        #expect(reopened.postgres?.capabilities.trigramIndexes == true)

        try database.psql("UPDATE catalogue_migrations SET checksum = 'edited' WHERE identifier = '0001_initial'")
        #expect {
            _ = try Catalogue.connect(to: database.url)
        } throws: { error in
            (error as? MigrationError) == .modifiedMigration(identifier: "0001_initial", path: database.url)
        }
    }

    @Test("A database with tables of its own that is not a catalogue is refused, untouched")
    func notACatalogue() throws {
        let database = try database()
        try database.psql("CREATE TABLE invoices (id int); INSERT INTO invoices VALUES (1)")
        #expect {
            _ = try Catalogue.connect(to: database.url)
        } throws: { error in
            "\(error)" == "cannot use \(database.url): the database has 1 table but is not a catalogue (no catalogue_migrations); use an empty database"
        }
        #expect(try database.psql("SELECT string_agg(tablename, ',') FROM pg_tables WHERE schemaname = 'public'") == "invoices\n")
    }

    @Test("Another connection's commit arrives with its rows, by LISTEN or (switched off) by polling the change log; this catalogue's own once",
          arguments: [true, false])
    func changesFromElsewhere(listens: Bool) async throws {
        let url = try await offThread { try database().url }
        var options = PostgresEngine.Options()
        options.usesListenNotify = listens
        let catalogue = try await offThread { [options] in try Catalogue.connect(to: url, options: options) }
        #expect(catalogue.postgres?.capabilities.listenNotify == listens)

        let changes = try await offThread { catalogue.changes(pollingInterval: .milliseconds(20)) }
        var iterator = changes.makeAsyncIterator()
        let other = try await offThread { try Catalogue.connect(to: url) }
        let inserted = try await other.write { db in try db.insert(Product(name: "Zebra lamp", type: "thing")) }
        let change = try #require(try await iterator.next())
        #expect(change.origin == .elsewhere)
        #expect(change.changedIDs(of: Product.self) == [try #require(inserted.id)], "\(change)")

        // This catalogue's own write is reported once, as its own, not again from the log.
        let own = try await catalogue.write { db in try db.insert(Product(name: "Yak bell", type: "thing")) }
        let ownChange = try #require(try await iterator.next())
        #expect(ownChange.origin == .thisCatalogue)
        #expect(ownChange.changedIDs(of: Product.self) == [try #require(own.id)])
        let third = try await other.write { db in try db.insert(Product(name: "Xylophone", type: "thing")) }
        let next = try #require(try await iterator.next())
        #expect(next.origin == .elsewhere)
        #expect(next.changedIDs(of: Product.self) == [try #require(third.id)], "\(next)")
    }
}
#endif
