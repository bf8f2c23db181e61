#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import Foundation
import PostgresTestSupport
import Testing

/// TLS to PostgreSQL as libpq's `sslmode` does it, against a server of its own that offers TLS
/// with a self-signed certificate for `localhost` (as Debian's PostgreSQL does with its own),
/// and against the shared server, which offers none.
@Suite("PostgreSQL TLS", .requiresPostgres, .serialized, .timeLimit(.minutes(5)))
struct PostgresTLSTests {
    /// The TLS server, started once for the suite; its watchdog removes it when the tests end.
    static let tlsServer = Result<PostgresTestServer, any Error> { try PostgresTestServer.start(tls: true) }

    /// Connects to a new database on `server` with `query` appended to its URL; returns the
    /// error's text, or nil when a search found Bogotá.
    static func connect(_ server: PostgresTestServer, host: String = "127.0.0.1", query: String) throws -> String? {
        let database = try server.createDatabase(prefix: "tls")
        let url = "postgres://postgres@\(host):\(server.port)/\(database.name)" + query
        do {
            let catalogue = try Catalogue.connect(to: url)
            let found = try catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital)).map(\.name)
            #expect(found == ["Colombia"])
            // Every connection of the catalogue's to this database is encrypted, or none is.
            let encrypted = try server.psql(
                "SELECT bool_and(ssl)::text FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE datname = :'name'",
                variables: ["name": database.name])
            let expected = query.contains("sslmode=disable") || server.certificatePath == nil ? "false" : "true"
            #expect(encrypted.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(query)")
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("prefer (the default) and require encrypt without checking a self-signed certificate; disable does not encrypt")
    func selfSignedAccepted() async throws {
        try await onOwnThread {
            let server = try Self.tlsServer.get()
            for query in ["", "?sslmode=prefer", "?sslmode=require", "?sslmode=disable"] {
                #expect(try Self.connect(server, query: query) == nil, "\(query)")
            }
        }
    }

    @Test("verify-ca and verify-full check the certificate: its authority from sslrootcert, and for verify-full its host")
    func verified() async throws {
        try await onOwnThread {
            let server = try Self.tlsServer.get()
            let certificate = try #require(server.certificatePath)
            let untrusted = "the server's certificate is not signed by a trusted authority (give the authority's certificate with "
                + "sslrootcert=PATH, or use sslmode=require, which does not check it)"
            // The system's authorities (no sslrootcert, or libpq 16's sslrootcert=system) do not
            // know this server's.
            for query in ["?sslmode=verify-ca", "?sslmode=verify-full", "?sslrootcert=system"] {
                let message = try Self.connect(server, query: query)
                #expect(message?.hasSuffix(untrusted) == true, "\(query): \(message ?? "connected")")
            }
            #expect(try Self.connect(server, query: "?sslmode=verify-ca&sslrootcert=\(certificate)") == nil)
            #expect(try Self.connect(server, query: "?sslmode=require&sslrootcert=\(certificate)") == nil)
            #expect(try Self.connect(server, host: "localhost", query: "?sslmode=verify-full&sslrootcert=\(certificate)") == nil)
            // The certificate names localhost, not 127.0.0.1.
            let wrongHost = try Self.connect(server, query: "?sslmode=verify-full&sslrootcert=\(certificate)")
            #expect(wrongHost?.hasSuffix(
                "the server's certificate is not for this host (sslmode=verify-full checks the name; verify-ca does not)") == true,
                "\(wrongHost ?? "connected")")
            // Another self-signed certificate for localhost does not vouch for this server.
            let foreign = server.directory.appendingPathComponent("other.crt").path
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                                 "-keyout", server.directory.appendingPathComponent("other.key").path, "-out", foreign]
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            openssl.waitUntilExit()
            try #require(openssl.terminationStatus == 0)
            let mismatch = try Self.connect(server, query: "?sslmode=verify-ca&sslrootcert=\(foreign)")
            #expect(mismatch?.hasSuffix(untrusted) == true, "\(mismatch ?? "connected")")
        }
    }

    @Test("A certificate file that is missing, not PEM or a FIFO is one line")
    func badRootCertificate() async throws {
        try await onOwnThread {
            let server = try Self.tlsServer.get()
            let missing = server.directory.appendingPathComponent("missing.crt").path
            let message = try Self.connect(server, query: "?sslmode=verify-ca&sslrootcert=\(missing)")
            #expect(message?.hasSuffix("cannot read sslrootcert \(missing): no such file") == true, "\(message ?? "connected")")
            let log = server.logFile.path
            let notPEM = try Self.connect(server, query: "?sslmode=verify-ca&sslrootcert=\(log)")
            #expect(notPEM?.hasSuffix("cannot read sslrootcert \(log): not a PEM certificate") == true, "\(notPEM ?? "connected")")
            // A FIFO is not waited on.
            let fifo = server.directory.appendingPathComponent("fifo-\(UUID().uuidString).crt").path
            #expect(mkfifo(fifo, 0o600) == 0)
            defer { unlink(fifo) }
            let pipe = try Self.connect(server, query: "?sslmode=verify-ca&sslrootcert=\(fifo)")
            #expect(pipe?.hasSuffix("cannot read sslrootcert \(fifo): not a regular file") == true, "\(pipe ?? "connected")")
        }
    }

    @Test("A server without TLS: require says so in one line; prefer connects in the clear")
    func serverWithoutTLS() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            #expect(server.certificatePath == nil)
            let message = try Self.connect(server, query: "?sslmode=require")
            #expect(message?.hasSuffix(
                "the server does not offer TLS, which the URL's sslmode requires (sslmode=prefer connects without it)") == true,
                "\(message ?? "connected")")
            #expect(try Self.connect(server, query: "") == nil)
        }
    }
}
#endif
