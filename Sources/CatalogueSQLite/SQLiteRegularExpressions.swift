import CatalogueCore
import Foundation
import SQLiteStore

/// The `catalogue_matches(text, pattern, options)` function behind `MATCHES` on SQLite: 1 when
/// the whole text matches the ICU regular expression, 0 when not, NULL for NULL text. Options as
/// ``ComparisonOptions``: 1 case-insensitive, 2 without diacritics (the text is folded; the
/// pattern comes folded). Compiled patterns are kept in a small cache, as each row calls it.
enum SQLiteRegularExpressions {
    private static let cache = Locked<[String: NSRegularExpression]>([:])
    private static let capacity = 64

    static func register(on connection: Connection) throws {
        try connection.registerFunction(SQLiteDialect.matchesFunctionName, argumentCount: 3) { arguments in
            guard case .text(var text) = arguments[0] else { return .null }
            guard case .text(let pattern) = arguments[1] else { return .null }
            let options: ComparisonOptions
            if case .integer(let raw) = arguments[2] { options = ComparisonOptions(rawValue: Int(raw)) } else { options = [] }
            if options.contains(.diacriticInsensitive) {
                text = Folding.fold(text, options: .diacriticInsensitive)
            }
            guard let expression = expression(pattern, caseInsensitive: options.contains(.caseInsensitive)) else {
                return .null
            }
            let range = NSRange(text.startIndex..., in: text)
            return .integer(expression.firstMatch(in: text, options: [], range: range) != nil ? 1 : 0)
        }
    }

    /// The compiled whole-text pattern, or nil when it does not compile.
    private static func expression(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        if let cached = cache.withLock({ $0[key] }) { return cached }
        guard let compiled = try? NSRegularExpression(
            pattern: "\\A(?:" + pattern + ")\\z", options: caseInsensitive ? [.caseInsensitive] : [])
        else { return nil }
        cache.withLock { cache in
            if cache.count >= capacity { cache.removeAll() }
            cache[key] = compiled
        }
        return compiled
    }
}
