/// The limits an import checks every value against, so that one bad record cannot make the
/// import use memory in proportion to the file.
///
/// ```swift
/// ImportLimits.maximumFieldLength  // 10_000
/// ```
public enum ImportLimits {
    /// The longest value, in characters (Unicode scalars): 10,000. Longer values are rejected
    /// with their line ("name: longer than 10,000 characters").
    public static let maximumFieldLength = 10_000
    /// The most fields in a CSV record or keys in a JSON object: 1,000.
    public static let maximumFieldCount = 1_000
    /// The deepest nesting of JSON arrays and objects, counted from the outermost: 64. Deeper
    /// input is refused ("nesting deeper than 64 levels") before it can exhaust the stack.
    public static let maximumNestingDepth = 64

    /// "longer than 10,000 characters".
    static func tooLongMessage(limit: Int) -> String {
        "longer than \(FieldFormat.grouped(Int64(limit))) characters"
    }
}
