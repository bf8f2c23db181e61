/// A CSV record that breaks RFC 4180 or the reader's limits.
///
/// The reader has consumed the whole bad record when it throws this, so reading can go on with
/// the next record (an unterminated quote runs to the end of the input: nothing follows it).
///
/// ```swift
/// do {
///     while let record = try reader.next() { print(record.fields) }
/// } catch let error as CSVError {
///     print("line \(error.line): \(error.message)")  // line 7: unterminated quoted field …
/// }
/// ```
public struct CSVError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// A quoted field has no closing quote; it runs to the end of the input, on `endLine`.
        case unterminatedQuote(endLine: Int)
        /// A `"` inside a field that does not start with one (RFC 4180 wants the field quoted
        /// and the quote doubled).
        case unexpectedQuote
        /// Something other than `,` or a line end follows a closing quote.
        case textAfterClosingQuote
        /// A carriage return that is not followed by a line feed, outside quotes.
        case bareCarriageReturn
        /// The field is not valid UTF-8.
        case invalidUTF8
        /// The field is longer than the reader's limit, in characters (Unicode scalars).
        case fieldTooLong(limit: Int)
        /// The record has more fields than the reader's limit.
        case tooManyFields(limit: Int)
    }

    /// The physical line (1-based) on which the record starts.
    public let line: Int
    /// The index (0-based) of the field at fault, when there is one.
    public let field: Int?
    /// What is wrong.
    public let reason: Reason

    /// An error in the record starting on `line`, in field `field` when one is at fault.
    public init(line: Int, field: Int?, reason: Reason) {
        self.line = line
        self.field = field
        self.reason = reason
    }

    /// The reason in words ("unterminated quoted field (it runs to the end of the file, line 12)").
    public var message: String {
        switch reason {
        case .unterminatedQuote(let endLine):
            "unterminated quoted field (it runs to the end of the file, line \(endLine))"
        case .unexpectedQuote:
            "unexpected quote in an unquoted field (quote the whole field and double the quote)"
        case .textAfterClosingQuote:
            "unexpected text after a closing quote"
        case .bareCarriageReturn:
            "carriage return without a line feed outside quotes"
        case .invalidUTF8:
            "invalid UTF-8"
        case .fieldTooLong(let limit):
            ImportLimits.tooLongMessage(limit: limit)
        case .tooManyFields(let limit):
            "more than \(FieldFormat.grouped(Int64(limit))) fields"
        }
    }

    public var description: String {
        "line \(line)" + (field.map { ", field \($0 + 1)" } ?? "") + ": " + message
    }
}
