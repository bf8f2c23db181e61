#if Server
import CatalogueCore
import Foundation

/// How an import request says what its body is: the `format` parameter first, else the
/// `Content-Type` header when it names CSV, JSON or NDJSON, else the body's first character, as
/// `catalogue import -` tells standard input's format (`[` JSON, `{` NDJSON, anything else CSV).
///
/// A media type that names no format, such as curl's default for `--data-binary`
/// (`application/x-www-form-urlencoded`), `text/plain` or `application/octet-stream`, leaves
/// the choice to the body.
///
/// ```swift
/// ImportBodyFormat.named(byMediaType: "application/json; charset=utf-8")  // .json
/// ImportBodyFormat.named(byMediaType: "application/x-www-form-urlencoded")  // nil
/// ```
enum ImportBodyFormat {
    /// The format a `Content-Type` value names (its media type, in any case, parameters
    /// ignored), or nil when it names none of ours.
    static func named(byMediaType contentType: String) -> RecordFileFormat? {
        let mediaType = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        switch mediaType.lowercased() {
        case "text/csv", "application/csv":
            return .csv
        case "application/json", "text/json":
            return .json
        case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines",
             "application/jsonlines":
            return .ndjson
        default:
            return nil
        }
    }

    /// The body's format: `parameter` when given, else the one `contentType` names, else the
    /// one `body`'s content looks like.
    static func resolve(parameter: RecordFileFormat?, contentType: String?, body: ImportInput) throws -> RecordFileFormat {
        if let parameter { return parameter }
        if let contentType, let named = named(byMediaType: contentType) { return named }
        return try body.sniffedFormat()
    }
}
#endif
