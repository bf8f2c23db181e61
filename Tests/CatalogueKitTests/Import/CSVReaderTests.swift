@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite
import CatalogueTestSupport
import Foundation
import Testing

/// RFC 4180 cases for the streaming CSV reader, each read with chunk sizes that put a chunk end
/// at every position of the small inputs.
@Suite("CSV reader")
struct CSVReaderTests {
    enum Outcome: Equatable, CustomStringConvertible {
        case record(line: Int, [String])
        case error(line: Int, field: Int?, CSVError.Reason)

        var description: String {
            switch self {
            case .record(let line, let fields): "\(line): \(fields)"
            case .error(let line, let field, let reason): "\(line): error in field \(field.map(String.init) ?? "-"): \(reason)"
            }
        }
    }

    static let chunkSizes = [4, 5, 7, 64 * 1024]

    /// Every record and error of `bytes`, in order.
    static func read(
        _ bytes: [UInt8], chunkSize: Int, maximumFieldLength: Int = ImportLimits.maximumFieldLength,
        maximumFieldCount: Int = ImportLimits.maximumFieldCount
    ) throws -> [Outcome] {
        let reader = try CSVReader(
            ImportInput(bytes: bytes, name: "test.csv"), maximumFieldLength: maximumFieldLength,
            maximumFieldCount: maximumFieldCount, chunkSize: chunkSize)
        var outcomes: [Outcome] = []
        while true {
            do {
                guard let record = try reader.next() else { return outcomes }
                outcomes.append(.record(line: record.line, record.fields))
            } catch let error as CSVError {
                outcomes.append(.error(line: error.line, field: error.field, error.reason))
            }
            precondition(outcomes.count < 10_000, "the reader does not advance")
        }
    }

    static func read(_ text: String, chunkSize: Int) throws -> [Outcome] {
        try read(Array(text.utf8), chunkSize: chunkSize)
    }

    @Test("Plain records, LF or CRLF, with or without a final line end", arguments: chunkSizes)
    func plainRecords(chunkSize: Int) throws {
        let expected: [Outcome] = [.record(line: 1, ["name", "type"]), .record(line: 2, ["Brio", "device"])]
        #expect(try Self.read("name,type\nBrio,device\n", chunkSize: chunkSize) == expected)
        #expect(try Self.read("name,type\r\nBrio,device\r\n", chunkSize: chunkSize) == expected)
        #expect(try Self.read("name,type\r\nBrio,device", chunkSize: chunkSize) == expected)
    }

    @Test("Quoted fields hold commas, doubled quotes and line breaks; lines are physical", arguments: chunkSizes)
    func quotedFields(chunkSize: Int) throws {
        let text = "name,note\n\"x, y\",\"say \"\"hi\"\"\"\n\"multi\nline\",\"crlf\r\ninside\"\r\nlast,row\n"
        #expect(try Self.read(text, chunkSize: chunkSize) == [
            .record(line: 1, ["name", "note"]),
            .record(line: 2, ["x, y", "say \"hi\""]),
            .record(line: 3, ["multi\nline", "crlf\r\ninside"]),
            .record(line: 6, ["last", "row"]),
        ])
    }

    @Test("Empty fields, empty quoted fields and spaces are kept", arguments: chunkSizes)
    func emptyFieldsAndSpaces(chunkSize: Int) throws {
        #expect(try Self.read(",,\n\"\",x,\"\"\n a , b ,\n", chunkSize: chunkSize) == [
            .record(line: 1, ["", "", ""]),
            .record(line: 2, ["", "x", ""]),
            .record(line: 3, [" a ", " b ", ""]),
        ])
    }

    @Test("A UTF-8 byte order mark is skipped; empty lines are no records", arguments: chunkSizes)
    func byteOrderMarkAndEmptyLines(chunkSize: Int) throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("code,name\r\n\r\nCI,Côte d'Ivoire\n\n".utf8)
        #expect(try Self.read(bytes, chunkSize: chunkSize) == [
            .record(line: 1, ["code", "name"]),
            .record(line: 3, ["CI", "Côte d'Ivoire"]),
        ])
        #expect(try Self.read([0xEF, 0xBB, 0xBF], chunkSize: chunkSize) == [])
        #expect(try Self.read([], chunkSize: chunkSize) == [])
        // A BOM only counts at the very start.
        #expect(try Self.read(Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b\n".utf8), chunkSize: chunkSize) == [
            .record(line: 1, ["a"]), .record(line: 2, ["\u{FEFF}b"]),
        ])
    }

    @Test("UTF-16 and UTF-32 text, with or without a byte order mark, is refused before a record is read", arguments: chunkSizes)
    func otherUnicodeEncodings(chunkSize: Int) throws {
        let text = "name,type\nBrio,device\n"
        let encoded: [(String.Encoding, ImportEncodingError.Encoding)] = [
            (.utf16, .utf16LittleEndian), (.utf16LittleEndian, .utf16LittleEndian), (.utf16BigEndian, .utf16BigEndian),
            (.utf32, .utf32LittleEndian), (.utf32LittleEndian, .utf32LittleEndian), (.utf32BigEndian, .utf32BigEndian),
        ]
        for (encoding, expected) in encoded {
            let bytes = try #require(text.data(using: encoding)).map { $0 }
            #expect(throws: ImportEncodingError(encoding: expected), "\(encoding)") {
                _ = try Self.read(bytes, chunkSize: chunkSize)
            }
        }
        // UTF-8, with or without its mark, is read.
        #expect(try Self.read([0xEF, 0xBB, 0xBF] + Array(text.utf8), chunkSize: chunkSize).count == 2)
    }

    @Test("An unterminated quote runs to the end, reported on the line its record starts", arguments: chunkSizes)
    func unterminatedQuote(chunkSize: Int) throws {
        #expect(try Self.read("a,b\n1,\"open\nstill open\nend", chunkSize: chunkSize) == [
            .record(line: 1, ["a", "b"]),
            .error(line: 2, field: 1, .unterminatedQuote(endLine: 4)),
        ])
        #expect(try Self.read("a\n\"x\n\n", chunkSize: chunkSize) == [
            .record(line: 1, ["a"]),
            .error(line: 2, field: 0, .unterminatedQuote(endLine: 3)),
        ])
    }

    @Test("Stray quotes, text after a closing quote, bare CR: the bad record only", arguments: chunkSizes)
    func recoverableErrors(chunkSize: Int) throws {
        #expect(try Self.read("ab\"c,d\nx,y\n", chunkSize: chunkSize) == [
            .error(line: 1, field: 0, .unexpectedQuote), .record(line: 2, ["x", "y"]),
        ])
        #expect(try Self.read("a,\"b\"c\nx,y\n", chunkSize: chunkSize) == [
            .error(line: 1, field: 1, .textAfterClosingQuote), .record(line: 2, ["x", "y"]),
        ])
        #expect(try Self.read("a\rb,c\nx,y\n", chunkSize: chunkSize) == [
            .error(line: 1, field: 0, .bareCarriageReturn), .record(line: 2, ["x", "y"]),
        ])
        // After a quoted field with a line break, the next record's line is still right.
        #expect(try Self.read("\"1\n2\",x\"y\nok,ok\n", chunkSize: chunkSize) == [
            .error(line: 1, field: 1, .unexpectedQuote), .record(line: 3, ["ok", "ok"]),
        ])
    }

    @Test("Invalid UTF-8 is an error naming the field", arguments: chunkSizes)
    func invalidUTF8(chunkSize: Int) throws {
        let bytes = Array("a,b\n".utf8) + [0x78, 0xFF, 0x2C, 0x79, 0x0A] + Array("c,\"\u{E9}\"\n".utf8) + [0x22, 0xC3, 0x22, 0x2C, 0x7A, 0x0A]
        #expect(try Self.read(bytes, chunkSize: chunkSize) == [
            .record(line: 1, ["a", "b"]),
            .error(line: 2, field: 0, .invalidUTF8),
            .record(line: 3, ["c", "é"]),
            .error(line: 4, field: 0, .invalidUTF8),
        ])
    }

    @Test("Fields longer than the limit (in characters) and too many fields", arguments: chunkSizes)
    func limits(chunkSize: Int) throws {
        let text = "abcde,\"ééééé\"\nabcdef,x\nok,\"éééééé\"\nlast,one\n"
        #expect(try Self.read(Array(text.utf8), chunkSize: chunkSize, maximumFieldLength: 5) == [
            .record(line: 1, ["abcde", "ééééé"]),
            .error(line: 2, field: 0, .fieldTooLong(limit: 5)),
            .error(line: 3, field: 1, .fieldTooLong(limit: 5)),
            .record(line: 4, ["last", "one"]),
        ])
        #expect(try Self.read(Array("a,b,c\nd,e\n".utf8), chunkSize: chunkSize, maximumFieldCount: 2) == [
            .error(line: 1, field: 2, .tooManyFields(limit: 2)),
            .record(line: 2, ["d", "e"]),
        ])
    }

    @Test("A huge unterminated field is read through without keeping it")
    func hugeUnterminatedField() throws {
        let bytes = Array("a\n\"".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)
        let outcomes = try Self.read(bytes, chunkSize: 64 * 1024, maximumFieldLength: 100)
        #expect(outcomes == [.record(line: 1, ["a"]), .error(line: 2, field: 0, .unterminatedQuote(endLine: 2))])
    }

    @Test("Told to, the reader stops at a field over the limit, quoted or not, without reading on to its end")
    func stopsAtOverlongField() throws {
        for opening in ["", "\""] {
            let bytes = Array(opening.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)
            let reader = try CSVReader(
                ImportInput(bytes: bytes, name: "h.csv"), maximumFieldLength: 100, maximumFieldCount: 10, chunkSize: 64 * 1024)
            reader.stopsAtOverlongField = true
            #expect(throws: CSVError(line: 1, field: 0, reason: .fieldTooLong(limit: 100)), "\(opening)") { try reader.next() }
            #expect(reader.bytesRead <= 64 * 1024, "\(opening): read \(reader.bytesRead) bytes")
        }
    }

    @Test("Random fields written by the exporter's quoting read back the same")
    func randomRoundTrip() throws {
        var generator = SplitMix64(seed: 4180)
        let alphabet: [String] = ["a", "Z", "0", " ", ",", "\"", "\n", "\r", "\r\n", "é", "Ω", "🇨🇮", ";", "'"]
        for round in 0..<200 {
            let fieldCount = Int.random(in: 1...5, using: &generator)
            var rows: [[String]] = []
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                rows.append((0..<fieldCount).map { _ in
                    (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
                })
            }
            // A lone empty field would be an empty line: give such rows a second look.
            if fieldCount == 1 { rows = rows.map { $0 == [""] ? ["x"] : $0 } }
            let text = rows.map { $0.map(ExportText.csvField).joined(separator: ",") + "\r\n" }.joined()
            let chunk = [4, 5, 9, 64 * 1024][round % 4]
            let fields = try Self.read(text, chunkSize: chunk).map { outcome -> [String] in
                guard case .record(_, let fields) = outcome else { Issue.record("\(outcome) in \(text.debugDescription)"); return [] }
                return fields
            }
            #expect(fields == rows, "\(text.debugDescription)")
        }
    }
}
