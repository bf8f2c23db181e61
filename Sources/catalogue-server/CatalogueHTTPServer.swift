#if Server
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CatalogueCommands
import CatalogueKit
import CatalogueServer
import Logging

/// What `serve` runs in `catalogue-server`: the JSON API and the search page over HTTP, until
/// SIGINT or SIGTERM, with the options `catalogue` checked before it handed the command line
/// over (``ServeCommand``).
enum CatalogueHTTPServer {
    static func run(global: GlobalOptions, options: ServeOptions) async throws {
        var serverOptions = ServerOptions()
        serverOptions.host = options.host
        serverOptions.port = options.port
        serverOptions.corsOrigin = options.corsOrigin
        serverOptions.maximumConnections = options.maximumConnections
        serverOptions.maximumConnectionsPerAddress = options.maximumConnectionsPerAddress
        serverOptions.idleTimeout = .milliseconds(Int64((options.idleTimeout * 1000).rounded()))
        OpenFileLimit.raiseToHardLimit()
        serverOptions.importToken = try options.tokenFile.map { try ImportToken(contentsOfFile: $0) }
        if let tokenFile = options.tokenFile, Self.othersMayRead(tokenFile) {
            standardError("catalogue: warning: other users can read the token file \(tokenFile): chmod 600 it")
        }
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "catalogue.serve")
        logger.logLevel = options.logLevel
        // Without a token nothing is written: the catalogue is opened read-only.
        let catalogue = try global.openCatalogue(access: serverOptions.importToken == nil ? .readOnly : .readWrite) { [logger] change in
            logger.notice("\(change)")
        }
        let access = serverOptions.importToken == nil
            ? "read-only: imports are refused (start with --token-file to allow them)"
            : "imports allowed with the token from \(options.tokenFile ?? "")"
        let location = catalogue.location
        // Whether the server has started listening, set from its start callback.
        let started = Locked(false)
        let application = CatalogueServer.makeApplication(catalogue: catalogue, options: serverOptions, logger: logger) { address in
            started.withLock { $0 = true }
            standardError("catalogue serve: http://\(address)/ (\(location); \(access))")
        }
        do {
            try await application.runService()
        } catch {
            // Before it listens, the server's errors are about where it was told to listen.
            guard !started.withLock({ $0 }), let failure = ListenError(error, host: options.host, port: options.port) else { throw error }
            throw ServeListenFailure(failure: failure)
        }
    }
}

extension CatalogueHTTPServer {
    /// Whether users other than the file's owner may read the file at `path` (its group or
    /// others have read permission), as `ssh` refuses a private key that is.
    static func othersMayRead(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & (S_IRGRP | S_IROTH) != 0
    }
}

/// `serve`'s one line when it cannot listen, with what to do about it.
struct ServeListenFailure: Error, CustomStringConvertible {
    let failure: ListenError

    var description: String {
        switch failure.errorNumber {
        case EADDRINUSE: failure.description + " (another program listens there: --port chooses another port, --port 0 any free one)"
        case EADDRNOTAVAIL: failure.description + " (--host must be an address of this machine, such as 127.0.0.1, or 0.0.0.0 for all)"
        case EACCES: failure.description + " (ports below 1024 need privileges: choose another with --port)"
        default: failure.description
        }
    }
}
#endif
