#if Server
import Logging
import NIOCore

/// Closes a connection whose client takes nothing of what the server writes for `timeout`
/// (``ServerOptions/writeTimeout``): the connection stays unwritable (SwiftNIO's buffer past its
/// high-water mark, the socket's full) that long.
///
/// A response stuck on such a client (a change stream, an export, once the export itself was
/// stopped) otherwise held its connection, a slot of ``ConnectionLimit``, and megabytes of the
/// kernel's socket buffers, for as long as the client stayed connected; the idle timeout does
/// not apply while a response is being written.
///
/// ```swift
/// HTTP1Channel.Configuration(additionalChannelHandlers: [WriteTimeoutHandler(timeout: .seconds(120), logger: logger)])
/// ```
final class WriteTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    // Reads pass through untouched (the default `channelRead` forwards them as they are).
    typealias InboundIn = NIOAny

    let timeout: TimeAmount
    let logger: Logger
    private var closing: Scheduled<Void>?

    init(timeout: Duration, logger: Logger) {
        self.timeout = TimeAmount(timeout)
        self.logger = logger
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            cancel()
        } else if closing == nil {
            let timeout = timeout
            let logger = logger
            closing = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                logger.notice(
                    "closing a connection whose client took nothing for \(Self.seconds(timeout)) s",
                    metadata: ["remote": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
                context.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    private func cancel() {
        closing?.cancel()
        closing = nil
    }

    /// `amount` in whole seconds, or with a decimal below one.
    private static func seconds(_ amount: TimeAmount) -> String {
        let seconds = Double(amount.nanoseconds) / 1e9
        return seconds >= 1 && seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
#endif
