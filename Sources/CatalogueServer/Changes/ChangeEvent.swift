#if Server
import CatalogueCore

/// The data of a `change` event on `/api/{entity}/changes`: which records of one entity were
/// inserted, updated or deleted. `reload` says other rows may have changed too (the engine
/// could not name them all, or there were too many to list): a client refreshes what it shows.
///
/// ```json
/// {"entity": "products", "inserted": [75], "updated": [], "deleted": [], "reload": false}
/// ```
struct ChangeEvent: Encodable, Sendable, Equatable {
    var entity: CatalogueEntity
    var inserted: [Int64] = []
    var updated: [Int64] = []
    var deleted: [Int64] = []
    var reload = false

    /// The most ids an event lists; past it, the lists are left empty and `reload` is set.
    static let maximumListedIDs = 10_000
}

/// One message of a change stream, as Server-Sent Events text.
enum ServerSentEvent: Sendable, Equatable {
    /// `event: ready` with `data: {}`, first on every stream.
    case ready
    /// `event: change` with the change as JSON.
    case change(ChangeEvent)
    /// A comment line that keeps idle connections open.
    case keepAlive

    /// The event's text, ending with the blank line that ends an event.
    var text: String {
        switch self {
        case .ready:
            return "event: ready\ndata: {}\n\n"
        case .change(let change):
            let data = (try? JSONBody.encode(change)) ?? #"{"entity":"\#(change.entity.rawValue)","inserted":[],"updated":[],"deleted":[],"reload":true}"#
            return "event: change\ndata: \(data)\n\n"
        case .keepAlive:
            return ": keep-alive\n\n"
        }
    }
}
#endif
