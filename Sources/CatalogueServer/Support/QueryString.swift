#if Server
/// The parameters of a request's query string, decoded strictly: `+` is a space, `%XX` a byte,
/// and a value whose escapes are broken or whose bytes are not UTF-8 is refused (a 400 naming
/// the parameter), never guessed at.
///
/// ```swift
/// let query = QueryString("q=bog%C3%B3&scope=capital")
/// try query.value("q")      // "bogó"
/// try query.value("limit")  // nil
/// ```
struct QueryString: Sendable {
    private let pairs: [(name: String, value: Substring)]

    /// Splits `raw` (the part after `?`, without `#…`) into parameters.
    init(_ raw: String?) {
        var pairs: [(name: String, value: Substring)] = []
        for part in (raw ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let equals = part.firstIndex(of: "=") {
                name = part[..<equals]
                value = part[part.index(after: equals)...]
            } else {
                name = part
                value = ""
            }
            // A name we cannot decode is no name we read: keep it undecodable, unmatched.
            pairs.append((Self.decode(name) ?? "\u{FFFF}invalid", value))
        }
        self.pairs = pairs
    }

    /// The decoded value of the first parameter called `name`, nil when there is none.
    func value(_ name: String) throws(APIError) -> String? {
        guard let raw = pairs.first(where: { $0.name == name })?.value else { return nil }
        guard let decoded = Self.decode(raw) else {
            throw .badRequest("the query parameter '\(name)' has invalid percent-encoding or is not UTF-8")
        }
        return decoded
    }

    /// `text` with `+` as a space and `%XX` escapes decoded; nil when an escape is broken or the
    /// bytes are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A path segment with `%XX` escapes decoded (`+` stays a plus); nil when broken.
    static func decodePathSegment(_ text: Substring) -> String? {
        decode(Substring(text.replacingOccurrences(of: "+", with: "%2B")))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The value of parameter `name` among `Choice`'s cases (any case), nil when absent or
    /// empty; another value is a 400 listing the valid ones.
    ///
    /// ```swift
    /// let format: RecordFileFormat? = try QueryString("format=JSON").choice("format")  // .json
    /// ```
    func choice<Choice: RawRepresentable & CaseIterable>(_ name: String) throws(APIError) -> Choice? where Choice.RawValue == String {
        guard let text = try value(name), !text.isEmpty else { return nil }
        guard let value = Choice(rawValue: text.lowercased()) else {
            let valid = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badRequest("unknown \(name) '\(SearchQuery.quoted(text))'; valid values: \(valid)")
        }
        return value
    }
}

extension Substring {
    /// `self` with every `target` replaced (without Foundation).
    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
#endif
