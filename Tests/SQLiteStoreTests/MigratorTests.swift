import Foundation
import SQLiteStore
import Testing

/// `Migrator` against database files.
@Suite("Migrator")
struct MigratorTests {
    static let first = Migration(identifier: "0001_create_note", sql: """
        CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
        INSERT INTO note (text) VALUES ('first');
        """)
    static let second = Migration(identifier: "0002_note_tag", sql: "ALTER TABLE note ADD COLUMN tag TEXT;")
    static let third = Migration(identifier: "0003_tag_index", sql: """
        CREATE INDEX note_tag ON note (tag);
        UPDATE note SET tag = 'migrated';
        """)
    static let future = Migration(identifier: "0099_future", sql: "CREATE TABLE future (a);")

    static func applied(_ db: Connection, table: String = "schema_migrations") throws -> [String] {
        try db.fetchAll("SELECT identifier FROM \(table) ORDER BY identifier") { try $0.decode(String.self, at: 0) }
    }

    /// The bytes of every file in the directory, after every connection to it was closed.
    static func snapshot(_ directory: TemporaryDirectory) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try directory.fileNames() { files[name] = directory.contents(of: name) }
        return files
    }

    /// Migrates a new database file with `migrations`, checkpoints it and closes it.
    static func prepareFile(_ path: String, with migrations: [Migration]) throws {
        let db = try Connection(path: path)
        try Migrator(migrations: migrations).migrate(db)
        try checkpoint(db)
    }

    @Test("a fresh database applies every migration, in order, and records identifier and checksum")
    func freshDatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Connection(path: directory.path("fresh.sqlite"))
        let migrator = try Migrator(migrations: [Self.third, Self.first, Self.second])
        #expect(try migrator.pendingMigrations(db).map(\.identifier) == ["0001_create_note", "0002_note_tag", "0003_tag_index"])
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master") == 0)  // pendingMigrations only reads

        let applied = try migrator.migrate(db)
        #expect(applied == ["0001_create_note", "0002_note_tag", "0003_tag_index"])
        let rows = try db.fetchAll("SELECT identifier, checksum, applied_at FROM schema_migrations ORDER BY identifier") {
            [try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1), try $0.decode(String.self, at: 2)]
        }
        #expect(rows.map { [$0[0], $0[1]] } == [Self.first, Self.second, Self.third].map { [$0.identifier, $0.checksum] })
        #expect(rows[0][1] == SHA256.hexDigest(of: Array(Self.first.sql.utf8)))
        for row in rows {
            #expect(row[2].wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil, "applied_at \(row[2])")
        }
        #expect(try db.fetchAll("SELECT text, tag FROM note") { $0.values } == [[.text("first"), .text("migrated")]])
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'note_tag'") == 1)
        #expect(try migrator.pendingMigrations(db).isEmpty)
        #expect(try migrator.migrate(db) == [])
    }

    @Test("a later build applies only the new migrations")
    func incremental() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("incremental.sqlite")
        try Self.prepareFile(path, with: [Self.first])
        let db = try Connection(path: path)
        let migrator = try Migrator(migrations: [Self.first, Self.second, Self.third])
        #expect(try migrator.pendingMigrations(db).map(\.identifier) == ["0002_note_tag", "0003_tag_index"])
        #expect(try migrator.migrate(db) == ["0002_note_tag", "0003_tag_index"])
        #expect(try Self.applied(db) == ["0001_create_note", "0002_note_tag", "0003_tag_index"])
    }

    @Test("reopening an up-to-date database is a no-op that writes nothing")
    func reopenWritesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("steady.sqlite")
        let migrations = [Self.first, Self.second, Self.third]
        try Self.prepareFile(path, with: migrations)
        let before = try Self.snapshot(directory)
        #expect(before.keys.sorted() == ["steady.sqlite"])

        do {
            let observer = try Connection(path: path)
            let dataVersion: Int? = try observer.scalar("PRAGMA data_version")
            let db = try Connection(path: path)
            #expect(try Migrator(migrations: migrations).migrate(db) == [])
            #expect(db.totalChangedRowCount == 0)
            #expect(!db.isInTransaction)
            #expect(try observer.scalar("PRAGMA data_version") == dataVersion)
            // The write-ahead log holds no frame: nothing was written.
            #expect(try observer.fetchOne("PRAGMA wal_checkpoint") { try $0.decode(Int.self, at: 1) } == 0)
        }
        #expect(try Self.snapshot(directory) == before)
    }

    @Test("a database with an unknown, newer migration is refused and left byte for byte unchanged")
    func unknownMigration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("newer.sqlite")
        try Self.prepareFile(path, with: [Self.first, Self.second, Self.future])
        let before = try Self.snapshot(directory)
        #expect(before.keys.sorted() == ["newer.sqlite"])

        let older = try Migrator(migrations: [Self.first, Self.second, Self.third])
        do {
            let db = try Connection(path: path)
            let expected = MigrationError.unknownMigration(identifier: "0099_future", path: path)
            #expect(throws: expected) { try older.migrate(db) }
            #expect(throws: expected) { try older.pendingMigrations(db) }
            #expect(db.totalChangedRowCount == 0)
            #expect(!db.isInTransaction)
        }
        #expect(try Self.snapshot(directory) == before)
        // Nothing was lost: the newer build still finds everything it applied.
        let db = try Connection(path: path)
        #expect(try Self.applied(db) == ["0001_create_note", "0002_note_tag", "0099_future"])
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'future'") == 1)
    }

    @Test("a migration edited after it was applied is refused, and the file is unchanged")
    func modifiedMigration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("edited.sqlite")
        try Self.prepareFile(path, with: [Self.first, Self.second])
        let before = try Self.snapshot(directory)
        let edited = Migration(identifier: Self.second.identifier, sql: "ALTER TABLE note ADD COLUMN label TEXT;")
        do {
            let db = try Connection(path: path)
            let migrator = try Migrator(migrations: [Self.first, edited, Self.third])
            #expect(throws: MigrationError.modifiedMigration(identifier: "0002_note_tag", path: path)) {
                try migrator.migrate(db)
            }
            #expect(try db.fetchAll("PRAGMA table_info(note)") { try $0.decode(String.self, named: "name") }
                == ["id", "text", "tag"])
        }
        #expect(try Self.snapshot(directory) == before)
    }

    @Test("a known migration missing before an applied one is refused")
    func missingMigration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("gap.sqlite")
        let skipsSecond = Migration(identifier: "0003_tag_index", sql: "CREATE TABLE other (a);")
        try Self.prepareFile(path, with: [Self.first, skipsSecond])
        let before = try Self.snapshot(directory)
        do {
            let db = try Connection(path: path)
            let migrator = try Migrator(migrations: [Self.first, Self.second, skipsSecond])
            let expected = MigrationError.missingMigration(identifier: "0002_note_tag", path: path)
            #expect(throws: expected) { try migrator.pendingMigrations(db) }
            #expect(throws: expected) { try migrator.migrate(db) }
            #expect(try Self.applied(db) == ["0001_create_note", "0003_tag_index"])
        }
        #expect(try Self.snapshot(directory) == before)
    }

    @Test("each migration runs in its own transaction: a failing one leaves no trace, earlier ones stay")
    func failingMigration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Connection(path: directory.path("failing.sqlite"))
        let broken = Migration(identifier: "0002_broken", sql: """
            CREATE TABLE half (x);
            CREATE INDEX half_x ON half (x);
            INSERT INTO note (text) VALUES ('from broken');
            INSERT INTO nope VALUES (1);
            """)
        let error = try #require(throws: DatabaseError.self) {
            try Migrator(migrations: [Self.first, broken, Self.third]).migrate(db)
        }
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.extendedResultCode == .SQLITE_ERROR)
        #expect(error.message == "no such table: nope")
        #expect(error.sql == "INSERT INTO nope VALUES (1)")
        #expect(!db.isInTransaction)
        #expect(try Self.applied(db) == ["0001_create_note"])
        #expect(try db.fetchAll("SELECT name FROM sqlite_master ORDER BY name") { try $0.decode(String.self, at: 0) }
            == ["note", "schema_migrations"])
        #expect(try db.fetchAll("SELECT text FROM note") { try $0.decode(String.self, at: 0) } == ["first"])

        // Once fixed, the migration applies on top of the first one.
        let fixed = try Migrator(migrations: [Self.first, Self.second, Self.third])
        #expect(try fixed.migrate(db) == ["0002_note_tag", "0003_tag_index"])
    }

    @Test("migrations can be recorded in another table, independently")
    func customTable() throws {
        let db = try Connection(path: ":memory:")
        try Migrator(migrations: [Self.first]).migrate(db)
        let app = try Migrator(migrations: [Migration(identifier: "0001_app", sql: "CREATE TABLE app (a);")],
                               tableName: "app_migrations")
        #expect(try app.migrate(db) == ["0001_app"])
        #expect(try Self.applied(db, table: "app_migrations") == ["0001_app"])
        #expect(try Self.applied(db) == ["0001_create_note"])
    }

    @Test("several connections migrating the same file at once apply each migration exactly once")
    func concurrentMigrators() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("race.sqlite")
        _ = try Connection(path: path)  // created, in WAL mode, before the race
        let migrator = try Migrator(migrations: [Self.first, Self.second, Self.third])
        let results = AppliedBox()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let db = try Connection(path: path)
                results.add(try migrator.migrate(db))
            } catch {
                results.fail(error)
            }
        }
        #expect(results.errors.isEmpty, "\(results.errors)")
        #expect(results.identifiers.sorted() == ["0001_create_note", "0002_note_tag", "0003_tag_index"])
        #expect(try Self.applied(Connection(path: path)) == ["0001_create_note", "0002_note_tag", "0003_tag_index"])
    }
}

/// Collects what concurrent migrators applied.
private final class AppliedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var applied: [String] = []
    private var failures: [String] = []

    func add(_ identifiers: [String]) { lock.withLock { applied += identifiers } }
    func fail(_ error: any Error) { lock.withLock { failures.append("\(error)") } }
    var identifiers: [String] { lock.withLock { applied } }
    var errors: [String] { lock.withLock { failures } }
}
