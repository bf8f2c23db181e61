#if PostgreSQL
import PostgresNIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The certificate a client proves its role with, where the server authenticates by
/// certificate (`hostssl … cert` in `pg_hba.conf`): libpq's `sslcert` and `sslkey`, found and
/// checked as libpq finds and checks them.
///
/// The files are `sslcert=PATH` and `sslkey=PATH` in the URL, else the service's, else
/// `PGSSLCERT` and `PGSSLKEY`, else `~/.postgresql/postgresql.crt` when that file exists and
/// `~/.postgresql/postgresql.key`. Both are PEM; the key must not be encrypted and must be
/// readable by its owner alone (`chmod 600`; a key owned by root may be readable by its group),
/// or it is refused with one line, as libpq refuses it.
///
/// ```swift
/// let target = try PostgresTarget(url: "postgres://app@db/catalogue?sslmode=verify-full&sslcert=app.crt&sslkey=app.key")
/// let (chain, key) = try PostgresClientCertificate.load(
///     certificate: target.clientCertificatePath!, key: target.clientKeyPath!, target: target.description)
/// ```
enum PostgresClientCertificate {
    /// libpq's default files: `~/.postgresql/postgresql.crt` and `.key`.
    static func defaultPaths(environment: [String: String]) -> (certificate: String, key: String)? {
        PostgresClientFiles.homeDirectory(environment: environment).map {
            ($0 + "/.postgresql/postgresql.crt", $0 + "/.postgresql/postgresql.key")
        }
    }

    /// The certificate and key files to send, from what the URL, the service or the environment
    /// gave (`certificate`, `key`) and libpq's defaults; nil when there is no certificate to
    /// send, or no TLS to send it over (`sslmode=disable`, or a Unix-domain socket: what the
    /// environment and the defaults say is then not used, as in libpq). `bad` makes the error
    /// for settings that cannot go together.
    static func paths(
        certificate: String?, key: String?, usesTLS: Bool, environment: [String: String],
        bad: (String) -> PostgresEngineError
    ) throws -> (certificate: String, key: String)? {
        guard usesTLS else { return nil }
        let defaults = defaultPaths(environment: environment)
        let chosen: String? = certificate ?? defaults.flatMap { access($0.certificate, F_OK) == 0 ? $0.certificate : nil }
        guard let chosen else {
            if key != nil { throw bad("sslkey needs sslcert=PATH, the certificate the key belongs to") }
            return nil
        }
        guard let keyPath = key ?? defaults?.key else {
            throw bad("sslcert needs sslkey=PATH (no home directory for ~/.postgresql/postgresql.key)")
        }
        return (chosen, keyPath)
    }

    /// Reads the certificate chain at `certificate` and the private key at `key`; throws
    /// ``PostgresEngineError/cannotConnect(target:reason:)`` naming the file when either cannot
    /// be used.
    static func load(certificate: String, key: String, target: String) throws -> (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) {
        func failure(_ reason: String) -> PostgresEngineError {
            PostgresEngineError.cannotConnect(target: target, reason: reason)
        }
        let chain = try PostgresClientFiles.certificates(at: certificate, setting: "sslcert", target: target)

        var info = stat()
        guard stat(key, &info) == 0 else {
            let code = errno
            throw failure(code == ENOENT
                ? "cannot read sslkey \(key): no such file (the certificate \(certificate) needs its private key)"
                : "cannot read sslkey \(key): \(String(cString: strerror(code)))")
        }
        // libpq's rule: the owner's alone, or root's and readable by its group.
        let mode = info.st_mode & 0o777
        if (info.st_uid == geteuid() && mode & 0o077 != 0) || (info.st_uid == 0 && mode & 0o037 != 0) {
            throw failure("sslkey \(key) can be read by others (permissions \(String(mode, radix: 8))); "
                + "make it the owner's alone: chmod 600 \(key)")
        }
        let keyBytes = try PostgresClientFiles.contents(of: key, setting: "sslkey", target: target)
        if String(decoding: keyBytes, as: UTF8.self).contains("ENCRYPTED") {
            throw failure("sslkey \(key) is encrypted with a passphrase, which catalogue cannot ask for "
                + "(decrypt a copy readable by you alone: openssl pkey -in KEY -out KEY.plain)")
        }
        do {
            return (chain, try NIOSSLPrivateKey(bytes: keyBytes, format: .pem))
        } catch {
            throw failure("cannot read sslkey \(key): not a PEM private key")
        }
    }
}
#endif
