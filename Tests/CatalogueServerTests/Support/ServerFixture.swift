import CatalogueKit
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
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

    /// The application over this catalogue, its log lines captured in ``logs``.
    func application(_ options: ServerOptions = ServerFixture.options()) -> some ApplicationProtocol {
        let logs = self.logs
        let logger = Logger(label: "catalogue.serve.test") { _ in CapturingLogHandler(logs: logs) }
        return CatalogueServer.makeApplication(catalogue: catalogue, options: options, logger: logger)
    }

    /// Runs `body` with a client of the application (in process through the router, or a live
    /// server), the server's tasks kept off the cooperative pool (``DispatchTaskExecutor``).
    func test<T: Sendable>(
        _ setup: TestingSetup = .router, options: ServerOptions = ServerFixture.options(),
        _ body: @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        let application = self.application(options)
        return try await withTaskExecutorPreference(DispatchTaskExecutor.shared) {
            try await application.test(setup, body)
        }
    }
}

extension TestClientProtocol {
    /// GET `uri`.
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    /// POST `body` to `uri` with the fixture's token (or `token`; nil: no Authorization header).
    func post(_ uri: String, _ body: String, token: String? = ServerFixture.token, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }
}

extension TestResponse {
    /// The body decoded as `T`.
    func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    /// The body as a JSON object.
    var json: [String: Any] {
        get throws {
            try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
        }
    }

    /// The `error` of a JSON error body.
    var errorMessage: String? {
        (try? json)?["error"] as? String
    }

    var text: String {
        String(buffer: body)
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
