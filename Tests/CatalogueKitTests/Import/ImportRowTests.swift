@testable import CatalogueCore
import CatalogueKit
import Foundation
import Testing

/// The typed accessors of an import row: what counts as no value, numbers as CSV and JSON spell
/// them, and the reasons given for refusals.
@Suite("Import row values")
struct ImportRowTests {
    static let columns = [ImportColumn("text"), ImportColumn("number"), ImportColumn("list")]

    static func row(_ text: ImportValue = .null, _ number: ImportValue = .null, _ list: ImportValue = .null) -> ImportRow {
        ImportRow(columns: columns, values: [text, number, list])
    }

    /// The reason `body` throws, or nil.
    static func reason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test("No value: null, an empty field; required text must not be blank")
    func missingValues() throws {
        #expect(try Self.row(.null).text(at: 0) == nil)
        #expect(try Self.row(.text("")).text(at: 0) == nil)
        #expect(try Self.row(.text(" ")).text(at: 0) == " ")
        #expect(try Self.row(.number("384")).text(at: 0) == "384")
        #expect(Self.reason { _ = try Self.row(.text("  \u{A0}")).requiredText(at: 0) } == "text: must not be empty")
        #expect(Self.reason { _ = try Self.row(.boolean(true)).text(at: 0) } == "text: expected text, found true or false")
        #expect(Self.reason { _ = try Self.row(.array([])).text(at: 0) } == "text: expected text, found an array")
    }

    @Test("Whole numbers", arguments: [
        (ImportValue.text("2007"), Int64?.some(2007), String?.none),
        (.text(" 2007 "), 2007, nil),
        (.number("2007"), 2007, nil),
        (.number("2007.0"), 2007, nil),
        (.number("2.007e3"), nil, "number: not a whole number: \"2.007e3\""),
        (.text("+5"), nil, "number: not a whole number: \"+5\""),
        (.text("0x7D0"), nil, "number: not a whole number: \"0x7D0\""),
        (.text("+2000"), nil, "number: not a whole number: \"+2000\""),
        (.text("2e3"), nil, "number: not a whole number: \"2e3\""),
        (.text("1."), nil, "number: not a whole number: \"1.\""),
        (.text("0x1p3"), nil, "number: not a whole number: \"0x1p3\""),
        (.text("99999999999999999999"), nil, "number: \"99999999999999999999\" is not between 0 and 9999"),
        (.text("20x7"), nil, "number: not a whole number: \"20x7\""),
        (.text("2007.5"), nil, "number: not a whole number: \"2007.5\""),
        // As people write numbers: refused, with what to write instead.
        (.text("2,007"), nil, "number: not a whole number: \"2,007\" (write it in digits only: 2007)"),
        (.text("2 007"), nil, "number: not a whole number: \"2 007\" (write it in digits only: 2007)"),
        (.text("2'007"), nil, "number: not a whole number: \"2'007\" (write it in digits only: 2007)"),
        (.text("$2007"), nil, "number: not a whole number: \"$2007\" (write it without a currency sign: 2007)"),
        (.text("$2007.5"), nil, "number: not a whole number: \"$2007.5\" (write it in digits only, without a currency sign)"),
        (.text("2,007.0"), nil, "number: not a whole number: \"2,007.0\" (write it in digits only)"),
        (.text("2,0-7"), nil, "number: not a whole number: \"2,0-7\""),
        (.text("-1"), nil, "number: must not be negative: -1"),
        (.text("10000"), nil, "number: 10000 is not between 0 and 9999"),
        (.text(""), nil, nil),
    ])
    func integers(value: ImportValue, expected: Int64?, error: String?) throws {
        let row = Self.row(.null, value)
        #expect(Self.reason { _ = try row.integer(at: 1, in: 0...9999) } == error)
        if error == nil {
            #expect(try row.integer(at: 1, in: 0...9999) == expected)
        }
    }

    @Test("Numbers zero or more", arguments: [
        (ImportValue.text("599"), Double?.some(599), String?.none),
        (.number("-0"), -0.0, nil),
        (.number("1e3"), nil, "number: not a plain decimal number: \"1e3\""),
        (.text("0.49"), 0.49, nil),
        (.text("-5"), nil, "number: must not be negative: -5"),
        (.text("nan"), nil, "number: not a plain decimal number: \"nan\""),
        (.text("inf"), nil, "number: not a plain decimal number: \"inf\""),
        (.text("1,5"), nil, "number: not a plain decimal number: \"1,5\" (write it with a decimal point and no thousands separators, e.g. 1234.5)"),
        (.text("1,234.50"), nil, "number: not a plain decimal number: \"1,234.50\" (write it with a decimal point and no thousands separators, e.g. 1234.5)"),
        (.text("€ 4,50"), nil,
         "number: not a plain decimal number: \"€ 4,50\" (write it with a decimal point and no thousands separators, without a currency sign, e.g. 1234.5)"),
        (.text("$4.50"), nil, "number: not a plain decimal number: \"$4.50\" (write it without a currency sign: 4.50)"),
        (.text("4.50 £"), nil, "number: not a plain decimal number: \"4.50 £\" (write it without a currency sign: 4.50)"),
        (.text("1,5x"), nil, "number: not a plain decimal number: \"1,5x\""),
        (.text("0x7D0"), nil, "number: not a plain decimal number: \"0x7D0\""),
        (.text("+2000"), nil, "number: not a plain decimal number: \"+2000\""),
        (.text("2e3"), nil, "number: not a plain decimal number: \"2e3\""),
        (.text("1."), nil, "number: not a plain decimal number: \"1.\""),
        (.text(".5"), nil, "number: not a plain decimal number: \".5\""),
        (.text("0x1p3"), nil, "number: not a plain decimal number: \"0x1p3\""),
        (.number("1e-400"), nil, "number: not a plain decimal number: \"1e-400\""),
        (.text("0." + String(repeating: "0", count: 400) + "1"), nil, "number: out of range: \"0.00000000000000000000000000000000000000…\""),
        (.text("1" + String(repeating: "0", count: 400)), nil, "number: out of range: \"1000000000000000000000000000000000000000…\""),
        (.text("0.000"), 0, nil),
    ])
    func numbers(value: ImportValue, expected: Double?, error: String?) throws {
        let row = Self.row(.null, value)
        #expect(Self.reason { _ = try row.nonNegativeNumber(at: 1) } == error)
        if error == nil {
            #expect(try row.nonNegativeNumber(at: 1) == expected)
        }
    }

    @Test("Messages quote a value in double quotes, an apostrophe as it is, a backslash, quote or newline escaped")
    func quotedValues() {
        #expect(ImportRow.quoted("Côte d'Ivoire") == #""Côte d'Ivoire""#)
        #expect(ImportRow.quoted(#"a\'b"#) == #""a\\'b""#)
        #expect(ImportRow.quoted(#"say "hi"\n"#) == #""say \"hi\"\\n""#)
        #expect(ImportRow.quoted("two\nlines") == #""two\nlines""#)
        #expect(ImportRow.quoted(String(repeating: "'", count: 50)) == "\"" + String(repeating: "'", count: 40) + "…\"")
    }

    @Test("Lists: '; '-separated text or a JSON array of strings")
    func lists() throws {
        #expect(try Self.row(.null, .null, .text("UK; Britain;; ")).list(at: 2) == ["UK", "Britain"])
        #expect(try Self.row(.null, .null, .array([.text(" UK "), .text("Britain")])).list(at: 2) == ["UK", "Britain"])
        #expect(try Self.row().list(at: 2) == [])
        #expect(Self.reason { _ = try Self.row(.null, .null, .array([.number("1")])).list(at: 2) } == "list: expected an array of strings")
        #expect(Self.reason { _ = try Self.row(.null, .null, .array([.text("a;b")])).list(at: 2) }
            == "list: invalid item \"a;b\": items must not be empty or contain ';'")
        // A JSON array is as long as the same list written as text may be: 10,000 characters.
        let fits = Array(repeating: ImportValue.text("abcdefgh"), count: 1_000)
        #expect(try Self.row(.null, .null, .array(fits)).list(at: 2).count == 1_000)
        let tooLong = Array(repeating: ImportValue.text(String(repeating: "x", count: 2_000)), count: 6)
        #expect(Self.reason { _ = try Self.row(.null, .null, .array(tooLong)).list(at: 2) }
            == "list: the list is longer than 10,000 characters as text (6 items)")
    }

    @Test("Long values: 10,000 characters pass, 10,001 do not")
    func limit() throws {
        #expect(try Self.row(.text(String(repeating: "é", count: 10_000))).text(at: 0)?.count == 10_000)
        #expect(Self.reason { _ = try Self.row(.text(String(repeating: "é", count: 10_001))).text(at: 0) }
            == "text: longer than 10,000 characters")
    }

    @Test("Product and country rows from the named columns")
    func records() throws {
        var values = [ImportValue](repeating: .null, count: Product.importColumns.count)
        values[1] = .text("Brio")
        values[2] = .text("device")
        values[4] = .number("12.5")
        #expect(try Product(importing: ImportRow(columns: Product.importColumns, values: values))
            == Product(name: "Brio", type: "device", price: 12.5))
        #expect(Country.importColumns.map(\.name) == ["id"] + Country.schema.columns)
        #expect(Country.importColumns.filter(\.isRequired).map(\.name) == ["code", "name"])
    }
}
