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
/// Statements of a transaction whose connection the server closed fail at once (postgres-nio
/// never answers a query written to a closed connection: without the engine's check, the
/// statement and then the ROLLBACK waited for the statement deadline, and an import, which has
/// none, for ever).
@Suite("Statements on a lost connection", .requiresPostgres, .timeLimit(.minutes(5)))
struct PostgresStatementRunnerTests {
    @Test("A transaction whose server process is terminated fails within seconds; the catalogue goes on")
    func terminatedBackend() throws {
        let database = try PostgresTestServer.shared().createDatabase(prefix: "lost")
        let catalogue = try Catalogue.connect(to: database.url)
        let start = Date()
        var message = ""
        do {
            try catalogue.write { db in
                _ = try db.fetchCount(FetchRequest<Product>())
                try database.server.psql(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :'name' AND pid <> pg_backend_pid()",
                    variables: ["name": database.name])
                // Until this side has seen the connection close.
                Thread.sleep(forTimeInterval: 0.5)
                _ = try db.fetchCount(FetchRequest<Product>())
            }
        } catch {
            message = "\(error)"
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(message.contains("connection lost"), "\(message)")
        #expect(elapsed < 10, "took \(elapsed) s")
        // Its other connections were terminated too: new ones answer.
        var count = -1
        for _ in 0..<5 where count < 0 {
            count = (try? catalogue.read { try $0.fetchCount(FetchRequest<Product>()) }) ?? -1
        }
        #expect(count > 0)
    }
}
#endif
