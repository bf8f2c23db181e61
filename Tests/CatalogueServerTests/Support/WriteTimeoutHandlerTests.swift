#if Server
import Logging
import NIOCore
import NIOEmbedded
import Testing
@testable import CatalogueServer

/// ``WriteTimeoutHandler``: a connection that stays unwritable for the write timeout is closed;
/// one whose client takes data again in time is kept. On an `EmbeddedChannel`, whose clock the
/// test moves.
@Suite("Write timeout")
struct WriteTimeoutHandlerTests {
    /// A channel with the handler (a 120 s timeout), its log lines captured.
    static func channel(_ logs: CapturedLogs) throws -> EmbeddedChannel {
        let logger = Logger(label: "test") { _ in CapturingLogHandler(logs: logs) }
        let channel = EmbeddedChannel(handler: WriteTimeoutHandler(timeout: .seconds(120), logger: logger))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        return channel
    }

    /// Sets the channel's writability and tells the pipeline, as SwiftNIO does when its buffer
    /// passes a water mark.
    static func setWritable(_ writable: Bool, _ channel: EmbeddedChannel) {
        channel.isWritable = writable
        channel.pipeline.fireChannelWritabilityChanged()
    }

    @Test("Unwritable for the whole timeout: closed, and logged")
    func closedWhenStuck() throws {
        let logs = CapturedLogs()
        let channel = try Self.channel(logs)
        Self.setWritable(false, channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(119))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
        #expect(logs.all.map(\.message) == ["closing a connection whose client took nothing for 120 s"])
    }

    @Test("Writable again in time: kept; the time starts again at the next stall")
    func keptWhenTheClientReads() throws {
        let logs = CapturedLogs()
        let channel = try Self.channel(logs)
        Self.setWritable(false, channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(100))
        Self.setWritable(true, channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(100))
        Self.setWritable(false, channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(100))
        #expect(channel.isActive)
        #expect(logs.all.isEmpty)
        channel.embeddedEventLoop.advanceTime(by: .seconds(20))
        #expect(!channel.isActive)
    }

    @Test("Closed meanwhile by the client: nothing left scheduled")
    func closedByTheClient() throws {
        let logs = CapturedLogs()
        let channel = try Self.channel(logs)
        Self.setWritable(false, channel)
        _ = try channel.finish(acceptAlreadyClosed: true)
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        #expect(logs.all.isEmpty)
    }
}
#endif
