import CatalogueSQLite
import DatabaseCore
import Testing

/// The migrations the binary embeds, with the checksums EmbedResourcesPlugin computed at build
/// time.
@Suite("SQLite resources")
struct SQLiteResourcesTests {
    @Test("Each embedded migration's checksum is the SHA-256 of its SQL")
    func checksums() {
        #expect(!SQLiteResources.migrations.isEmpty)
        for migration in SQLiteResources.migrations {
            #expect(migration.checksum == SHA256.hexDigest(of: Array(migration.sql.utf8)), "\(migration.identifier)")
        }
    }

    @Test("The migrations are the files of migrations/, in order")
    func identifiers() {
        let identifiers = SQLiteResources.migrations.map(\.identifier)
        #expect(identifiers.first == "0001_initial")
        #expect(identifiers == identifiers.sorted())
        #expect(identifiers.allSatisfy { !$0.hasPrefix("postgres") })
    }
}
