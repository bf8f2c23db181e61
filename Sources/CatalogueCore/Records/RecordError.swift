/// A write of a record was refused.
public enum RecordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No row of `table` has this id.
    case notFound(table: String, id: Int64)
    /// The record has no id, and the operation needs one.
    case missingID(table: String)
    /// An alias contains the separator `;`.
    case invalidAlias(String)

    public var description: String {
        switch self {
        case .notFound(let table, let id): "no \(table) with id \(id)"
        case .missingID(let table): "the \(table) record has no id"
        case .invalidAlias(let alias): "invalid alias \(String(reflecting: alias)): aliases must not contain ';'"
        }
    }
}
