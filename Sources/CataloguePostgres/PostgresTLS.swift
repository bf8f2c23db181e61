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
/// `require` with `sslrootcert` checks the authority as `verify-ca` does, as in libpq. A client
/// certificate (``PostgresTarget/clientCertificatePath``, see ``PostgresClientCertificate``) is
/// sent to a server that asks for one.
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
            configuration.trustRoots = .certificates(
                try PostgresClientFiles.certificates(at: path, setting: "sslrootcert", target: target.description))
        }
        if let certificate = target.clientCertificatePath, let key = target.clientKeyPath {
            let client = try PostgresClientCertificate.load(certificate: certificate, key: key, target: target.description)
            configuration.certificateChain = client.chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(client.key)
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw PostgresEngineError.cannotConnect(target: target.description, reason: Self.reason(error, target: target))
        }
        if target.tls == .prefer {
            connection = .prefer(context)
            client = .prefer(configuration)
        } else {
            connection = .require(context)
            client = .require(configuration)
        }
    }

    /// A short reason why TLS could not be set up with the files read. The key was read
    /// already, so failing to load it means it is not the certificate's.
    private static func reason(_ error: any Error, target: PostgresTarget) -> String {
        let text = "\(error)"
        if text.contains("failedToLoadPrivateKey"), let key = target.clientKeyPath, let certificate = target.clientCertificatePath {
            return "the private key \(key) does not belong to the certificate \(certificate)"
        }
        return "cannot set up TLS: " + text
    }
}
#endif
