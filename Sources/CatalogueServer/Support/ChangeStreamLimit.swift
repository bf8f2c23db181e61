#if Server
import Synchronization

/// How many change streams may be open at once (``ServerOptions/maximumChangeStreams``).
///
/// A change stream holds its connection for as long as the client keeps it, and its keep-alive
/// lines keep it from ever being idle: without a limit of their own, clients opening streams
/// could hold every connection the server allows and leave none for searches. A stream past
/// the limit is answered 503 with `Retry-After`.
///
/// ```swift
/// let limit = ChangeStreamLimit(maximum: 2)
/// let first = limit.take()    // a Slot
/// let second = limit.take()   // a Slot
/// limit.take()                // nil: two are open
/// _ = first                   // the slot is given back when the last reference goes
/// ```
final class ChangeStreamLimit: Sendable {
    /// A stream's place; given back when released, by whatever holds it last (the response
    /// body that streams, or the response that was never written).
    final class Slot: Sendable {
        private let limit: ChangeStreamLimit

        fileprivate init(_ limit: ChangeStreamLimit) {
            self.limit = limit
        }

        deinit {
            limit.open.subtract(1, ordering: .relaxed)
        }
    }

    let maximum: Int
    private let open = Atomic<Int>(0)

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// A slot, or nil when ``maximum`` streams are open.
    func take() -> Slot? {
        let (_, taken) = open.add(1, ordering: .relaxed)
        guard taken <= maximum else {
            open.subtract(1, ordering: .relaxed)
            return nil
        }
        return Slot(self)
    }

    /// How many streams are open now.
    var openStreams: Int {
        open.load(ordering: .relaxed)
    }
}
#endif
