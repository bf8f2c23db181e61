import Foundation

/// Client certificates for a server started with `tls: true`: it trusts an authority of its own
/// for them (`ssl_ca_file`) and authenticates ``PostgresTestServer/certificateRole`` by
/// certificate alone over TLS (`hostssl all certified 127.0.0.1/32 cert`), as a team whose
/// server checks client certificates sets it up.
///
/// ```swift
/// let server = try PostgresTestServer.start(tls: true)
/// let files = try server.makeClientCertificate(commonName: PostgresTestServer.certificateRole, in: directory)
/// let url = "postgres://certified@127.0.0.1:\(server.port)/db?sslcert=\(files.certificate)&sslkey=\(files.key)"
/// ```
extension PostgresTestServer {
    /// The role that logs in with a client certificate (its common name) and nothing else.
    public static let certificateRole = "certified"

    /// The authority's certificate and key, in the server's temporary directory (not the data
    /// directory: the key is the tests', not the server's).
    var clientAuthority: (certificate: URL, key: URL) {
        (directory.appendingPathComponent("client-authority.crt"), directory.appendingPathComponent("client-authority.key"))
    }

    /// Makes the authority, has the server trust it for client certificates, and puts the
    /// certificate role's `cert` line first among the TCP lines of `pg_hba.conf`.
    static func trustClientAuthority(directory: URL, user: ServerUser?) throws {
        let data = directory.appendingPathComponent("data")
        let certificate = directory.appendingPathComponent("client-authority.crt")
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                     "-subj", "/CN=catalogue test client authority",
                     "-keyout", directory.appendingPathComponent("client-authority.key").path, "-out", certificate.path])
        let copy = data.appendingPathComponent("client-authority.crt")
        try FileManager.default.copyItem(at: certificate, to: copy)
        if let user { _ = chown(copy.path, user.uid, user.gid) }
        try write("ssl_ca_file = 'client-authority.crt'\n", to: data.appendingPathComponent("postgresql.conf"), owner: user, append: true)
        let hba = data.appendingPathComponent("pg_hba.conf")
        var lines = try String(contentsOf: hba, encoding: .utf8).components(separatedBy: "\n")
        let firstTCP = lines.firstIndex { $0.hasPrefix("host ") } ?? lines.count
        lines.insert("hostssl all \(certificateRole) 127.0.0.1/32 cert", at: firstTCP)
        try write(lines.joined(separator: "\n"), to: hba, owner: user, append: false)
    }

    /// A new private key and a certificate for `commonName` (the role it logs in as) in
    /// `directory`, as `NAME.crt` and `NAME.key` (the key readable by its owner alone), signed by
    /// the server's client authority, or, `trusted: false`, by an authority the server does not
    /// know. Needs a server started with `tls: true`.
    public func makeClientCertificate(
        commonName: String, in directory: URL, name: String = "client", trusted: Bool = true
    ) throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("\(name).crt").path
        let key = directory.appendingPathComponent("\(name).key").path
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=\(commonName)", "-keyout", key]
        if trusted {
            let request = directory.appendingPathComponent("\(name).csr").path
            try Self.openssl(["req", "-new"] + newKey + ["-out", request])
            try Self.openssl(["x509", "-req", "-in", request, "-CA", clientAuthority.certificate.path,
                              "-CAkey", clientAuthority.key.path, "-set_serial", String(UInt32.random(in: 1...UInt32.max)),
                              "-days", "2", "-out", certificate])
            try? FileManager.default.removeItem(atPath: request)
        } else {
            try Self.openssl(["req", "-x509", "-days", "2"] + newKey + ["-out", certificate])
        }
        chmod(key, 0o600)
        return (certificate, key)
    }

    /// Runs `openssl` with `arguments`; throws with its output when it fails.
    static func openssl(_ arguments: [String]) throws {
        let result = try Subprocess.run("/usr/bin/openssl", arguments)
        guard result.status == 0 else {
            throw PostgresTestServerError.commandFailed(
                command: "openssl \(arguments.prefix(2).joined(separator: " "))", status: result.status, output: result.errorOutput + result.output)
        }
    }
}
