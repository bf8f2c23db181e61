#if Server
import Synchronization

/// At most ``maximum`` of something at once: the server's change streams (a quarter of its
/// connections, ``ServerOptions/maximumChangeStreams``) and its exports (one, each holding a
/// read transaction while it streams). One past the limit is answered 503 with `Retry-After`.
///
/// A change stream holds its connection for as long as the client keeps it, and its keep-alive
/// lines keep it from ever being idle: without a limit of their own, clients opening streams
/// could hold every connection the server allows and leave none for searches.
///
/// ```swift
/// let limit = SlotLimit(maximum: 2)
/// let first = limit.take()    // a Slot
/// let second = limit.take()   // a Slot
/// limit.take()                // nil: two are held
/// _ = first                   // the slot is given back when the last reference goes
/// ```
final class SlotLimit: Sendable {
    /// A place; given back when the last reference to it goes (the response body that streams,
    /// the export's work, or the response that was never written).
    final class Slot: Sendable {
        private let limit: SlotLimit

        fileprivate init(_ limit: SlotLimit) {
            self.limit = limit
        }

        deinit {
            limit.held.subtract(1, ordering: .relaxed)
        }
    }

    let maximum: Int
    private let held = Atomic<Int>(0)

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// A slot, or nil when ``maximum`` are held.
    func take() -> Slot? {
        let (_, taken) = held.add(1, ordering: .relaxed)
        guard taken <= maximum else {
            held.subtract(1, ordering: .relaxed)
            return nil
        }
        return Slot(self)
    }
}
#endif
