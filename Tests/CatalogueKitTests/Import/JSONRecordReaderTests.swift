@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite
import Foundation
import Testing

/// The streaming JSON-array and NDJSON reader: values, escapes, line numbers, recovery.
@Suite("JSON record reader")
struct JSONRecordReaderTests {
    enum Outcome: Equatable {
        case object(line: Int, [String: ImportValue])
        case error(line: Int, key: String?, fatal: Bool)
    }

    static let chunkSizes = [4, 7, 64 * 1024]

    static func read(_ text: String, layout: JSONRecordReader.Layout, chunkSize: Int, maximumFieldLength: Int = 10_000) throws -> [Outcome] {
        try read(Array(text.utf8), layout: layout, chunkSize: chunkSize, maximumFieldLength: maximumFieldLength)
    }

    static func read(_ bytes: [UInt8], layout: JSONRecordReader.Layout, chunkSize: Int, maximumFieldLength: Int = 10_000) throws -> [Outcome] {
        let reader = try JSONRecordReader(
            ImportInput(bytes: bytes, name: "test.json"), layout: layout, maximumFieldLength: maximumFieldLength,
            maximumKeyCount: 1_000, chunkSize: chunkSize)
        var outcomes: [Outcome] = []
        while true {
            do {
                guard let record = try reader.next() else { return outcomes }
                outcomes.append(.object(line: record.line, Dictionary(uniqueKeysWithValues: zip(record.keys, record.values))))
            } catch let error as JSONRecordError {
                outcomes.append(.error(line: error.line, key: error.key, fatal: error.isFatal))
            }
            precondition(outcomes.count < 1_000, "the reader does not advance")
        }
    }

    @Test("An array of objects across lines, with every kind of value", arguments: chunkSizes)
    func arrayOfObjects(chunkSize: Int) throws {
        let text = """
            [
              {"name": "Brio", "year": 2020, "price": -1.5e2, "ok": true, "no": false, "none": null},
              {"aliases": ["UK", "Britain"], "empty": [], "code": "GB"}
            ]

            """
        #expect(try Self.read(text, layout: .array, chunkSize: chunkSize) == [
            .object(line: 2, ["name": .text("Brio"), "year": .number("2020"), "price": .number("-1.5e2"),
                              "ok": .boolean(true), "no": .boolean(false), "none": .null]),
            .object(line: 3, ["aliases": .array([.text("UK"), .text("Britain")]), "empty": .array([]), "code": .text("GB")]),
        ])
        #expect(try Self.read(" [ ] ", layout: .array, chunkSize: chunkSize) == [])
    }

    @Test("String escapes, surrogate pairs and UTF-8 decode", arguments: chunkSizes)
    func escapes(chunkSize: Int) throws {
        let text = #"{"s": "q\" b\\ s\/ \b\f\n\r\t \u00e9 \ud83c\udde8 Ω"}"# + "\n"
        #expect(try Self.read(text, layout: .lines, chunkSize: chunkSize) == [
            .object(line: 1, ["s": .text("q\" b\\ s/ \u{8}\u{C}\n\r\t é \u{1F1E8} Ω")]),
        ])
    }

    @Test("NDJSON: one object per line, empty lines skipped, a bad line skipped", arguments: chunkSizes)
    func ndjsonRecovery(chunkSize: Int) throws {
        let text = [
            #"{"name": "a"}"#,
            "",
            #"{"name": "b", oops}"#,
            #"{"name": "c"}"#,
            #"{"name": "d"} {"name": "e"}"#,
            #"{"name": "f"#,
            #"{"name": "g"}"#,
        ].joined(separator: "\n")
        #expect(try Self.read(text, layout: .lines, chunkSize: chunkSize) == [
            .object(line: 1, ["name": .text("a")]),
            .error(line: 3, key: nil, fatal: false),
            .object(line: 4, ["name": .text("c")]),
            .error(line: 5, key: nil, fatal: false),
            .error(line: 6, key: nil, fatal: false),
            .object(line: 7, ["name": .text("g")]),
        ])
    }

    @Test("NDJSON: a bad line is skipped on the next read, not when its error is thrown, so a line with no end costs nothing")
    func badLineSkippedLazily() throws {
        let bytes = [UInt8](repeating: 0, count: 8 << 20)
        let reader = try JSONRecordReader(
            ImportInput(bytes: bytes, name: "zeros.ndjson"), layout: .lines, maximumFieldLength: 10_000, maximumKeyCount: 1_000,
            chunkSize: 64 * 1024)
        #expect(throws: JSONRecordError.self) { try reader.next() }
        #expect(reader.bytesRead <= 64 * 1024, "read \(reader.bytesRead) bytes")
        // Reading on skips the line: to the end of this input.
        #expect(try reader.next() == nil)
        #expect(reader.bytesRead == bytes.count)
    }

    @Test("A syntax error in an array is fatal; value problems spoil one object", arguments: chunkSizes)
    func arrayErrors(chunkSize: Int) throws {
        #expect(try Self.read("[{\"a\": 1},\n{\"a\": 2,}\n,{\"a\": 3}]", layout: .array, chunkSize: chunkSize) == [
            .object(line: 1, ["a": .number("1")]),
            .error(line: 2, key: nil, fatal: true),
        ])
        let text = "[{\"a\": {\"nested\": [1]}},\n{\"a\": 1, \"a\": 2},\n{\"a\": [[1]]},\n{\"a\": \"ok\"}]"
        #expect(try Self.read(text, layout: .array, chunkSize: chunkSize) == [
            .error(line: 1, key: "a", fatal: false),
            .error(line: 2, key: "a", fatal: false),
            .error(line: 3, key: "a", fatal: false),
            .object(line: 4, ["a": .text("ok")]),
        ])
        #expect(try Self.read("{\"a\": 1}", layout: .array, chunkSize: chunkSize) == [.error(line: 1, key: nil, fatal: true)])
        #expect(try Self.read("[{\"a\": 1}] x", layout: .array, chunkSize: chunkSize) == [
            .object(line: 1, ["a": .number("1")]), .error(line: 1, key: nil, fatal: true),
        ])
    }

    @Test("An array keeps at most a record's fields of items (1,000): a longer one spoils its object, read to its end", arguments: chunkSizes)
    func longArrays(chunkSize: Int) throws {
        func array(_ count: Int) -> String { "[" + Array(repeating: "0", count: count).joined(separator: ",") + "]" }
        let text = "{\"a\": \(array(1_000))}\n{\"a\": \(array(100_000)), \"b\": 1}\n{\"a\": [\"ok\"]}\n"
        let outcomes = try Self.read(text, layout: .lines, chunkSize: chunkSize)
        #expect(outcomes.count == 3)
        #expect(outcomes.dropFirst() == [.error(line: 2, key: "a", fatal: false), .object(line: 3, ["a": .array([.text("ok")])])])
        if case .object(_, let fields) = outcomes.first, case .array(let items) = fields["a"] {
            #expect(items.count == 1_000)
        } else {
            Issue.record("the first object: \(String(describing: outcomes.first).prefix(100))")
        }
    }

    @Test("A duplicate key spoils its object, however many keys come before it", arguments: chunkSizes)
    func duplicateKeys(chunkSize: Int) throws {
        let keys = (0..<999).map { "\"k\($0)\": 1" }.joined(separator: ", ")
        let text = "{\(keys), \"k500\": 2}\n{\(keys)}\n"
        let outcomes = try Self.read(text, layout: .lines, chunkSize: chunkSize)
        #expect(outcomes.first == .error(line: 1, key: "k500", fatal: false))
        if case .object(let line, let fields) = outcomes.last {
            #expect(line == 2 && fields.count == 999)
        } else {
            Issue.record("no second object")
        }
    }

    @Test("Invalid numbers and literals are syntax errors", arguments: ["01", "1.", "-", "1e", ".5", "+1", "tru", "nul", "1x", "NaN"])
    func invalidNumbers(value: String) throws {
        #expect(try Self.read("{\"a\": \(value)}\n{\"a\": 1}", layout: .lines, chunkSize: 64) == [
            .error(line: 1, key: nil, fatal: false), .object(line: 2, ["a": .number("1")]),
        ])
    }

    @Test("Invalid UTF-8 and over-long strings spoil their object only", arguments: chunkSizes)
    func badStrings(chunkSize: Int) throws {
        let bytes = Array(#"{"a": "x"#.utf8) + [0xFF] + Array("\"}\n{\"a\": \"123456\"}\n{\"a\": \"12345\"}\n".utf8)
        #expect(try Self.read(bytes, layout: .lines, chunkSize: chunkSize, maximumFieldLength: 5) == [
            .error(line: 1, key: "a", fatal: false),
            .error(line: 2, key: "a", fatal: false),
            .object(line: 3, ["a": .text("12345")]),
        ])
    }

    @Test("Nesting is limited to 64 levels counted from the outermost, in both layouts, whatever the depth")
    func nestingLimit() throws {
        func nested(_ levels: Int) -> String { String(repeating: "[", count: levels) + String(repeating: "]", count: levels) }
        // NDJSON: the object is level 1, so 63 arrays inside reach level 64.
        #expect(try Self.read("{\"a\": \(nested(63))}\n{\"a\": \(nested(64))}\n{\"a\": \(nested(100_000))}\n{\"a\": 1}", layout: .lines, chunkSize: 4096) == [
            .error(line: 1, key: "a", fatal: false), .error(line: 2, key: nil, fatal: false),
            .error(line: 3, key: nil, fatal: false), .object(line: 4, ["a": .number("1")]),
        ])
        // An array of objects: the array is level 1, each object level 2.
        #expect(try Self.read("[{\"a\": \(nested(62))}, {\"a\": \(nested(63))}]", layout: .array, chunkSize: 4096) == [
            .error(line: 1, key: "a", fatal: false), .error(line: 1, key: nil, fatal: true),
        ])
        let reader = try JSONRecordReader(ImportInput(text: "{\"a\": " + nested(65) + "}", name: "deep.ndjson"), layout: .lines)
        let error = try #require(throws: JSONRecordError.self) { _ = try reader.next() }
        #expect(error.message == "nesting deeper than 64 levels")
    }

    @Test("A byte order mark is skipped")
    func byteOrderMark() throws {
        #expect(try Self.read([0xEF, 0xBB, 0xBF] + Array("[{\"a\": null}]".utf8), layout: .array, chunkSize: 5) == [
            .object(line: 1, ["a": .null]),
        ])
    }
}
