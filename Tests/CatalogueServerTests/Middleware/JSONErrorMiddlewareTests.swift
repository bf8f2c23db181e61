#if Server
import CatalogueKit
import Foundation
import Hummingbird
import Logging
import NIOEmbedded
import Testing
@testable import CatalogueServer

/// What a failure that is not the API's own becomes: a database out of reach a 503 with
/// `Retry-After`, anything else a 500; neither names the database, the detail goes to the log.
@Suite("JSON errors")
struct JSONErrorMiddlewareTests {
    /// An engine's error, as PostgreSQL's says a server that is down (or, unavailable false,
    /// anything else).
    struct EngineFailure: DatabaseAvailabilityError, CustomStringConvertible {
        let isDatabaseUnavailable: Bool
        var description: String { "cannot connect to postgres://app@db.internal:5432/catalogue: connection refused (is the server running?)" }
    }

    /// Collects a response's body.
    struct BodyCollector: ResponseBodyWriter {
        let bytes: Locked<[UInt8]>

        mutating func write(_ buffer: ByteBuffer) async throws {
            bytes.withLock { $0 += buffer.readableBytesView }
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    /// The response and log lines for a request to /api/countries whose handler throws `error`.
    static func answer(to error: any Error) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String, logs: CapturedLogs) {
        let logs = CapturedLogs()
        let logger = Logger(label: "catalogue.serve.test") { _ in CapturingLogHandler(logs: logs) }
        let middleware = JSONErrorMiddleware<BasicRequestContext>(logger: logger)
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/api/countries?q=bog"),
            body: RequestBody(buffer: ByteBuffer()))
        let channel = EmbeddedChannel()
        // Closed at the end: an open channel and its pipeline hold each other (LeakSanitizer).
        defer { _ = try? channel.finish() }
        let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        let response = try await middleware.handle(request, context: context) { _, _ in throw error }
        let bytes = Locked<[UInt8]>([])
        _ = try await response.body.write(BodyCollector(bytes: bytes))
        return (response.status, response.headers, String(decoding: bytes.withLock { $0 }, as: UTF8.self), logs)
    }

    @Test("A database out of reach: 503, Retry-After, a message naming nothing of it; the reason in the log")
    func unavailable() async throws {
        let answer = try await Self.answer(to: EngineFailure(isDatabaseUnavailable: true))
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.headers[.retryAfter] == "5")
        #expect(answer.body == #"{"error":"the catalogue's database is not answering; try again shortly"}"#)
        let line = try #require(answer.logs.all.first)
        #expect(line.level == .error)
        #expect(line.message == "database unavailable")
        #expect(line.metadata["error"]?.description == EngineFailure(isDatabaseUnavailable: true).description)
        #expect(line.metadata["path"]?.description == "/api/countries")
    }

    @Test("A request whose task was cancelled (its read stopped): 503 with Retry-After, no error logged")
    func cancelled() async throws {
        let answer = try await Self.answer(to: CancellationError())
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.headers[.retryAfter] == "1")
        #expect(answer.body == #"{"error":"the request was cancelled before it could be answered; try again"}"#)
        #expect(answer.logs.all.allSatisfy { $0.level < .error })
    }

    @Test("Any other failure, of the engine or not: 500 without Retry-After, the reason in the log only")
    func internalError() async throws {
        for error: any Error in [EngineFailure(isDatabaseUnavailable: false), CocoaError(.fileWriteOutOfSpace)] {
            let answer = try await Self.answer(to: error)
            #expect(answer.status == .internalServerError)
            #expect(answer.headers[.retryAfter] == nil)
            #expect(answer.body == #"{"error":"the server could not answer: the catalogue could not be read or written"}"#)
            #expect(!answer.body.contains("db.internal"))
            #expect(answer.logs.all.map(\.message) == ["internal error"])
        }
    }
}
#endif
