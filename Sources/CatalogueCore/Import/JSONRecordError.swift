/// A JSON or NDJSON record that cannot be read.
///
/// A bad value (a nested object, a duplicate key, a string that is too long) spoils only its
/// record, and so does a syntax error in NDJSON: reading goes on with the next line. A syntax
/// error in a JSON array is fatal (``isFatal``): where the next object starts is unknown.
///
/// ```swift
/// catch let error as JSONRecordError {
///     print("line \(error.line): \(error.key.map { $0 + ": " } ?? "")\(error.message)")
/// }
/// ```
public struct JSONRecordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The physical line (1-based) of the problem.
    public let line: Int
    /// The key whose value is at fault, if any.
    public let key: String?
    /// What is wrong ("expected ':' after a key").
    public let message: String
    /// Whether the reader cannot go on after this error.
    public let isFatal: Bool

    /// An error on `line`, in `key`'s value when one is at fault.
    public init(line: Int, key: String?, message: String, isFatal: Bool) {
        self.line = line
        self.key = key
        self.message = message
        self.isFatal = isFatal
    }

    public var description: String {
        "line \(line): " + (key.map { "\($0): " } ?? "") + message
    }
}
