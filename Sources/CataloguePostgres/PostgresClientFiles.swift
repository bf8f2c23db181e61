#if PostgreSQL
import PostgresNIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where libpq's per-user files are (`~/.pgpass`, `~/.pg_service.conf`, `~/.postgresql/`): the
/// home directory; and how a certificate or key file is read.
///
/// ```swift
/// PostgresClientFiles.homeDirectory(environment: ["HOME": "/home/ana"])  // "/home/ana"
/// ```
enum PostgresClientFiles {
    /// Files larger than this are not certificates or keys.
    static let maximumPEMSize = 1 << 20

    /// `HOME`, else the user's home directory from the password database, as libpq finds it.
    static func homeDirectory(environment: [String: String]) -> String? {
        if let home = environment["HOME"], !home.isEmpty { return home }
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    /// The PEM certificates in the file at `path` (libpq's `setting`: `sslrootcert`, `sslcert`);
    /// throws ``PostgresEngineError/cannotConnect(target:reason:)`` when it cannot be read or
    /// holds none: "cannot read sslcert PATH: not a PEM certificate".
    static func certificates(at path: String, setting: String, target: String) throws -> [NIOSSLCertificate] {
        let bytes = try contents(of: path, setting: setting, target: target)
        guard let certificates = try? NIOSSLCertificate.fromPEMBytes(bytes), !certificates.isEmpty else {
            throw PostgresEngineError.cannotConnect(target: target, reason: "cannot read \(setting) \(path): not a PEM certificate")
        }
        return certificates
    }

    /// The bytes of the certificate or key file at `path` (named by libpq's `setting` in
    /// messages): a regular file of at most ``maximumPEMSize`` bytes. Throws
    /// ``PostgresEngineError/cannotConnect(target:reason:)``: "cannot read sslcert PATH: no such
    /// file". A FIFO is not waited on.
    static func contents(of path: String, setting: String, target: String) throws -> [UInt8] {
        func failure(_ reason: String) -> PostgresEngineError {
            PostgresEngineError.cannotConnect(target: target, reason: "cannot read \(setting) \(path): \(reason)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw failure(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw failure("not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure(String(cString: strerror(errno))) }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            guard bytes.count <= maximumPEMSize else { throw failure("longer than 1 MiB, not a PEM file") }
        }
    }
}
#endif
