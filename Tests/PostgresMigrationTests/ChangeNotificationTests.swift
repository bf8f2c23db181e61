import Foundation
import PostgresTestSupport
import Testing

/// The triggers: a `catalogue_changes` notification per changing statement, delivered at commit,
/// under PostgreSQL's 8000-byte payload limit, and the same facts in the catalogue_change log,
/// which a reader polls by transaction horizon.
@Suite("PostgreSQL change notifications", .requiresPostgres)
struct ChangeNotificationTests {
    static func product(_ id: Int64, _ name: String) -> String {
        "(\(id), '\(name)', '\(name.lowercased())', 't', 't')"
    }

    @Test("Each committed statement notifies its table, operation and ids; a rollback notifies nothing")
    func notifications() throws {
        let database = try MigratedDatabase.make(prefix: "notify")
        let output = try database.psql("""
            LISTEN catalogue_changes;
            INSERT INTO product (id, name, name_key, type, type_key) VALUES \(Self.product(1, "A")), \(Self.product(2, "B"));
            UPDATE product SET price = 1 WHERE id = 2;
            UPDATE product SET price = 1 WHERE id = 99;
            DELETE FROM product WHERE id = 1;
            BEGIN;
            INSERT INTO product (id, name, name_key, type, type_key) VALUES \(Self.product(3, "C"));
            ROLLBACK;
            INSERT INTO product (id, name, name_key, type, type_key)
              SELECT 1000 + g, 'p' || g, 'p' || g, 't', 't' FROM generate_series(1, 501) g;
            TRUNCATE product;
            INSERT INTO country (id, code, name, name_key) VALUES (7, 'CI', 'Côte d''Ivoire', 'cote d''ivoire');
            INSERT INTO country_alias VALUES (7, 'Ivory Coast', 'ivory coast');
            """)
        let notifications = try ChangeNotification.all(in: output)
        #expect(notifications == [
            ChangeNotification(table: "product", op: "insert", ids: [1, 2], reload: nil),
            ChangeNotification(table: "product", op: "update", ids: [2], reload: nil),
            ChangeNotification(table: "product", op: "delete", ids: [1], reload: nil),
            ChangeNotification(table: "product", op: "insert", ids: nil, reload: true),
            ChangeNotification(table: "product", op: "truncate", ids: nil, reload: true),
            ChangeNotification(table: "country", op: "insert", ids: [7], reload: nil),
            ChangeNotification(table: "country_alias", op: "insert", ids: [7], reload: nil),
        ])
        let log = try database.psql("SELECT table_name, op, coalesce(row_id::text, 'reload') FROM catalogue_change ORDER BY seq")
        #expect(log == """
            product|insert|1
            product|insert|2
            product|update|2
            product|delete|1
            product|insert|reload
            product|truncate|reload
            country|insert|7
            country_alias|insert|7

            """)
    }

    @Test("An update reports the ids before and after, once each")
    func updatedIDs() throws {
        let database = try MigratedDatabase.make(prefix: "update_ids")
        let output = try database.psql("""
            INSERT INTO product (id, name, name_key, type, type_key) VALUES \(Self.product(1, "A")), \(Self.product(2, "B"));
            LISTEN catalogue_changes;
            UPDATE product SET id = id + 10;
            """)
        #expect(try ChangeNotification.all(in: output) == [
            ChangeNotification(table: "product", op: "update", ids: [1, 2, 11, 12], reload: nil),
        ])
    }

    @Test("A payload that would reach 8000 bytes becomes a reload", arguments: [(300, false), (450, true)])
    func payloadLimit(rows: Int, reload: Bool) throws {
        let database = try MigratedDatabase.make(prefix: "payload")
        // 19-digit ids: 300 of them fit in 8000 bytes, 450 do not.
        let output = try database.psql("""
            LISTEN catalogue_changes;
            INSERT INTO product (id, name, name_key, type, type_key)
              SELECT 9000000000000000000 + g, 'p' || g, 'p' || g, 't', 't' FROM generate_series(1, \(rows)) g;
            """)
        let notification = try #require(try ChangeNotification.all(in: output).first)
        #expect(notification.reload == (reload ? true : nil))
        #expect(notification.ids?.count == (reload ? nil : rows))
        #expect(try database.psql("SELECT count(*), count(row_id) FROM catalogue_change") == (reload ? "1|0\n" : "\(rows)|\(rows)\n"))
    }

    @Test("Polling the log by transaction horizon misses no commit, where polling by seq does")
    func pollingByHorizon() async throws {
        let database = try MigratedDatabase.make(prefix: "poll")
        try database.psql("CREATE TABLE go (done boolean)")
        let start = try database.psql("SELECT pg_snapshot_xmin(pg_current_snapshot())")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let poll = "SELECT row_id FROM catalogue_change WHERE xid >= :'horizon'::xid8 AND xid < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY xid, seq"

        // A slow writer: takes its seq first, then waits for `go` before committing. On a thread
        // of its own: the cooperative pool may be busy with blocking tests for longer than the
        // deadline below.
        let slow = Task.detached(executorPreference: ThreadPerJobExecutor()) {
            try database.psql("""
                BEGIN;
                INSERT INTO product (id, name, name_key, type, type_key) VALUES \(Self.product(1, "Slow"));
                DO $$ BEGIN WHILE NOT EXISTS (SELECT FROM go) LOOP PERFORM pg_sleep(0.02); END LOOP; END $$;
                COMMIT;
                """)
        }
        let deadline = Date().addingTimeInterval(30)
        while try database.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_xid IS NOT NULL") != "1\n" {
            try #require(Date() < deadline, "the slow writer never started")
            try await Task.sleep(for: .milliseconds(20))
        }
        // A fast writer commits meanwhile, with a larger seq.
        try database.psql("INSERT INTO product (id, name, name_key, type, type_key) VALUES \(Self.product(2, "Fast"))")

        #expect(try database.psql("SELECT row_id FROM catalogue_change ORDER BY seq") == "2\n")  // a seq reader moves past 1
        #expect(try database.psql(poll, variables: ["horizon": start]) == "")  // the horizon waits

        try database.psql("INSERT INTO go VALUES (true)")
        _ = try await slow.value
        #expect(try database.psql("SELECT row_id FROM catalogue_change ORDER BY seq") == "1\n2\n")
        // The horizon is the whole server's oldest open transaction: a transaction of another
        // test running beside this one holds it back a while, never for good.
        var polled = ""
        let settled = Date().addingTimeInterval(60)
        repeat {
            polled = try database.psql(poll, variables: ["horizon": start])
            if polled == "1\n2\n" { break }
            try await Task.sleep(for: .milliseconds(50))
        } while Date() < settled
        #expect(polled == "1\n2\n")
    }
}
