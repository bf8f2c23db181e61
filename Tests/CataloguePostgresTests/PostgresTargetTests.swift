#if PostgreSQL
import CataloguePostgres
import Testing

/// ``PostgresTarget``: what a `postgres://` URL says, and the one-line errors for what it
/// cannot say. No server needed.
@Suite("PostgreSQL URL")
struct PostgresTargetTests {
    @Test("Defaults: user postgres, port 5432, the database named as the user, TLS preferred")
    func defaults() throws {
        let target = try PostgresTarget(url: "postgres://db.example", environment: [:])
        #expect(target == PostgresTarget(host: "db.example"))
        #expect(target.description == "postgres://postgres@db.example:5432/postgres")
        #expect(target.tls == .prefer && target.rootCertificatePath == nil)
    }

    @Test("sslmode takes libpq's five modes; sslrootcert a file, with a mode that checks certificates", arguments: [
        ("?sslmode=disable", PostgresTarget.TLSMode.disable, nil as String?),
        ("?sslmode=prefer", .prefer, nil),
        ("?sslmode=require", .require, nil),
        ("?sslmode=verify-ca", .verifyCA, nil),
        ("?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem", .verifyFull, "/etc/ssl/ca.pem"),
        ("?sslrootcert=ca.pem&sslmode=require", .require, "ca.pem"),
    ])
    func tlsModes(query: String, mode: PostgresTarget.TLSMode, rootCertificate: String?) throws {
        let target = try PostgresTarget(url: "postgres://app:secret@db:5433/catalogue" + query, environment: [:])
        #expect(target.tls == mode)
        #expect(target.rootCertificatePath == rootCertificate)
        #expect(target.description == "postgres://app@db:5433/catalogue")
    }

    @Test("A bad sslmode or sslrootcert is one line naming what is allowed, the password hidden", arguments: [
        ("?sslmode=verify", "sslmode must be one of disable, prefer, require, verify-ca, verify-full, not verify"),
        ("?sslrootcert=", "sslrootcert needs a file: sslrootcert=PATH"),
        ("?sslrootcert=ca.pem", "sslrootcert needs sslmode=require, verify-ca or verify-full (with prefer no certificate is checked)"),
        ("?sslmode=disable&sslrootcert=ca.pem", "sslrootcert needs sslmode=require, verify-ca or verify-full (with disable no certificate is checked)"),
        ("?sslcert=client.pem", "unknown parameter sslcert (known: sslmode, sslrootcert)"),
    ])
    func badTLSParameters(query: String, reason: String) {
        let url = "postgres://app:secret@db:5433/catalogue" + query
        #expect(throws: PostgresEngineError.badURL("postgres://app:***@db:5433/catalogue" + query, reason: reason)) {
            try PostgresTarget(url: url, environment: [:])
        }
    }
}
#endif
