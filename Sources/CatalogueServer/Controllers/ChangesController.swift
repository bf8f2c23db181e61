#if Server
import CatalogueCore
import Hummingbird
import ServiceLifecycle

/// `GET /api/{entity}/changes`: a Server-Sent Events stream. `ready` on connect (once the
/// server watches the catalogue's changes, a few milliseconds after it starts), a `change`
/// event (``ChangeEvent``) whenever the catalogue changes (this server's imports, another
/// process, another machine), and a `: keep-alive` comment line every
/// ``ServerOptions/keepAliveInterval``. No replay: a client that reconnects refreshes, as does
/// one that fell more than 1,000 events behind (``ChangeStreamQueue``). The stream ends when the
/// client goes away or the server shuts down gracefully.
struct ChangesController<R: ServedRecord>: Sendable {
    let broadcaster: ChangeBroadcaster
    let keepAliveInterval: Duration
    /// Shared by every entity's streams.
    let limit: SlotLimit

    var endpoints: RouteCollection<BasicRequestContext> {
        RouteCollection(context: BasicRequestContext.self)
            .get(use: changes)
    }

    @Sendable func changes(_ request: Request, context: BasicRequestContext) async throws -> Response {
        guard let slot = limit.take() else {
            throw APIError(
                .serviceUnavailable, "too many change streams are open (at most \(limit.maximum)); try again later",
                headers: [.retryAfter: "5"])
        }
        let broadcaster = self.broadcaster
        let interval = keepAliveInterval
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8",
            .cacheControl: "no-cache",
            HTTPFields.Element.Name("X-Accel-Buffering")!: "no",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // Held while the stream runs; given back when it ends, or with the response if it
            // is never written.
            defer { withExtendedLifetime(slot) {} }
            let queue = ChangeStreamQueue(entity: R.entity.entity)
            // `ready` means what is committed from now on is reported: once the server watches.
            try await broadcaster.waitUntilWatching()
            queue.push(.ready)
            let subscription = broadcaster.subscribe(to: R.entity.entity) { queue.push(.change($0)) }
            defer {
                subscription.cancel()
                queue.finish()
            }
            // Structured throughout (no unstructured task): the keep-alive ticker is a child
            // task, and graceful shutdown ends the stream by finishing it.
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        while true {
                            try await Task.sleep(for: interval)
                            queue.push(.keepAlive)
                        }
                    }
                    for await event in queue.events {
                        if let reload = queue.reloadIfDropped() {
                            try await writer.write(ByteBuffer(string: reload.text))
                        }
                        try await writer.write(ByteBuffer(string: event.text))
                    }
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                queue.finish()
            }
            try await writer.finish(nil)
        })
    }
}
#endif
