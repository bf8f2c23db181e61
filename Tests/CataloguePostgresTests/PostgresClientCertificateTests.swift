#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import Foundation
import PostgresTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Logging in with a client certificate (`sslcert`, `sslkey`), against the TLS server of
/// ``PostgresTLSTests``, which authenticates ``PostgresTestServer/certificateRole`` by
/// certificate alone: the certificate's common name must be the role, signed by the authority
/// the server trusts; and the one-line errors for files that cannot be used.
@Suite("PostgreSQL client certificates", .requiresPostgres, .serialized, .timeLimit(.minutes(5)))
struct PostgresClientCertificateTests {
    /// A directory of its own for each test's certificates, removed by `body`'s end.
    static func withDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgcert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    /// Connects as the certificate role to a new database it owns, with `query` appended to the
    /// URL; returns the error's text, or nil when a search found Bogotá and the server saw the
    /// certificate (`pg_stat_ssl.client_dn`).
    static func connect(_ server: PostgresTestServer, host: String = "127.0.0.1", query: String) throws -> String? {
        let role = PostgresTestServer.certificateRole
        let database = try server.createDatabase(prefix: "cert")
        try server.psql("ALTER DATABASE :\"database\" OWNER TO :\"role\"", variables: ["database": database.name, "role": role])
        let url = "postgres://\(role)@\(host):\(server.port)/\(database.name)" + query
        do {
            let catalogue = try Catalogue.connect(to: url)
            let found = try catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital)).map(\.name)
            #expect(found == ["Colombia"])
            let names = try server.psql(
                "SELECT DISTINCT client_dn FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE datname = :'name'",
                variables: ["name": database.name])
            #expect(names.trimmingCharacters(in: .whitespacesAndNewlines) == "/CN=\(role)", "\(query)")
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("A certificate the server trusts logs its role in, with every sslmode that uses TLS")
    func loggedIn() async throws {
        try await onOwnThread {
            let server = try PostgresTLSTests.tlsServer.get()
            let root = try #require(server.certificatePath)
            try Self.withDirectory { directory in
                let files = try server.makeClientCertificate(commonName: PostgresTestServer.certificateRole, in: directory)
                let client = "sslcert=\(files.certificate)&sslkey=\(files.key)"
                for query in ["?\(client)", "?sslmode=require&\(client)", "?sslmode=verify-ca&sslrootcert=\(root)&\(client)"] {
                    #expect(try Self.connect(server, query: query) == nil, "\(query)")
                }
                #expect(try Self.connect(server, host: "localhost", query: "?sslmode=verify-full&sslrootcert=\(root)&\(client)") == nil)
            }
        }
    }

    @Test("The server refuses no certificate, one it did not sign, and one for another role, each in one line")
    func refusedByTheServer() async throws {
        try await onOwnThread {
            let server = try PostgresTLSTests.tlsServer.get()
            let role = PostgresTestServer.certificateRole
            try Self.withDirectory { directory in
                let none = try Self.connect(server, query: "?sslmode=require")
                #expect(none?.hasSuffix("connection requires a valid client certificate") == true, "\(none ?? "connected")")

                let foreign = try server.makeClientCertificate(commonName: role, in: directory, name: "foreign", trusted: false)
                let unknown = try Self.connect(server, query: "?sslcert=\(foreign.certificate)&sslkey=\(foreign.key)")
                #expect(unknown?.hasSuffix(
                    "the server did not accept the client certificate (sslcert): it is not signed by an authority the server trusts") == true,
                    "\(unknown ?? "connected")")

                let other = try server.makeClientCertificate(commonName: "someone_else", in: directory, name: "other")
                let wrongRole = try Self.connect(server, query: "?sslcert=\(other.certificate)&sslkey=\(other.key)")
                #expect(wrongRole?.hasSuffix("certificate authentication failed for user \"\(role)\"") == true, "\(wrongRole ?? "connected")")
            }
        }
    }

    @Test("A key others can read, an encrypted key, a missing or wrong file: one line naming it")
    func unusableFiles() async throws {
        try await onOwnThread {
            let server = try PostgresTLSTests.tlsServer.get()
            try Self.withDirectory { directory in
                let files = try server.makeClientCertificate(commonName: PostgresTestServer.certificateRole, in: directory)
                let other = try server.makeClientCertificate(commonName: PostgresTestServer.certificateRole, in: directory, name: "other")
                let missing = directory.appendingPathComponent("missing.key").path
                let notPEM = server.logFile.path

                let readable = directory.appendingPathComponent("readable.key").path
                try FileManager.default.copyItem(atPath: files.key, toPath: readable)
                #expect(chmod(readable, 0o644) == 0)

                let encrypted = directory.appendingPathComponent("encrypted.key").path
                let openssl = Process()
                openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
                openssl.arguments = ["pkey", "-in", files.key, "-aes256", "-passout", "pass:secret", "-out", encrypted]
                try openssl.run()
                openssl.waitUntilExit()
                try #require(openssl.terminationStatus == 0)
                #expect(chmod(encrypted, 0o600) == 0)

                let certificateAsKey = directory.appendingPathComponent("certificate-as.key").path
                try FileManager.default.copyItem(atPath: files.certificate, toPath: certificateAsKey)
                #expect(chmod(certificateAsKey, 0o600) == 0)

                let fifo = directory.appendingPathComponent("fifo.crt").path
                #expect(mkfifo(fifo, 0o600) == 0)

                let cases: [(query: String, reason: String)] = [
                    ("sslcert=\(files.certificate)&sslkey=\(missing)",
                     "cannot read sslkey \(missing): no such file (the certificate \(files.certificate) needs its private key)"),
                    ("sslcert=\(missing)&sslkey=\(files.key)", "cannot read sslcert \(missing): no such file"),
                    ("sslcert=\(fifo)&sslkey=\(files.key)", "cannot read sslcert \(fifo): not a regular file"),
                    ("sslcert=\(notPEM)&sslkey=\(files.key)", "cannot read sslcert \(notPEM): not a PEM certificate"),
                    ("sslcert=\(files.certificate)&sslkey=\(readable)",
                     "sslkey \(readable) can be read by others (permissions 644); make it the owner's alone: chmod 600 \(readable)"),
                    ("sslcert=\(files.certificate)&sslkey=\(encrypted)",
                     "sslkey \(encrypted) is encrypted with a passphrase, which catalogue cannot ask for "
                        + "(decrypt a copy readable by you alone: openssl pkey -in KEY -out KEY.plain)"),
                    ("sslcert=\(files.certificate)&sslkey=\(certificateAsKey)", "cannot read sslkey \(certificateAsKey): not a PEM private key"),
                    ("sslcert=\(files.certificate)&sslkey=\(other.key)",
                     "the private key \(other.key) does not belong to the certificate \(files.certificate)"),
                ]
                for (query, reason) in cases {
                    let message = try Self.connect(server, query: "?" + query)
                    #expect(message?.hasSuffix(": " + reason) == true, "\(query): \(message ?? "connected")")
                }
            }
        }
    }
}
#endif
