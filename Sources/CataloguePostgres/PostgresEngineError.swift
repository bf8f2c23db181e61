#if PostgreSQL
import CatalogueCore
import PostgresNIO

/// Why the PostgreSQL engine could not do something, in one line that names the server
/// (never its password).
///
/// ```swift
/// do { _ = try Catalogue.connect(to: "postgres://app@127.0.0.1:5999/catalogue") }
/// catch { print(error) }  // cannot connect to postgres://app@127.0.0.1:5999/catalogue: connection refused
/// ```
public enum PostgresEngineError: Error, Sendable, Hashable, CustomStringConvertible, DatabaseAvailabilityError {
    /// The `--db` URL does not parse.
    case badURL(String, reason: String)
    /// The server could not be reached, or refused the login.
    case cannotConnect(target: String, reason: String)
    /// The server did not answer in time.
    case timedOut(target: String, what: String, after: Duration)
    /// The server refused a statement (SQLSTATE in `code`).
    case server(target: String, message: String, code: String)
    /// The database is not one this engine can use (an extension or feature is missing).
    case unusable(target: String, reason: String)

    public var description: String {
        switch self {
        case .badURL(let url, let reason):
            "bad PostgreSQL URL \(url): \(reason)"
        case .cannotConnect(let target, let reason):
            "cannot connect to \(target): \(reason)"
        case .timedOut(let target, let what, let after):
            "\(target) did not answer within \(after.components.seconds) s (\(what))"
        case .server(let target, let message, let code):
            "\(target): \(message) (SQLSTATE \(code))"
        case .unusable(let target, let reason):
            "cannot use \(target): \(reason)"
        }
    }

    /// Whether the server could not be reached or closed the connection
    /// (``cannotConnect(target:reason:)``, SQLSTATE class 08), is shutting down or starting up
    /// (57P01, 57P02, 57P03), or its pool gave no connection within
    /// ``PostgresEngine/Options/leaseTimeout``: trying again later may succeed.
    public var isDatabaseUnavailable: Bool {
        switch self {
        case .cannotConnect:
            true
        case .timedOut(_, let what, _):
            what == ConnectionLease.waitingForConnection
        case .server(_, _, let code):
            code.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(code)
        case .badURL, .unusable:
            false
        }
    }

    /// The SQLSTATE of a server error, if `error` is one.
    static func sqlState(of error: any Error) -> String? {
        if let error = error as? PostgresEngineError, case .server(_, _, let code) = error { return code }
        return (unwrapped(error) as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// The error inside a transaction error.
    static func unwrapped(_ error: any Error) -> any Error {
        if let transaction = error as? PostgresTransactionError,
           let inner = transaction.closureError ?? transaction.commitError ?? transaction.beginError {
            return unwrapped(inner)
        }
        return error
    }

    /// `error` as one line about `target`: the server's message and SQLSTATE, or the
    /// connection failure's reason.
    static func describing(_ error: any Error, target: String, connecting: Bool = false) -> any Error {
        let error = unwrapped(error)
        if error is PostgresEngineError || error is CancellationError { return error }
        // What postgres-nio's COPY writer throws once the connection has closed.
        if let legacy = error as? PostgresError, case .connectionClosed = legacy {
            return connectionFailure(target: target, reason: serverClosedConnection, connecting: connecting)
        }
        guard let psql = error as? PSQLError else {
            guard isCircuitBreakerTripped(error) else { return error }
            return PostgresEngineError.cannotConnect(target: target, reason: "the pool could make no connection for a minute")
        }
        if let server = psql.serverInfo, let message = server[.message] {
            var text = message
            if let detail = server[.detail] { text += "; " + detail }
            if connecting { return PostgresEngineError.cannotConnect(target: target, reason: text) }
            return PostgresEngineError.server(target: target, message: text, code: server[.sqlState] ?? "?")
        }
        return connectionFailure(target: target, reason: connectionReason(psql), connecting: connecting)
    }

    /// Whether `error` is postgres-nio's pool giving up after failing to connect for a minute
    /// (`ConnectionPoolError.connectionCreationCircuitBreakerTripped`, of a module postgres-nio
    /// does not export, so known by its description). The engine's ``HostProbe`` usually says
    /// why long before.
    static func isCircuitBreakerTripped(_ error: any Error) -> Bool {
        String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError")
            && String(describing: error).contains("connectionCreationCircuitBreakerTripped")
    }

    /// The reason given when the server closed a connection.
    static let serverClosedConnection = "the server closed the connection"

    /// A connection to `target` that failed for `reason`: while `connecting`, or once made
    /// ("connection lost: …").
    static func connectionFailure(target: String, reason: String, connecting: Bool) -> PostgresEngineError {
        .cannotConnect(target: target, reason: connecting ? reason : "connection lost: " + reason)
    }

    /// A short reason for a failure without a server message.
    private static func connectionReason(_ error: PSQLError) -> String {
        switch error.code {
        case .authMechanismRequiresPassword:
            return "the server wants a password and none was given (add it to the URL, set PGPASSWORD, or put it in ~/.pgpass, readable by you alone)"
        case .sslUnsupported:
            return "the server does not offer TLS, which the URL's sslmode requires (sslmode=prefer connects without it)"
        case .connectionError, .serverClosedConnection, .uncleanShutdown:
            let underlying = error.underlying.map { "\($0)" } ?? ""
            if underlying.contains("Connection refused") { return "connection refused (is the server running?)" }
            if underlying.contains("No such file or directory") {
                return "no server socket there (is the server running, and is that its socket directory?)"
            }
            if let tls = tlsReason(underlying) { return tls }
            // NIO's ChannelError.connectTimeout reads "Connect timeout (1 s)".
            if underlying.contains("connectTimeout") || underlying.contains("Connect timeout") || underlying.contains("timed out") {
                return "timed out"
            }
            if underlying.lowercased().contains("resolve") || underlying.contains("NXDOMAIN") || underlying.contains("UnknownHost") {
                return "unknown host (its name could not be resolved)"
            }
            if error.code == .serverClosedConnection || error.code == .uncleanShutdown { return serverClosedConnection }
            return underlying.isEmpty ? "\(error.code)" : underlying
        default:
            let underlying = error.underlying.map { "\($0)" } ?? ""
            if let tls = tlsReason(underlying) { return tls }
            return underlying.isEmpty ? "\(error.code)" : "\(error.code): \(underlying)"
        }
    }

    /// A short reason for a failed TLS handshake, from NIOSSL's description of it.
    private static func tlsReason(_ underlying: String) -> String? {
        if underlying.contains("failedToValidateHostname") || underlying.contains("HOSTNAME_MISMATCH") {
            return "the server's certificate is not for this host (sslmode=verify-full checks the name; verify-ca does not)"
        }
        if underlying.contains("CERTIFICATE_VERIFY_FAILED") {
            return "the server's certificate is not signed by a trusted authority (give the authority's certificate with sslrootcert=PATH, or use sslmode=require, which does not check it)"
        }
        // An alert from the server about the client's certificate (sslcert).
        if underlying.contains("ALERT_UNKNOWN_CA") {
            return "the server did not accept the client certificate (sslcert): it is not signed by an authority the server trusts"
        }
        if underlying.contains("ALERT_CERTIFICATE_EXPIRED") {
            return "the server did not accept the client certificate (sslcert): it has expired"
        }
        if underlying.contains("ALERT_BAD_CERTIFICATE") || underlying.contains("ALERT_CERTIFICATE_REQUIRED") {
            return "the server did not accept the client certificate (sslcert): " + underlying
        }
        if underlying.contains("handshakeFailed") {
            return "the TLS handshake failed: " + underlying
        }
        return nil
    }
}
#endif
