#if PostgreSQL
import CatalogueCore
import Foundation
import PostgresNIO

/// Change observation on PostgreSQL.
///
/// The schema's triggers log every changed row in `catalogue_change` and, at commit, notify
/// `catalogue_changes` (see `migrations/postgres/0001_initial.sql`). A stream of
/// ``changes(pollingInterval:)`` gets this catalogue's own writes as they commit, with their
/// rows, and other writers' commits:
/// - by **LISTEN** on a connection of its own, as they commit, where the server supports it
///   (``Capabilities/listenNotify``); notifications from this catalogue's own connections are
///   left out (already delivered), and so are those of a catalogue in another schema of the
///   same database (the channel is the database's). A lost connection is reported as a change
///   of anything (`tables` nil) once it is back, since notifications sent meanwhile are lost;
/// - else by **polling** the change log every `pollingInterval`, by transaction horizon (rows
///   of transactions older than every running one are final; a sequence number is not, since
///   it is taken before its transaction commits), leaving out this catalogue's own
///   transactions.
extension PostgresEngine {
    /// The change log's last sequence number and row count: both move with every commit that
    /// changed a row (the log's rows are never updated, and the pruning keeps the last hour).
    public func changeToken() throws -> ChangeToken {
        let sql = "SELECT coalesce(max(seq), 0), count(*) FROM catalogue_change"
        return try onCurrentHost { pool in
            let runner = PostgresStatementRunner(target: .pool(pool), context: pool.context)
            guard let row = try runner.rows(SQLFragment(sql)).first else { return ChangeToken(0, 0) }
            let cells = PostgresRecordRow(row, sql: sql)
            return ChangeToken(try cells.decodeInteger(at: 0), try cells.decodeInteger(at: 1))
        }
    }

    public func changes(pollingInterval: Duration) -> AsyncThrowingStream<DatabaseChange, any Error> {
        if capabilities.listenNotify {
            let ready = DispatchSemaphore(value: 0)
            // On the engine's threads: this call waits for `ready` on its caller's, which may be
            // one of Swift concurrency's few.
            let stream = changeHub.stream(on: BridgeExecutor.shared) { [self] yield in
                try await listen(signalling: ready, yield: yield)
            }
            // Listening before returning: a commit right after this call is reported.
            _ = ready.wait(timeout: .now() + context.options.connectTimeout.dispatchInterval)
            return stream
        }
        // The snapshot is read now: a commit right after this call is reported, and none that
        // this snapshot already sees (the horizon alone is cluster-wide: a transaction left open
        // in another database would let commits from before this call through, the catalogue's
        // own seed among them).
        let start = try? currentSnapshot()
        return changeHub.stream(on: BridgeExecutor.shared) { [self] yield in
            try await poll(from: start, every: pollingInterval, yield: yield)
        }
    }

    // MARK: - LISTEN

    /// Listens on `catalogue_changes` until cancelled, reconnecting after a lost connection.
    private func listen(signalling ready: DispatchSemaphore, yield: @Sendable (DatabaseChange) -> Void) async throws {
        var signalled = false
        var lost = false
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: listenerConfiguration(), id: 1, logger: context.logger)
                // Closed when the engine chooses another host, so that this loop listens there.
                listenerConnections.withLock { $0[ObjectIdentifier(connection)] = connection }
                defer { listenerConnections.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(connection)) } }
                do {
                    // Returns when the task is cancelled; throws when the connection is lost.
                    try await connection.listen(on: "catalogue_changes") { notifications in
                        if !signalled {
                            signalled = true
                            ready.signal()
                        }
                        if lost {
                            // Notifications sent while disconnected are lost: anything may have changed.
                            yield(DatabaseChange(tables: nil, origin: .elsewhere))
                        }
                        for try await notification in notifications {
                            let (change, backend, schema) = Self.change(fromPayload: notification.payload)
                            // Another catalogue's, in another schema of this database.
                            if let schema, schema != self.schema { continue }
                            // This catalogue's own commits were reported as they committed.
                            if let backend, ownBackends.withLock({ $0.values.contains(backend) }) { continue }
                            yield(change)
                        }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
                lost = true
            } catch is CancellationError {
                break
            } catch {
                if !signalled {
                    signalled = true
                    ready.signal()
                }
                lost = true
            }
            if Task.isCancelled { break }
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    private func listenerConfiguration() -> PostgresConnection.Configuration {
        var configuration = target.connectionConfiguration(tls: context.tls.connection)
        configuration.options.connectTimeout = .seconds(context.options.connectTimeout.components.seconds)
        return configuration
    }

    /// The change a notification payload describes, the backend that wrote it and the schema of
    /// the catalogue it changed (migration 0006; nil before):
    /// `{"table":"product","op":"insert","ids":[1],"pid":4242,"schema":"public"}` or
    /// `{"table":"product","op":"insert","reload":true,"pid":4242,"schema":"public"}`. Alias rows
    /// are reported as changes of their record (the ids are the record's). A payload that does
    /// not parse is a change of anything.
    static func change(fromPayload payload: String) -> (change: DatabaseChange, backend: Int32?, schema: String?) {
        struct Payload: Decodable {
            let table: String
            let ids: [Int64]?
            let pid: Int32?
            let schema: String?
        }
        guard let decoded = try? JSONDecoder().decode(Payload.self, from: Data(payload.utf8)) else {
            return (DatabaseChange(tables: nil, origin: .elsewhere), nil, nil)
        }
        let table = recordTable(of: decoded.table)
        let change = DatabaseChange(tables: [table], rowIDs: decoded.ids.map { [table: Set($0)] } ?? [:], origin: .elsewhere)
        return (change, decoded.pid, decoded.schema)
    }

    /// The record table a changed table belongs to (`country_alias` → `country`).
    static func recordTable(of table: String) -> String {
        table == Country.schema.aliases?.table ? Country.schema.table : table
    }

    // MARK: - Polling

    /// The current snapshot (`xmin:xmax:running`), as text.
    func currentSnapshot() throws -> String {
        let sql = "SELECT pg_current_snapshot()::text"
        return try onCurrentHost { pool in
            let runner = PostgresStatementRunner(target: .pool(pool), context: pool.context)
            guard let row = try runner.rows(SQLFragment(sql)).first else { return "0:0:" }
            return try PostgresRecordRow(row, sql: sql).decodeText(at: 0)
        }
    }

    /// Reads the change log every `interval`, from `start` (the snapshot when the stream began:
    /// what it sees had committed before, and is not reported).
    private func poll(from start: String?, every interval: Duration, yield: @Sendable (DatabaseChange) -> Void) async throws {
        let sql = """
            SELECT h.horizon::text, c.xid::text, c.table_name, c.row_id
            FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon) h
            LEFT JOIN catalogue_change c ON c.xid >= $1::text::xid8 AND c.xid < h.horizon
                AND NOT pg_visible_in_snapshot(c.xid, $2::text::pg_snapshot)
            ORDER BY c.xid, c.seq
            """
        let startSnapshot = start ?? "1:1:"
        var horizon = String(startSnapshot.prefix { $0 != ":" })
        while true {
            try await Task.sleep(for: interval)
            let rows = try await client.query(SQLFragment(sql, [.text(horizon), .text(startSnapshot)]).postgresQuery, logger: context.logger).collect()
            var tables: Set<String> = []
            var ids: [String: Set<Int64>] = [:]
            var reloaded: Set<String> = []
            let own = ownTransactions.withLock { $0 }
            var seenOwn: Set<String> = []
            for row in rows {
                let cells = PostgresRecordRow(row, sql: sql)
                horizon = try cells.decodeText(at: 0)
                guard let xid = try cells.decodeOptionalText(at: 1), let table = try cells.decodeOptionalText(at: 2) else { continue }
                if own.contains(xid) {
                    seenOwn.insert(xid)
                    continue
                }
                let recordTable = Self.recordTable(of: table)
                tables.insert(recordTable)
                if let id = try cells.decodeOptionalInteger(at: 3) {
                    ids[recordTable, default: []].insert(id)
                } else {
                    reloaded.insert(recordTable)
                }
            }
            if !seenOwn.isEmpty {
                ownTransactions.withLock { $0.subtract(seenOwn) }
            }
            if !tables.isEmpty {
                yield(DatabaseChange(tables: tables, rowIDs: ids.filter { !reloaded.contains($0.key) }, origin: .elsewhere))
            }
        }
    }
}
#endif
