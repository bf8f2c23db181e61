#if Server
import CatalogueCore

/// What a list request asks for, read from its query string and checked: the text (`q`), the
/// scope (`scope`, checked against the catalogue later: product types live in the data) and the
/// match mode (`match`).
///
/// ```swift
/// let search = try SearchQuery(QueryString("q=bog&scope=capital"))
/// search.text   // "bog"
/// search.mode   // .prefix
/// ```
struct SearchQuery: Sendable, Hashable {
    /// The search text as given (the library trims it).
    var text: String
    /// The scope key as given; nil: the entity's default.
    var scope: String?
    /// How the text matches.
    var mode: MatchMode

    init(text: String = "", scope: String? = nil, mode: MatchMode = .prefix) {
        self.text = text
        self.scope = scope
        self.mode = mode
    }

    /// Reads `q`, `scope` and `match`. Throws a 400 for text longer than
    /// ``ServerOptions/maximumTextLength`` scalars or an unknown match mode.
    init(_ query: QueryString) throws(APIError) {
        let text = try query.value("q") ?? ""
        if text.unicodeScalars.count > ServerOptions.maximumTextLength {
            throw .badRequest("the search text is longer than \(ServerOptions.maximumTextLength) characters")
        }
        var mode = MatchMode.prefix
        if let match = try query.value("match"), !match.isEmpty {
            guard let parsed = MatchMode(rawValue: match.lowercased()) else {
                let valid = MatchMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw .badRequest("unknown match mode '\(Self.quoted(match))'; valid modes: \(valid)")
            }
            mode = parsed
        }
        let scope = try query.value("scope")
        self.init(text: text, scope: scope?.isEmpty == true ? nil : scope, mode: mode)
    }

    /// Text from the request for a message: one line, at most 64 characters.
    static func quoted(_ text: String) -> String {
        let line = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return line.count > 64 ? String(line.prefix(64)) + "…" : line
    }
}

/// Which rows of a list: `limit` (1…``ServerOptions/maximumLimit``, default
/// ``ServerOptions/defaultLimit``) and `offset` (0 or more).
struct PageWindow: Sendable, Hashable {
    var limit: Int
    var offset: Int

    init(limit: Int = ServerOptions.defaultLimit, offset: Int = 0) {
        self.limit = limit
        self.offset = offset
    }

    /// Reads `limit` and `offset`; throws a 400 when either is not a whole number in range.
    init(_ query: QueryString) throws(APIError) {
        var window = PageWindow()
        if let text = try query.value("limit") {
            guard let limit = Int(text), (1...ServerOptions.maximumLimit).contains(limit) else {
                throw .badRequest(
                    "limit must be a whole number from 1 to \(ServerOptions.maximumLimit), not '\(SearchQuery.quoted(text))'")
            }
            window.limit = limit
        }
        if let text = try query.value("offset") {
            guard let offset = Int(text), offset >= 0, offset <= Int(Int32.max) * 1024 else {
                throw .badRequest("offset must be a whole number, 0 or more, not '\(SearchQuery.quoted(text))'")
            }
            window.offset = offset
        }
        self = window
    }
}
#endif
