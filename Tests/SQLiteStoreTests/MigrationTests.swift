import SQLiteStore
import Testing

/// `Migration` values, file names, and what `Migrator` accepts before it touches a database.
@Suite("Migration")
struct MigrationTests {
    @Test("a well-named file gives its identifier and checksum", arguments: [
        ("0001_initial.sql", "0001_initial"),
        ("0002_product_barcode.sql", "0002_product_barcode"),
        ("12345_Add_Index_2.sql", "12345_Add_Index_2"),
        ("0003_a_b_c.sql", "0003_a_b_c"),
    ])
    func goodFileNames(fileName: String, identifier: String) throws {
        let sql = "CREATE TABLE t (a);"
        let migration = try Migration(fileName: fileName, sql: sql)
        #expect(migration.identifier == identifier)
        #expect(migration.sql == sql)
        #expect(migration.checksum == SHA256.hexDigest(of: Array(sql.utf8)))
        #expect(migration == Migration(identifier: identifier, sql: sql))
    }

    @Test("a badly named file is rejected", arguments: [
        "0001_initial",          // no .sql
        "0001_initial.SQL",      // wrong case
        "0001_initial.sql.bak",
        "001_initial.sql",       // fewer than four digits
        "0001.sql",              // no name
        "0001_.sql",             // empty name
        "initial.sql",
        "_initial.sql",
        "abcd_initial.sql",      // not digits
        "00a1_initial.sql",
        "٠٠٠١_initial.sql",      // Arabic-Indic digits are not ASCII
        "0001_na-me.sql",        // a hyphen
        "0001_na me.sql",        // a space
        "0001_café.sql",         // not ASCII
        "0001-initial.sql",
        ".sql",
        "",
    ])
    func badFileNames(fileName: String) {
        #expect(throws: MigrationError.badFileName(fileName)) {
            try Migration(fileName: fileName, sql: "SELECT 1;")
        }
    }

    @Test("the checksum changes with any change to the SQL, including whitespace")
    func checksums() {
        let original = Migration(identifier: "0001_a", sql: "CREATE TABLE t (a);")
        #expect(original.checksum.count == 64)
        #expect(Migration(identifier: "0001_a", sql: "CREATE TABLE t (a); ").checksum != original.checksum)
        #expect(Migration(identifier: "0001_a", sql: "create table t (a);").checksum != original.checksum)
        #expect(Migration(identifier: "0009_other", sql: "CREATE TABLE t (a);").checksum == original.checksum)
        #expect(Migration(identifier: "0001_a", sql: "").checksum
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("Migrator sorts migrations by identifier")
    func sorted() throws {
        let migrator = try Migrator(migrations: [
            Migration(identifier: "0003_c", sql: ""),
            Migration(identifier: "0001_a", sql: ""),
            Migration(identifier: "0002_b", sql: ""),
        ])
        #expect(migrator.migrations.map(\.identifier) == ["0001_a", "0002_b", "0003_c"])
        #expect(migrator.tableName == "schema_migrations")
        #expect(try Migrator(migrations: [], tableName: "app_migrations").tableName == "app_migrations")
    }

    @Test("two migrations with the same number are rejected")
    func duplicateNumbers() throws {
        #expect(throws: MigrationError.duplicateMigration("0002_second_b")) {
            try Migrator(migrations: [
                Migration(identifier: "0001_first", sql: ""),
                Migration(identifier: "0002_second_b", sql: ""),
                Migration(identifier: "0002_second_a", sql: ""),
            ])
        }
        #expect(throws: MigrationError.duplicateMigration("0001_same")) {
            try Migrator(migrations: [
                Migration(identifier: "0001_same", sql: "CREATE TABLE a (x);"),
                Migration(identifier: "0001_same", sql: "CREATE TABLE b (x);"),
            ])
        }
        // Different numbers are fine, whatever the names.
        _ = try Migrator(migrations: [
            Migration(identifier: "0001_same", sql: ""),
            Migration(identifier: "0002_same", sql: ""),
        ])
    }

    @Test("errors describe themselves")
    func descriptions() {
        #expect(MigrationError.badFileName("x.sql").description == "migration file x.sql is not named NNNN_name.sql")
        #expect(MigrationError.duplicateMigration("0002_b").description == "two migrations are numbered like 0002_b")
        #expect(MigrationError.unknownMigration(identifier: "0099_future", path: "/tmp/db.sqlite").description
            == "/tmp/db.sqlite was migrated by a newer version (it has migration 0099_future, which this version does not know); refusing to open it, the file is unchanged")
        #expect(MigrationError.modifiedMigration(identifier: "0001_a", path: "db").description
            == "migration 0001_a was edited after it was applied to db (its checksum differs); restore the original file or add a new migration instead")
        #expect(MigrationError.missingMigration(identifier: "0002_b", path: "db").description
            == "db lacks migration 0002_b although later ones were applied")
    }
}

@Suite("Migration order")
struct MigrationOrderTests {
    @Test("Migration numbers sort as numbers, not as text")
    func numericOrder() throws {
        let migrator = try Migrator(migrations: [
            Migration(identifier: "10000_later", sql: "CREATE TABLE later (x);"),
            Migration(identifier: "9999_earlier", sql: "CREATE TABLE earlier (x);"),
        ])
        #expect(migrator.migrations.map(\.identifier) == ["9999_earlier", "10000_later"])
        let db = try Connection(path: ":memory:")
        #expect(try migrator.migrate(db) == ["9999_earlier", "10000_later"])
        #expect(try migrator.migrate(db) == [])
    }
}
