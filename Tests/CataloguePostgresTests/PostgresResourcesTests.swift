#if PostgreSQL
import CataloguePostgres
import DatabaseCore
import Testing

/// The PostgreSQL migrations the binary embeds, with the checksums EmbedResourcesPlugin computed
/// at build time.
@Suite("PostgreSQL resources")
struct PostgresResourcesTests {
    @Test("Each embedded migration's checksum is the SHA-256 of its SQL")
    func checksums() {
        #expect(!PostgresResources.migrations.isEmpty)
        for migration in PostgresResources.migrations {
            #expect(migration.checksum == SHA256.hexDigest(of: Array(migration.sql.utf8)), "\(migration.identifier)")
        }
    }
}
#endif
