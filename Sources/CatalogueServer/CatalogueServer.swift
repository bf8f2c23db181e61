#if Server
import CatalogueCore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// `catalogue serve`: the catalogue over HTTP, for many users at once. A JSON API with one shape
/// for both entities (search, sections, scope counts, records, live changes, imports; described
/// by `docs/openapi.yaml`) and the search page at `/`, embedded in the binary.
///
/// The server reads and writes the catalogue only through ``Catalogue``'s engine-neutral async
/// methods, so it runs the same on any engine, and never blocks its event loops on the database.
///
/// ```swift
/// let catalogue = try Catalogue(path: "catalogue.sqlite")
/// var options = ServerOptions()
/// options.port = 8080
/// let app = CatalogueServer.makeApplication(catalogue: catalogue, options: options, logger: Logger(label: "serve"))
/// try await app.runService()   // until SIGINT or SIGTERM; in-flight requests finish
/// ```
public enum CatalogueServer {
    /// The application: the router below, the change broadcaster as a service, listening where
    /// `options` say, with at most `options.maximumConnections` connections open (and
    /// `options.maximumConnectionsPerAddress` from one client address), idle ones
    /// closed after `options.idleTimeout` and those whose client takes nothing for
    /// `options.writeTimeout`. `catalogue serve` runs it; the tests run it on a free port.
    public static func makeApplication(
        catalogue: Catalogue, options: ServerOptions, logger: Logger,
        onServerRunning: @escaping @Sendable (_ address: String) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let cache = ResultCache()
        let broadcaster = ChangeBroadcaster(
            catalogue: catalogue, cache: cache, pollingInterval: options.changePollingInterval, logger: logger)
        let router = makeRouter(catalogue: catalogue, options: options, broadcaster: broadcaster, logger: logger)
        let maximumConnections = ConnectionLimit.effectiveMaximum(requested: options.maximumConnections)
        if maximumConnections < options.maximumConnections {
            logger.notice(
                "at most \(maximumConnections) connections at once: the open-file limit (ulimit -n) is \(OpenFileLimit.current ?? 0)")
        }
        let connectionLimit = ConnectionLimit(maximum: maximumConnections, logger: logger)
        let addressLimit = options.maximumConnectionsPerAddress > 0
            ? AddressConnectionLimit(
                maximum: options.maximumConnectionsPerAddress, logger: logger, countsLoopback: options.limitsLoopbackAddresses)
            : nil
        return Application(
            router: router,
            server: .http1(configuration: .init(
                additionalChannelHandlers: (addressLimit.map { [$0.handler()] } ?? []) + [
                    WriteTimeoutHandler(timeout: options.writeTimeout, logger: logger), MalformedRequestHandler(),
                ],
                idleTimeout: TimeAmount(options.idleTimeout))),
            configuration: ApplicationConfiguration(
                address: .hostname(options.host, port: options.port), availableConnectionsDelegate: connectionLimit),
            services: [broadcaster],
            onServerRunning: { channel in
                let address = channel.localAddress.map { "\($0.ipAddress ?? options.host):\($0.port ?? options.port)" }
                await onServerRunning(address ?? "\(options.host):\(options.port)")
            },
            logger: logger)
    }

    /// The routes: the page, then for each entity its search, sections, scopes, changes, import,
    /// export and records (literal paths before `/{key}`), behind the access log, CORS (only with a
    /// configured origin), security headers and JSON errors.
    static func makeRouter(
        catalogue: Catalogue, options: ServerOptions, broadcaster: ChangeBroadcaster, logger: Logger
    ) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: AccessLogMiddleware(logger: logger))
        if let origin = options.corsOrigin {
            router.add(middleware: CORSMiddleware(
                allowOrigin: .custom(origin),
                allowHeaders: [.accept, .authorization, .contentType],
                allowMethods: [.get, .post, .options],
                maxAge: .seconds(600)))
        }
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: JSONErrorMiddleware(logger: logger))
        router.addRoutes(PageController(assets: .embedded).endpoints)
        let importRunner = ImportRunner()
        let exports = SlotLimit(maximum: 1)
        let connections = ConnectionLimit.effectiveMaximum(requested: options.maximumConnections)
        let changeStreams = SlotLimit(maximum: options.maximumChangeStreams ?? max(1, connections / 4))
        addAPI(for: Country.self, to: router, catalogue: catalogue, options: options, broadcaster: broadcaster,
               importRunner: importRunner, exports: exports, changeStreams: changeStreams, logger: logger)
        addAPI(for: Product.self, to: router, catalogue: catalogue, options: options, broadcaster: broadcaster,
               importRunner: importRunner, exports: exports, changeStreams: changeStreams, logger: logger)
        return router
    }

    private static func addAPI<R: ServedRecord>(
        for type: R.Type, to router: Router<BasicRequestContext>, catalogue: Catalogue, options: ServerOptions,
        broadcaster: ChangeBroadcaster, importRunner: ImportRunner, exports: SlotLimit, changeStreams: SlotLimit,
        logger: Logger
    ) {
        let base = "/api/\(R.entity.plural)"
        let cache = broadcaster.cache
        router.addRoutes(SearchController<R>(catalogue: catalogue, cache: cache).endpoints, atPath: RouterPath(base))
        router.addRoutes(SectionsController<R>(catalogue: catalogue, cache: cache).endpoints, atPath: RouterPath(base + "/sections"))
        router.addRoutes(ScopesController<R>(catalogue: catalogue, cache: cache).endpoints, atPath: RouterPath(base + "/scopes"))
        router.addRoutes(
            SuggestionsController<R>(catalogue: catalogue, cache: cache).endpoints, atPath: RouterPath(base + "/suggestions"))
        router.addRoutes(
            ChangesController<R>(broadcaster: broadcaster, keepAliveInterval: options.keepAliveInterval, limit: changeStreams).endpoints,
            atPath: RouterPath(base + "/changes"))
        router.addRoutes(
            ImportController<R>(
                catalogue: catalogue, cache: cache, token: options.importToken, maximumBodySize: options.maximumBodySize,
                runner: importRunner, logger: logger
            ).endpoints,
            atPath: RouterPath(base + "/import"))
        router.addRoutes(
            ExportController<R>(catalogue: catalogue, exports: exports, pace: options.exportPace, logger: logger).endpoints,
            atPath: RouterPath(base + "/export"))
        router.addRoutes(RecordsController<R>(catalogue: catalogue).endpoints, atPath: RouterPath(base))
    }
}
#endif
