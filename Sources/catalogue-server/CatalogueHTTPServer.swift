#if Server
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
        serverOptions.importToken = try options.tokenFile.map { try ImportToken(contentsOfFile: $0) }
        // Without a token nothing is written: the catalogue is opened read-only.
        let catalogue = try global.openCatalogue(access: serverOptions.importToken == nil ? .readOnly : .readWrite)
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "catalogue.serve")
        logger.logLevel = options.logLevel
        let access = serverOptions.importToken == nil
            ? "read-only: imports are refused (start with --token-file to allow them)"
            : "imports allowed with the token from \(options.tokenFile ?? "")"
        let location = catalogue.location
        let application = CatalogueServer.makeApplication(catalogue: catalogue, options: serverOptions, logger: logger) { address in
            standardError("catalogue serve: http://\(address)/ (\(location); \(access))")
        }
        try await application.runService()
    }
}
#endif
