#if Server
/// How `catalogue serve` listens and what it allows.
///
/// ```swift
/// var options = ServerOptions()
/// options.port = 9000
/// options.importToken = try ImportToken("s3cret-token-value")   // imports allowed with this token
/// options.corsOrigin = "https://example.org"
/// ```
public struct ServerOptions: Sendable {
    /// The address to bind: loopback unless told otherwise.
    public var host = "127.0.0.1"
    /// The TCP port (0: any free port).
    public var port = 8080
    /// The token `POST /api/{entity}/import` needs; nil: the server is read-only.
    public var importToken: ImportToken?
    /// The one origin allowed to call the API from a browser page served elsewhere (CORS); nil:
    /// no CORS headers at all.
    public var corsOrigin: String?
    /// The largest request body accepted (an import), in bytes: 64 MiB.
    public var maximumBodySize = 64 * 1024 * 1024
    /// How often a change stream sends a comment line, so proxies and browsers keep it open.
    public var keepAliveInterval: Duration = .seconds(15)
    /// How often the change streams check for writes by other processes (SQLite).
    public var changePollingInterval: Duration = .milliseconds(100)
    /// The most connections open at once: 4,096. At the limit the server accepts no more until
    /// one closes (new ones wait in the kernel's queue), and logs a warning. Lowered, when the
    /// process's open-file limit (`ulimit -n`) is smaller, to that limit less 64 descriptors
    /// kept for the catalogue's files. Each open change stream holds one connection.
    public var maximumConnections = 4096
    /// The most connections one client address may hold open at once: 256; 0: no limit. A
    /// connection past it is closed as soon as it is accepted, and a warning names the address,
    /// so that one client cannot take every connection. Loopback addresses (a reverse proxy on
    /// this machine) are not limited; behind a proxy on another machine, every client comes
    /// from its address: raise the limit there, or set 0.
    public var maximumConnectionsPerAddress = 256
    /// The most change streams (`GET /api/{entity}/changes`) open at once; nil (the default): a
    /// quarter of the connections the server allows (1,024 of 4,096). A stream holds its
    /// connection as long as its client keeps it, so streams alone could otherwise take every
    /// connection; one past the limit is answered 503 with `Retry-After: 5`.
    public var maximumChangeStreams: Int?
    /// How long the server waits for a client that takes nothing of what it writes (a change
    /// stream, an export) before it closes the connection: 120 s.
    public var writeTimeout: Duration = .seconds(120)
    /// How long a connection may stay idle before the server closes it: 30 s. Idle is between
    /// requests (keep-alive), and while a request's head or body does not arrive; a response
    /// being written (a change stream, an export, an import being applied) is not idle.
    public var idleTimeout: Duration = .seconds(30)

    /// Whether ``maximumConnectionsPerAddress`` limits loopback addresses too; the tests, whose
    /// clients are all on 127.0.0.1, set it.
    var limitsLoopbackAddresses = false

    /// The least a client must read of an export (1 MiB in 30 s), which holds a read transaction
    /// until it ends; the tests shorten it.
    var exportPace = ExportStream.MinimumPace()

    /// The longest search text, in Unicode scalars.
    public static let maximumTextLength = 256
    /// The most rows one answer holds.
    public static let maximumLimit = 500
    /// Rows per answer unless `limit` says otherwise.
    public static let defaultLimit = 50

    /// The defaults: 127.0.0.1, port 8080, read-only (no token), no CORS origin, at most 4,096
    /// connections and 256 from one address (loopback apart), idle ones closed after 30 s, and
    /// those whose client takes nothing for 120 s.
    public init() {}
}
#endif
