#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Testing
@testable import CatalogueServer

/// A catalogue in a temporary file (so reads use the reader pool and changes are real) and the
/// server's application over it, as `catalogue serve` builds it.
final class ServerFixture: Sendable {
    static let token = "test-token-0123456789abcdef"

    let directory: URL
    let catalogue: Catalogue
    let logs = CapturedLogs()

    init(seed: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("CatalogueServerTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        catalogue = try Catalogue(path: directory.appendingPathComponent("catalogue.sqlite").path, seed: seed)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    var databasePath: String {
        directory.appendingPathComponent("catalogue.sqlite").path
    }

    /// Options with the import token, port 0 (any free port) and fast change polling.
    static func options(readOnly: Bool = false, _ configure: (inout ServerOptions) -> Void = { _ in }) -> ServerOptions {
        var options = ServerOptions()
        options.port = 0
        options.importToken = readOnly ? nil : try! ImportToken(token)
        options.changePollingInterval = .milliseconds(20)
        configure(&options)
        return options
    }

    /// The application over this catalogue, its log lines captured in ``logs``; `onServerRunning`
    /// gets the address it listens on.
    func application(
        _ options: ServerOptions = ServerFixture.options(),
        onServerRunning: @escaping @Sendable (_ address: String) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let logs = self.logs
        let logger = Logger(label: "catalogue.serve.test") { _ in CapturingLogHandler(logs: logs) }
        return CatalogueServer.makeApplication(catalogue: catalogue, options: options, logger: logger, onServerRunning: onServerRunning)
    }

    /// Why ``test(options:_:)`` has no server to give its body.
    struct NotListening: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// Runs `body` with a client of the application, served at 127.0.0.1 on a free port, then
    /// shuts the server down. The server's tasks are kept off the cooperative pool
    /// (``DispatchTaskExecutor``).
    func test<T: Sendable>(
        options: ServerOptions = ServerFixture.options(),
        _ body: @Sendable (TestClient) async throws -> T
    ) async throws -> T {
        let (addresses, reportAddress) = AsyncStream.makeStream(of: String.self)
        let application = self.application(options) { address in
            reportAddress.yield(address)
            reportAddress.finish()
        }
        return try await withTaskExecutorPreference(DispatchTaskExecutor.shared) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                let services = ServiceGroup(configuration: .init(services: [application], logger: application.logger))
                group.addTask {
                    defer { reportAddress.finish() }  // a server that could not start ends the wait
                    try await services.run()
                }
                do {
                    guard let address = await addresses.first(where: { _ in true }) else {
                        try await group.waitForAll()  // the server's error
                        throw NotListening(reason: "the server stopped before it listened")
                    }
                    guard let port = address.split(separator: ":").last.flatMap({ Int($0) }) else {
                        throw NotListening(reason: "the server listens at \(address), no port")
                    }
                    let value = try await body(TestClient(port: port))
                    await services.triggerGracefulShutdown()
                    try await group.waitForAll()
                    return value
                } catch {
                    await services.triggerGracefulShutdown()
                    try? await group.waitForAll()
                    throw error
                }
            }
        }
    }
}

/// The body of a search answer.
struct SearchBody<Item: Decodable>: Decodable {
    let total: Int
    let items: [Item]
    let highlights: [[String: [SegmentBody]]]
}

struct SegmentBody: Decodable, Equatable, CustomStringConvertible {
    let text: String
    let match: Bool

    var description: String { match ? "[\(text)]" : text }
}

/// The segments as one marked string: "[Bog]otá".
func marked(_ segments: [SegmentBody]?) -> String? {
    segments.map { $0.map(\.description).joined() }
}

/// `text` percent-encoded for a query string (every byte but unreserved ones).
func queryEncoded(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
}
#endif
