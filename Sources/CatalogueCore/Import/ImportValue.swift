/// A value read from an import file, before it is checked against a column: a CSV field is
/// always ``text(_:)``; JSON keeps its own types.
///
/// ```swift
/// let csvYear: ImportValue = .text("2007")
/// let jsonYear: ImportValue = .number("2007")          // the number as written
/// let aliases: ImportValue = .array([.text("UK"), .text("Britain")])
/// ```
public enum ImportValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// A CSV field or a JSON string.
    case text(String)
    /// A JSON number, as written in the file.
    case number(String)
    /// JSON `true` or `false`.
    case boolean(Bool)
    /// A JSON array of scalar values.
    case array([ImportValue])

    /// Whether the value counts as missing: `null`, or empty text (an empty CSV field).
    public var isMissing: Bool {
        switch self {
        case .null: true
        case .text(let text): text.isEmpty
        default: false
        }
    }
}
