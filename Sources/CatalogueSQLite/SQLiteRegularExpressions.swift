import CatalogueCore
import Foundation
import SQLiteStore

/// The `catalogue_matches(text, pattern, options)` function behind `MATCHES` on SQLite: 1 when
/// the whole text matches the ICU regular expression, 0 when not, NULL for NULL text. Options as
/// ``ComparisonOptions``: 1 case-insensitive, 2 without diacritics (the text is folded; the
/// pattern comes folded). Compiled patterns are kept in a small cache, as each row calls it.
///
/// ICU's matcher backtracks: a pattern with nested repetition (`(a+)+!`) takes time exponential
/// in the length of a value it almost matches, 0.4 s for 24 letters and twice as long for each
/// one more, and SQLite cannot stop a statement inside one call of a function. So a match
/// reports its progress, and one that reports ``maximumProgressReports`` times on one value
/// (about a tenth of a second here) fails the statement with ``RegularExpressionTooSlow``.
/// Patterns that do not backtrack so never report at all.
enum SQLiteRegularExpressions {
    /// How many of ICU's progress reports one value's match may take.
    static let maximumProgressReports = 1_000

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
            return .integer(try matches(expression, text, pattern: pattern) ? 1 : 0)
        }
    }

    /// Whether `expression` matches `text`; throws ``RegularExpressionTooSlow`` when the match
    /// reports its progress ``maximumProgressReports`` times.
    private static func matches(_ expression: NSRegularExpression, _ text: String, pattern: String) throws -> Bool {
        var found = false
        var reports = 0
        expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) { match, _, stop in
            if match != nil {
                found = true
                stop.pointee = true
                return
            }
            reports += 1
            if reports >= maximumProgressReports { stop.pointee = true }
        }
        if !found, reports >= maximumProgressReports { throw RegularExpressionTooSlow(pattern: pattern) }
        return found
    }

    /// The compiled whole-text pattern, or nil when it does not compile.
    private static func expression(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        if let cached = cache.withLock({ $0[key] }) { return cached }
        guard let compiled = try? NSRegularExpression(
            pattern: "\\A(?:" + pattern + ")\\z",
            options: caseInsensitive ? [.caseInsensitive, .dotMatchesLineSeparators] : [.dotMatchesLineSeparators])
        else { return nil }
        cache.withLock { cache in
            if cache.count >= capacity { cache.removeAll() }
            cache[key] = compiled
        }
        return compiled
    }
}

/// A `MATCHES` pattern backtracked too long on one value (``SQLiteRegularExpressions``).
struct RegularExpressionTooSlow: Error, CustomStringConvertible {
    let pattern: String

    var description: String {
        "MATCHES stopped: the regular expression \(pattern) backtracks too long on one value; "
            + "nested repetition such as (a+)+ is the usual cause, and a pattern without it finds the same"
    }
}
