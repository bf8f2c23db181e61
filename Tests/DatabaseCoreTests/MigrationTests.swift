import DatabaseCore
import Testing

/// A migration's identifier and checksum, computed or given.
@Suite("Migration")
struct MigrationTests {
    @Test("The checksum is the SHA-256 of the script, computed or given beforehand")
    func checksum() throws {
        let sql = "CREATE TABLE t (a);"
        let computed = try Migration(fileName: "0001_initial.sql", sql: sql)
        #expect(computed.identifier == "0001_initial")
        #expect(computed.checksum == SHA256.hexDigest(of: Array(sql.utf8)))
        let given = try Migration(fileName: "0001_initial.sql", sql: sql, checksum: computed.checksum)
        #expect(given == computed)
    }

    @Test("A precomputed checksum does not excuse a bad file name")
    func badFileNameWithChecksum() {
        for fileName in ["001_short.sql", "0001_initial.txt", "0001-initial.sql", "0001_.sql"] {
            #expect(throws: MigrationError.badFileName(fileName)) {
                try Migration(fileName: fileName, sql: "", checksum: SHA256.hexDigest(of: []))
            }
        }
    }
}
