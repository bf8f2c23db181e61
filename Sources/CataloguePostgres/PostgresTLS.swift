#if PostgreSQL
import Foundation
import PostgresNIO

/// The TLS settings a ``PostgresTarget`` asks for, in the forms postgres-nio takes: for one
/// connection (the first checks, LISTEN) and for the pool.
///
/// As libpq's `sslmode`:
/// - `disable`: plain TCP;
/// - `prefer` (the default) and `require`: encrypted, the certificate not checked (`prefer`
///   falls back to plain TCP when the server offers no TLS; `require` does not). Debian's
///   PostgreSQL turns TLS on with a self-signed certificate, which these accept;
/// - `verify-ca`: the certificate must be signed by a trusted authority: `sslrootcert`'s, or
///   the system's without it;
/// - `verify-full`: also for the host the URL names.
///
/// `require` with `sslrootcert` checks the authority as `verify-ca` does, as in libpq.
///
/// ```swift
/// let tls = try PostgresTLS(target: PostgresTarget(url: "postgres://app@db:5432/catalogue?sslmode=verify-full"))
/// ```
struct PostgresTLS: Sendable {
    /// For a ``PostgresConnection``.
    let connection: PostgresConnection.Configuration.TLS
    /// For the ``PostgresClient`` pool.
    let client: PostgresClient.Configuration.TLS

    /// The settings for `target`; throws ``PostgresEngineError/cannotConnect(target:reason:)``
    /// when its `sslrootcert` cannot be read.
    init(target: PostgresTarget) throws {
        guard target.tls != .disable else {
            connection = .disable
            client = .disable
            return
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        let verifiesAuthority = target.tls == .verifyCA || target.tls == .verifyFull || target.rootCertificatePath != nil
        configuration.certificateVerification = switch target.tls {
        case .verifyFull: .fullVerification
        case _ where verifiesAuthority: .noHostnameVerification
        default: .none
        }
        if let path = target.rootCertificatePath {
            guard FileManager.default.fileExists(atPath: path) else {
                throw PostgresEngineError.cannotConnect(target: target.description, reason: "cannot read sslrootcert \(path): no such file")
            }
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
            } catch {
                throw PostgresEngineError.cannotConnect(
                    target: target.description, reason: "cannot read sslrootcert \(path): \(Self.reason(error))")
            }
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw PostgresEngineError.cannotConnect(target: target.description, reason: "cannot set up TLS: \(Self.reason(error))")
        }
        if target.tls == .prefer {
            connection = .prefer(context)
            client = .prefer(configuration)
        } else {
            connection = .require(context)
            client = .require(configuration)
        }
    }

    /// A short reason for a certificate file that could not be read.
    private static func reason(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("failedToLoadCertificate") { return "not a PEM certificate" }
        return text
    }
}
#endif
