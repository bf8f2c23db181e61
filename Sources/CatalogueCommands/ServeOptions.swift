import ArgumentParser
import Logging

/// The options of `catalogue serve`, and its help (``ServeCommand``). `catalogue` checks them
/// and hands the command line to `catalogue-server` (``ServeHandoff``), which parses them again
/// and serves.
///
/// ```swift
/// let server: ServeServer = { global, options in print(options.host, options.port) }
/// ```
package struct ServeOptions: ParsableArguments {
    /// The command's name, abstract and help text.
    package static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the catalogue over HTTP: a JSON API and a search page.",
        discussion: """
            Open http://127.0.0.1:8080/ for the search page: it searches as you type, with scopes, \
            match modes, sections and an A–Z index, and follows changes live. The JSON API is \
            under /api (see docs/openapi.yaml): /api/countries?q=bog&scope=capital, \
            /api/products/sections, /api/countries/CO, /api/products/changes (Server-Sent \
            Events), POST /api/products/import.

            The server listens on 127.0.0.1 unless --host says otherwise. Without --token-file it \
            is read-only: imports are refused with 403. With it, POST /api/{entity}/import needs \
            'Authorization: Bearer TOKEN', TOKEN being the file's contents (surrounding whitespace \
            removed; at least 16 characters: openssl rand -hex 24 > token); keep the file private \
            (chmod 600), else the server warns. CORS headers are sent only for --cors-origin. One \
            access log line per request goes to stderr. SIGINT (Ctrl-C) or SIGTERM stops it: \
            requests in flight finish first.

            At most --max-connections connections are open at once (fewer when the open-file \
            limit, ulimit -n, is lower; the server raises it as far as it may), and at most \
            --max-connections-per-address from one client address (not counting loopback, where a \
            reverse proxy on this machine connects from; behind a proxy elsewhere, raise it or \
            give 0); a connection that sends nothing for --idle-timeout seconds, or is that slow \
            to send a request, is closed.

            The server is the program catalogue-server, installed next to catalogue: `catalogue \
            serve` runs it with the same arguments, so that every other command starts without \
            loading the HTTP server's code.

            Examples:
              catalogue serve
              catalogue serve --db /var/lib/catalogue.sqlite --port 9000
              catalogue serve --token-file ~/.config/catalogue/token
              catalogue serve --host 0.0.0.0 --cors-origin https://app.example.org
              curl 'http://127.0.0.1:8080/api/countries?q=bog&scope=capital'
              curl -H "Authorization: Bearer $(cat token)" --data-binary @products.csv \\
                   http://127.0.0.1:8080/api/products/import
            """)

    @Option(help: ArgumentHelp("The address to listen on (0.0.0.0: every interface).", valueName: "address"))
    package var host = "127.0.0.1"

    @Option(help: "The TCP port (0: any free port).")
    package var port = 8080

    @Option(name: .customLong("token-file"), help: ArgumentHelp(
        "A file holding the token imports need; without it the server is read-only.", valueName: "path"))
    package var tokenFile: String?

    @Option(name: .customLong("cors-origin"), help: ArgumentHelp(
        "The one origin whose pages may call the API (e.g. https://app.example.org); no CORS headers otherwise.",
        valueName: "origin"))
    package var corsOrigin: String?

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "The most connections open at once; more wait until one closes (each open page's live updates hold one).",
        valueName: "count"))
    package var maximumConnections = 4096

    @Option(name: .customLong("max-connections-per-address"), help: ArgumentHelp(
        "The most connections one client address may hold; more are closed at once (0: no limit; loopback is never limited).",
        valueName: "count"))
    package var maximumConnectionsPerAddress = 256

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Seconds a connection may stay idle (no request, or one that stops arriving) before it is closed.",
        valueName: "seconds"))
    package var idleTimeout = 30.0

    @Option(name: .customLong("log-level"), help: "The least severe log lines shown: trace, debug, info, notice, warning, error, critical.")
    package var logLevel: Logger.Level = .info

    package init() {}

    package func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be from 0 to 65535, not \(port)")
        }
        guard !host.isEmpty else {
            throw ValidationError("--host must not be empty")
        }
        guard maximumConnections >= 1 else {
            throw ValidationError("--max-connections must be at least 1, not \(maximumConnections)")
        }
        guard maximumConnectionsPerAddress >= 0 else {
            throw ValidationError("--max-connections-per-address must be 0 (no limit) or more, not \(maximumConnectionsPerAddress)")
        }
        // The server keeps it in whole milliseconds: less than one would be none.
        guard idleTimeout.isFinite, idleTimeout >= 0.001, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be from 0.001 to 86400 seconds, not \(idleTimeout)")
        }
        if let corsOrigin, !Self.isOrigin(corsOrigin) {
            throw ValidationError("--cors-origin must be an origin such as https://app.example.org (scheme, host, optional port), not '\(corsOrigin)'")
        }
    }

    /// `http(s)://host[:port]`, nothing after.
    package static func isOrigin(_ text: String) -> Bool {
        for scheme in ["http://", "https://"] where text.hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            return !rest.isEmpty && !rest.contains("/") && !rest.contains("?") && !rest.contains("#") && !rest.contains(" ")
        }
        return false
    }
}

/// What serving is, in the program that links a server: the command line's options, run until
/// the server stops (``ServeCommand``, ``CatalogueCommand/main(server:)``).
package typealias ServeServer = @Sendable (GlobalOptions, ServeOptions) async throws -> Void

extension Logger.Level: @retroactive ExpressibleByArgument {}
