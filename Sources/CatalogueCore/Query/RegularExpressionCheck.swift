import Foundation

/// Checks `MATCHES` patterns before they reach the database, so a bad pattern is one clear
/// error (``FetchRequestError/invalidRegularExpression(_:reason:)``) on every engine.
enum RegularExpressionCheck {
    static func validate(_ pattern: String) throws {
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw FetchRequestError.invalidRegularExpression(pattern, reason: "it does not compile")
        }
    }
}
