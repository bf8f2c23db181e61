#if Server
import CatalogueCore
import Hummingbird

/// Writes JSON straight into bytes, for the answers the API sends most (pages of records with
/// their highlights): an order of magnitude cheaper than `JSONEncoder`, which builds a tree of
/// dictionaries first. Records are written as their `Codable` form writes them (``CatalogueRecord``:
/// `id`, then every field by column name, the alias list as an array).
///
/// ```swift
/// var json = JSONWriter()
/// json.object { json in
///     json.key("total"); json.integer(3)
///     json.key("name"); json.string("Côte d'Ivoire")
/// }
/// json.bytes   // {"total":3,"name":"Côte d'Ivoire"}
/// ```
struct JSONWriter {
    fileprivate(set) var bytes: [UInt8] = []
    fileprivate var needsComma = false

    init(capacity: Int = 4_096) {
        bytes.reserveCapacity(capacity)
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    mutating func array(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        close(UInt8(ascii: "]"))
    }

    /// An object member's name; the value follows.
    mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ text: String) {
        separate()
        appendString(text)
        needsComma = true
    }

    mutating func integer(_ value: Int64) {
        separate()
        appendDigits(value)
        needsComma = true
    }

    mutating func integer(_ value: Int) {
        integer(Int64(value))
    }

    /// A number; NaN and infinities, which JSON cannot write, as null.
    mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separate()
        if value == value.rounded(), value.magnitude < 1e15 {
            appendDigits(Int64(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// A stored value as the records' `Codable` form writes it.
    mutating func value(_ value: DatabaseValue) {
        switch value {
        case .null: null()
        case .integer(let integer): self.integer(integer)
        case .real(let real): number(real)
        case .text(let text): string(text)
        case .blob(let data): array { json in for byte in data { json.integer(Int64(byte)) } }
        }
    }

    /// A record: `id`, then each field by column name (the alias list as an array of strings).
    mutating func record<R: CatalogueRecord>(_ record: R) {
        let listColumn = R.schema.aliases?.joinedColumn
        object { json in
            json.key("id")
            if let id = record.id { json.integer(id) } else { json.null() }
            for field in R.entity.fields {
                json.key(field.name)
                if field.name == listColumn {
                    json.array { json in for alias in record.aliases { json.string(alias) } }
                } else {
                    json.value(field.value(record))
                }
            }
        }
    }

    private static let matchedSegment = Array(#"{"match":true,"text":"#.utf8)
    private static let unmatchedSegment = Array(#"{"match":false,"text":"#.utf8)

    /// A record's highlights: `{"name": [{"match": true, "text": "Bog"}, …]}`.
    mutating func highlights(_ highlights: RecordHighlights) {
        object { json in
            for (field, segments) in highlights.fields {
                json.key(field)
                json.array { json in
                    for segment in segments {
                        json.separate()
                        json.bytes.append(contentsOf: segment.isMatch ? Self.matchedSegment : Self.unmatchedSegment)
                        json.appendString(segment.text)
                        json.bytes.append(UInt8(ascii: "}"))
                        json.needsComma = true
                    }
                }
            }
        }
    }

    /// The bytes as a `200` (or `status`) JSON response.
    func response(status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: JSONBody.contentType, .contentLength: String(bytes.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private mutating func open(_ byte: UInt8) {
        separate()
        bytes.append(byte)
        needsComma = false
    }

    private mutating func close(_ byte: UInt8) {
        bytes.append(byte)
        needsComma = true
    }

    fileprivate mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The decimal digits of `value`, without making a string: appended last digit first, then
    /// turned around in place.
    private mutating func appendDigits(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        var low = start
        var high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    /// `"text"` with `"`, `\` and control characters escaped; everything else as UTF-8.
    fileprivate mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 in
            !utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        if plain == true {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
#endif
