import Foundation

/// The values of one row of an import file, in the order of the record's
/// ``ImportableRecord/importColumns``, with typed and checked accessors.
///
/// Missing columns, JSON `null` and empty CSV fields are all "no value": nil for optional
/// columns, an error ("must not be empty") for required ones.
///
/// ```swift
/// let year = try row.integer(at: 3, in: 0...9999)    // "20x7" → ImportFieldError("year", …)
/// let price = try row.nonNegativeNumber(at: 4)      // "-5" → "must not be negative: -5"
/// ```
public struct ImportRow: Sendable {
    /// The record's import columns.
    public let columns: [ImportColumn]
    /// One value per column (`.null` where the file has none).
    public let values: [ImportValue]
    /// Whether the file has each column (a CSV header names it; a JSON object has the key),
    /// whatever its value. An import updates an existing record only in the columns present.
    public let isPresent: [Bool]

    /// A row; `present` says which columns the file has (nil: all of them).
    public init(columns: [ImportColumn], values: [ImportValue], present: [Bool]? = nil) {
        precondition(columns.count == values.count, "one value per import column")
        precondition(present == nil || present?.count == columns.count, "one flag per import column")
        self.columns = columns
        self.values = values
        self.isPresent = present ?? Array(repeating: true, count: columns.count)
    }

    private func error(_ index: Int, _ reason: String) -> ImportFieldError {
        ImportFieldError(column: columns[index].name, reason: reason)
    }

    /// The text at `index`, or nil when there is none. JSON numbers are taken as written.
    public func text(at index: Int) throws(ImportFieldError) -> String? {
        switch values[index] {
        case .null:
            return nil
        case .text(let text):
            if text.isEmpty { return nil }
            let limit = ImportLimits.maximumFieldLength
            if text.utf8.count > limit, text.unicodeScalars.count > limit {
                throw error(index, ImportLimits.tooLongMessage(limit: limit))
            }
            return text
        case .number(let number):
            return number
        case .boolean:
            throw error(index, "expected text, found true or false")
        case .array:
            throw error(index, "expected text, found an array")
        }
    }

    /// The text at `index`, which must be there and not blank.
    public func requiredText(at index: Int) throws(ImportFieldError) -> String {
        guard let text = try text(at: index), Self.hasVisibleText(text) else {
            throw error(index, "must not be empty")
        }
        return text
    }

    /// The whole number at `index` (spaces around it allowed), or nil when there is none.
    ///
    /// Only plain decimal notation is accepted: digits, a leading `-`, and a fraction of zeros
    /// (`2007`, `2007.0`); `+2000`, `2e3`, `0x7D0` and `1.` are refused.
    public func integer(at index: Int, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(ImportFieldError) -> Int64? {
        guard let text = try numberText(at: index) else { return nil }
        guard let parts = Self.plainDecimal(text), parts.fraction.allSatisfy({ $0 == UInt8(ascii: "0") }) else {
            throw error(index, "not a whole number: \(Self.quoted(text))" + Self.notationAdvice(for: text, wholeNumber: true))
        }
        guard let value = Int64(parts.negative ? "-" + parts.whole : parts.whole) else {
            throw error(index, "\(Self.quoted(text)) is not between \(range.lowerBound) and \(range.upperBound)")
        }
        if range.lowerBound == 0, value < 0 {
            throw error(index, "must not be negative: \(value)")
        }
        guard range.contains(value) else {
            throw error(index, "\(value) is not between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    /// The number at `index`, zero or more, or nil when there is none.
    ///
    /// Only plain decimal notation is accepted (`599`, `0.49`, `-0`); `+1`, `2e3`, `0x1p3`, `1.`,
    /// `.5`, `nan` and `inf` are refused, and so is a number too large or too small for a
    /// `Double` (which would become infinity, or silently 0).
    public func nonNegativeNumber(at index: Int) throws(ImportFieldError) -> Double? {
        guard let text = try numberText(at: index) else { return nil }
        guard let parts = Self.plainDecimal(text), let value = Double(text) else {
            throw error(index, "not a plain decimal number: \(Self.quoted(text))" + Self.notationAdvice(for: text, wholeNumber: false))
        }
        let hasDigits = (parts.whole + String(decoding: parts.fraction, as: UTF8.self)).contains { $0 != "0" }
        guard value.isFinite, value != 0 || !hasDigits else {
            throw error(index, "out of range: \(Self.quoted(text))")
        }
        guard value >= 0 else {
            throw error(index, "must not be negative: \(text)")
        }
        return value
    }

    /// The parts of `text` when it is a plain decimal number, `-?[0-9]+(\.[0-9]+)?`.
    static func plainDecimal(_ text: String) -> (negative: Bool, whole: String, fraction: [UInt8])? {
        var bytes = Substring(text).utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let whole = bytes.prefix(while: isDigit)
        guard !whole.isEmpty else { return nil }
        bytes = bytes.dropFirst(whole.count)
        var fraction: [UInt8] = []
        if bytes.first == UInt8(ascii: ".") {
            fraction = Array(bytes.dropFirst().prefix(while: isDigit))
            guard !fraction.isEmpty else { return nil }
            bytes = bytes.dropFirst(1 + fraction.count)
        }
        guard bytes.isEmpty else { return nil }
        return (negative, String(decoding: whole, as: UTF8.self), fraction)
    }

    /// What to change, for the error that refuses `text`, when it is a number as people write
    /// it: thousands separators (`49,648,685`, `1 234`, `1'234`), a decimal comma (`4,50`) or a
    /// currency sign (`$4.50`), which an import does not guess at; "" for anything else.
    ///
    /// ```swift
    /// ImportRow.notationAdvice(for: "4,50", wholeNumber: false)
    /// // " (write it with a decimal point and no thousands separators, e.g. 1234.5)"
    /// ImportRow.notationAdvice(for: "49,648,685", wholeNumber: true)
    /// // " (write it in digits only: 49648685)"
    /// ImportRow.notationAdvice(for: "$4.50", wholeNumber: false)
    /// // " (write it without a currency sign: 4.50)"
    /// ```
    static func notationAdvice(for text: String, wholeNumber: Bool) -> String {
        let currencySigns: Set<Character> = ["$", "€", "£", "¥"]
        let separators: Set<Character> = [",", " ", "'", "\u{A0}", "\u{202F}"]
        let hasCurrency = text.contains(where: currencySigns.contains)
        // "€ 4.50", "4.50 £": a space beside the sign separates no digits.
        let unsigned = text.filter { !currencySigns.contains($0) }.trimmingCharacters(in: .whitespaces)
        let hasSeparator = unsigned.contains(where: separators.contains)
        let number = unsigned.filter { !separators.contains($0) }
        guard hasCurrency || hasSeparator, number.contains(where: \.isNumber),
              number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }), !number.dropFirst().contains("-")
        else { return "" }
        if !hasSeparator, let parts = plainDecimal(number), !wholeNumber || parts.fraction.allSatisfy({ $0 == UInt8(ascii: "0") }) {
            return " (write it without a currency sign: \(number))"
        }
        let currency = hasCurrency ? ", without a currency sign" : ""
        guard wholeNumber else {
            return " (write it with a decimal point and no thousands separators\(currency), e.g. 1234.5)"
        }
        // A whole number's digits are what it means: say them.
        return number.contains(".") ? " (write it in digits only\(currency))" : " (write it in digits only\(currency): \(number))"
    }

    /// A list at `index`: a JSON array of strings, or text separated by `;` ("UK; Britain").
    public func list(at index: Int) throws(ImportFieldError) -> [String] {
        guard case .array(let elements) = values[index] else {
            return AliasTable.split(try text(at: index) ?? "")
        }
        var items: [String] = []
        for element in elements {
            guard case .text(let item) = element else {
                throw error(index, "expected an array of strings")
            }
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.contains(";") else {
                throw error(index, "invalid item \(Self.quoted(item)): items must not be empty or contain ';'")
            }
            items.append(trimmed)
        }
        // As long as the same list written as text ("UK; Britain") may be.
        let length = items.reduce(0) { $0 + $1.unicodeScalars.count } + max(0, items.count - 1) * 2
        guard length <= ImportLimits.maximumFieldLength else {
            throw error(index, "the list is \(ImportLimits.tooLongMessage(limit: ImportLimits.maximumFieldLength)) as text (\(items.count) items)")
        }
        return items
    }

    /// Whether `text` has something other than whitespace (fast for text starting with a letter).
    private static func hasVisibleText(_ text: String) -> Bool {
        if let first = text.utf8.first, first > 0x20, first < 0x7F { return true }
        return text.contains(where: { !$0.isWhitespace })
    }

    private func numberText(at index: Int) throws(ImportFieldError) -> String? {
        guard let text = try text(at: index) else { return nil }
        guard text.utf8.first == UInt8(ascii: " ") || text.utf8.last == UInt8(ascii: " ") else { return text }
        let trimmed = text.drop(while: { $0 == " " })
        let result = String(trimmed.prefix(trimmed.count - trimmed.reversed().prefix(while: { $0 == " " }).count))
        return result.isEmpty ? nil : result
    }

    /// `"20x7"` for messages, cut short when long: in double quotes, with `"`, `\` and control
    /// characters escaped as Swift writes them, and an apostrophe as it is (`"O'Neil"`, not
    /// `"O\'Neil"`).
    static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        // Swift escapes ' as \' and \ as \\; an escaped quote is a backslash after an even run.
        return String(reflecting: shown).replacingOccurrences(of: "\\'", with: "'")
    }
}
