import DatabaseCore
import Testing

/// The engine-neutral migration rules every engine's migrator applies.
@Suite("Migration plan")
struct MigrationPlanTests {
    let first = Migration(identifier: "0001_initial", sql: "CREATE TABLE t (a);")
    let second = Migration(identifier: "0002_more", sql: "CREATE TABLE u (b);")
    let tenth = Migration(identifier: "0010_later", sql: "CREATE TABLE v (c);")

    @Test("migrations sort by number, not by text")
    func sortsNumerically() throws {
        let plan = try MigrationPlan(migrations: [tenth, Migration(identifier: "9_x", sql: ""), first])
        #expect(plan.migrations.map(\.identifier) == ["0001_initial", "9_x", "0010_later"])
    }

    @Test("two migrations with one number are refused")
    func duplicateNumber() {
        #expect(throws: MigrationError.duplicateMigration("0001_other")) {
            try MigrationPlan(migrations: [first, Migration(identifier: "0001_other", sql: "")])
        }
    }

    @Test("pending: what is not applied, in order")
    func pending() throws {
        let plan = try MigrationPlan(migrations: [second, first, tenth])
        #expect(try plan.pending(applied: [:], database: "d").map(\.identifier) == ["0001_initial", "0002_more", "0010_later"])
        #expect(try plan.pending(applied: [first.identifier: first.checksum], database: "d").map(\.identifier)
            == ["0002_more", "0010_later"])
    }

    @Test("a database with an unknown, edited or skipped migration is refused")
    func refusals() throws {
        let plan = try MigrationPlan(migrations: [first, second])
        #expect(throws: MigrationError.unknownMigration(identifier: "0003_new", path: "d")) {
            try plan.pending(applied: [first.identifier: first.checksum, "0003_new": "x"], database: "d")
        }
        #expect(throws: MigrationError.modifiedMigration(identifier: "0001_initial", path: "d")) {
            try plan.pending(applied: [first.identifier: "edited"], database: "d")
        }
        #expect(throws: MigrationError.missingMigration(identifier: "0001_initial", path: "d")) {
            try plan.pending(applied: [second.identifier: second.checksum], database: "d")
        }
    }
}
