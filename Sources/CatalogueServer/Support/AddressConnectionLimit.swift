#if Server
import CatalogueCore
import Logging
import NIOCore

/// How many connections one client address may hold open at once
/// (``ServerOptions/maximumConnectionsPerAddress``). A connection past it is closed as soon as
/// it is accepted, before anything is read, and a warning names the address (at most once a
/// minute). Without it, one client could take every slot of ``ConnectionLimit`` (4,096 change
/// streams, or connections that trickle a byte now and then), and every other client would wait
/// in the kernel's queue.
///
/// Connections from a loopback address (127.0.0.0/8, ::1) are not counted: a reverse proxy on
/// the same machine carries every client's.
///
/// ```swift
/// let limit = AddressConnectionLimit(maximum: 256, logger: logger)
/// HTTP1Channel.Configuration(additionalChannelHandlers: [limit.handler()])
/// ```
final class AddressConnectionLimit: Sendable {
    /// How long after a warning that an address reached the limit another may be logged.
    static let warningInterval: Duration = .seconds(60)

    let maximum: Int
    let logger: Logger
    /// Whether loopback addresses are counted too (the tests' clients are all on 127.0.0.1).
    let countsLoopback: Bool

    private struct State {
        var open: [String: Int] = [:]
        var warnings = WarningInterval(AddressConnectionLimit.warningInterval)
    }

    private let state = Locked(State())

    init(maximum: Int, logger: Logger, countsLoopback: Bool = false) {
        self.maximum = maximum
        self.logger = logger
        self.countsLoopback = countsLoopback
    }

    /// The handler for one new connection.
    func handler() -> Handler {
        Handler(limit: self)
    }

    /// How many connections `address` holds open now.
    func openConnections(from address: String) -> Int {
        state.withLock { $0.open[address, default: 0] }
    }

    /// Counts a connection from `address`; false (and not counted) when the address already
    /// holds ``maximum``.
    func admit(_ address: String) -> Bool {
        let (admitted, warn) = state.withLock { state -> (Bool, Bool) in
            let open = state.open[address, default: 0]
            guard open >= maximum else {
                state.open[address] = open + 1
                return (true, false)
            }
            return (false, state.warnings.allows())
        }
        if warn {
            logger.warning(
                "closing new connections from \(address): it holds \(maximum) open, the most one address may (--max-connections-per-address)")
        }
        return admitted
    }

    /// Uncounts a connection from `address` that ``admit(_:)`` counted.
    func release(_ address: String) {
        state.withLock { state in
            let open = state.open[address, default: 1] - 1
            state.open[address] = open > 0 ? open : nil
        }
    }

    /// Whether `address` is a loopback one (127.0.0.0/8, ::1, or 127.x mapped into IPv6).
    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let v4):
            // 127.0.0.0/8: the first byte of the address, in network order.
            return UInt32(bigEndian: v4.address.sin_addr.s_addr) >> 24 == 127
        case .v6:
            guard let text = address.ipAddress else { return false }
            return text == "::1" || text.hasPrefix("::ffff:127.")
        case .unixDomainSocket:
            return true
        }
    }

    /// Counts its connection while it is open; closes it at once when its address holds the
    /// most connections already.
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        let limit: AddressConnectionLimit
        /// The address counted for this connection, once counted.
        private var counted: String?
        private var checked = false

        init(limit: AddressConnectionLimit) {
            self.limit = limit
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { check(context: context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            check(context: context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            uncount()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            uncount()
        }

        private func check(context: ChannelHandlerContext) {
            guard !checked else { return }
            checked = true
            guard let remote = context.channel.remoteAddress, let address = remote.ipAddress else { return }
            if !limit.countsLoopback, AddressConnectionLimit.isLoopback(remote) { return }
            if limit.admit(address) {
                counted = address
            } else {
                context.close(promise: nil)
            }
        }

        private func uncount() {
            if let counted { limit.release(counted) }
            counted = nil
        }
    }
}
#endif
