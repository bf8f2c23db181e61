#if Server
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import Testing
@testable import CatalogueServer

/// What a server that cannot listen says.
@Suite("Listen errors")
struct ListenErrorTests {
    @Test("SwiftNIO's bind error becomes the address and the system's reason")
    func fromBindError() throws {
        let failure = try #require(ListenError(IOError(errnoCode: EADDRINUSE, reason: "bind(descriptor:ptr:bytes:)"), host: "127.0.0.1", port: 8080))
        #expect(failure.address == "127.0.0.1:8080")
        #expect(failure.errorNumber == EADDRINUSE)
        #expect(failure.description == "cannot listen on 127.0.0.1:8080: Address already in use")
    }

    @Test("Another error is not a listening error")
    func otherErrors() {
        struct Other: Error {}
        #expect(ListenError(Other(), host: "127.0.0.1", port: 8080) == nil)
        #expect(ListenError(APIError.badRequest("x"), host: "127.0.0.1", port: 8080) == nil)
    }

    // The limit catches a start that never fails. Ten minutes, not one: with every suite in one
    // process (`swift test --traits PostgreSQL`), the synchronous PostgreSQL suites hold the
    // cooperative pool and the threads blocking work runs on, the test waits for them to start,
    // and its failed start ends only once the application's other services (the change
    // broadcaster, the date cache) have stopped: 20-80 s measured between the bind error and that
    // end, and the test passed after 226 s (0.1 s alone).
    @Test("A real port in use: the server's start fails with it", .timeLimit(.minutes(10)))
    func portInUse() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let port = client.port
            var options = ServerOptions()
            options.port = port
            let second = CatalogueServer.makeApplication(catalogue: fixture.catalogue, options: options, logger: .init(label: "second"))
            do {
                try await second.runService()
                Issue.record("a second server started on port \(port)")
            } catch {
                let failure = ListenError(error, host: options.host, port: port)
                #expect(failure?.errorNumber == EADDRINUSE, "\(error)")
            }
        }
    }
}
#endif
