/// One object of a JSON or NDJSON file: its keys and values in file order, with the line of
/// each value.
public struct JSONRecord: Sendable, Hashable {
    /// The physical line (1-based) on which the object starts.
    public let line: Int
    /// The keys, in file order.
    public let keys: [String]
    /// The values, in the order of ``keys``.
    public let values: [ImportValue]
    /// The line of each value, in the order of ``keys``.
    public let valueLines: [Int]
}

/// A streaming reader of JSON objects: a JSON array of objects, or NDJSON (one object per line).
///
/// It reads its input in chunks, one object at a time, so memory does not grow with the size of
/// the file. Values must be scalars (string, number, true, false, null) or arrays of scalars.
///
/// ```swift
/// let input = ImportInput(text: #"[{"name": "Brio", "type": "device", "year": 2020}]"#, name: "p.json")
/// let reader = try JSONRecordReader(input, layout: .array)
/// while let object = try reader.next() {
///     print(object.keys, object.values)  // ["name", "type", "year"] [.text("Brio"), .text("device"), .number("2020")]
/// }
/// ```
public final class JSONRecordReader {
    /// How the objects are laid out.
    public enum Layout: Sendable {
        /// One JSON array of objects (`[{…}, {…}]`), across any number of lines.
        case array
        /// One object per line (NDJSON, JSON Lines); empty lines are skipped.
        case lines
    }

    private enum ArrayState {
        case start, element, end
    }

    let stream: ByteStream
    private let layout: Layout
    let maximumFieldLength: Int
    private let maximumKeyCount: Int
    var line = 1
    private var arrayState = ArrayState.start
    /// Set by a fatal error: reading cannot go on, and ``next()`` returns nil.
    var failed = false
    /// Whether the next call starts by skipping the rest of a line whose syntax error it threw:
    /// skipped then, not when throwing, so that an import that stops at the error reads no
    /// further (a line with no end, such as `/dev/zero`'s, would be read for ever).
    private var skipsRestOfLine = false
    /// Whether a string over the length limit ends reading at once (a fatal error), instead of
    /// being read through to its closing quote so that reading can go on after its object: for
    /// an import that stops at its first bad row anyway, so that a string with no end (an input
    /// such as `/dev/zero`'s) is not read for ever.
    var stopsAtOverlongValue = false
    var scratch: [UInt8] = []

    /// How many bytes of the input have been read so far.
    public var bytesRead: Int {
        stream.input.bytesRead
    }

    /// A reader of `input`; skips a UTF-8 byte order mark at its start, and throws
    /// ``ImportEncodingError`` for UTF-16 or UTF-32 text. A string longer than
    /// `maximumFieldLength` characters (Unicode scalars), or an object with more than
    /// `maximumKeyCount` keys, makes its record fail.
    public convenience init(
        _ input: ImportInput, layout: Layout, maximumFieldLength: Int = ImportLimits.maximumFieldLength,
        maximumKeyCount: Int = ImportLimits.maximumFieldCount
    ) throws {
        try self.init(input, layout: layout, maximumFieldLength: maximumFieldLength, maximumKeyCount: maximumKeyCount, chunkSize: 64 * 1024)
    }

    /// A reader with a given read size (tests use tiny ones to put chunk ends everywhere).
    init(_ input: ImportInput, layout: Layout, maximumFieldLength: Int, maximumKeyCount: Int, chunkSize: Int) throws {
        stream = ByteStream(input, chunkSize: chunkSize)
        self.layout = layout
        self.maximumFieldLength = maximumFieldLength
        self.maximumKeyCount = maximumKeyCount
        try stream.skipByteOrderMark()
    }

    /// A syntax error at the current line.
    struct SyntaxError: Error {
        let message: String
    }

    /// The next object, or nil at the end of the input.
    ///
    /// Throws ``JSONRecordError`` for a bad object (reading can go on unless it ``JSONRecordError/isFatal``)
    /// and ``ImportInputError`` when the input cannot be read.
    public func next() throws -> JSONRecord? {
        guard !failed else { return nil }
        if skipsRestOfLine {
            skipsRestOfLine = false
            try skipRestOfLine()
        }
        do {
            switch layout {
            case .lines:
                return try nextLine()
            case .array:
                return try nextElement()
            }
        } catch let error as SyntaxError {
            let fatal = layout == .array
            if fatal {
                failed = true
            } else {
                skipsRestOfLine = true
            }
            throw JSONRecordError(line: errorLine, key: nil, message: error.message, isFatal: fatal)
        }
    }

    /// The line a syntax error is reported on (set before `line` moves past it).
    var errorLine = 1

    private func nextLine() throws -> JSONRecord? {
        try skipWhitespace(newlines: true)
        errorLine = line
        guard let byte = try stream.peek() else { return nil }
        guard byte == UInt8(ascii: "{") else { throw SyntaxError(message: "expected an object ('{') at the start of the line") }
        let record = try readObject(newlines: false, depth: 1)
        try skipWhitespace(newlines: false)
        errorLine = line
        if let byte = try stream.peek(), byte != UInt8(ascii: "\n") {
            throw SyntaxError(message: "expected the end of the line after the object")
        }
        return try record.finish()
    }

    private func nextElement() throws -> JSONRecord? {
        try skipWhitespace(newlines: true)
        errorLine = line
        switch arrayState {
        case .start:
            guard try stream.peek() == UInt8(ascii: "[") else {
                let hint = try stream.peek() == UInt8(ascii: "{") ? " (for one object per line, use the ndjson format)" : ""
                throw SyntaxError(message: "expected a JSON array of objects ('[')" + hint)
            }
            stream.position += 1
            try skipWhitespace(newlines: true)
            errorLine = line
            if try stream.peek() == UInt8(ascii: "]") {
                stream.position += 1
                arrayState = .end
                return try nextElement()
            }
            arrayState = .element
            return try nextElement()
        case .element:
            guard try stream.peek() == UInt8(ascii: "{") else { throw SyntaxError(message: "expected an object ('{')") }
            // Inside the outer array: the second level.
            let record = try readObject(newlines: true, depth: 2)
            try skipWhitespace(newlines: true)
            errorLine = line
            switch try stream.peek() {
            case UInt8(ascii: ","):
                stream.position += 1
            case UInt8(ascii: "]"):
                stream.position += 1
                arrayState = .end
            default:
                throw SyntaxError(message: "expected ',' or ']' after an object")
            }
            return try record.finish()
        case .end:
            if try stream.peek() != nil {
                throw SyntaxError(message: "unexpected text after the closing ']'")
            }
            return nil
        }
    }

    /// An object being read: its fields and the first problem with a value, reported once the
    /// object has been read to its end.
    struct PartialRecord {
        let line: Int
        var keys: [String] = []
        /// The keys seen, for finding a duplicate in one lookup rather than a scan of ``keys``.
        var keySet: Set<String> = []
        var values: [ImportValue] = []
        var valueLines: [Int] = []
        var problem: JSONRecordError?

        func finish() throws -> JSONRecord {
            if let problem { throw problem }
            return JSONRecord(line: line, keys: keys, values: values, valueLines: valueLines)
        }
    }

    /// Reads an object whose opening brace is at nesting level `depth` (1 for the outermost).
    func readObject(newlines: Bool, depth: Int) throws -> PartialRecord {
        var record = PartialRecord(line: line)
        stream.position += 1  // {
        try skipWhitespace(newlines: newlines)
        if try stream.peek() == UInt8(ascii: "}") {
            stream.position += 1
            return record
        }
        while true {
            errorLine = line
            guard try stream.peek() == UInt8(ascii: "\"") else { throw SyntaxError(message: "expected a key in double quotes") }
            let keyLine = line
            let key = try readString(problem: &record.problem, key: nil)
            try skipWhitespace(newlines: newlines)
            errorLine = line
            guard try stream.peek() == UInt8(ascii: ":") else { throw SyntaxError(message: "expected ':' after the key \"\(key)\"") }
            stream.position += 1
            try skipWhitespace(newlines: newlines)
            let valueLine = line
            let value = try readValue(problem: &record.problem, key: key, newlines: newlines, depth: depth)
            if record.problem == nil, !record.keySet.insert(key).inserted {
                record.problem = JSONRecordError(line: keyLine, key: key, message: "duplicate key", isFatal: false)
            }
            if record.keys.count < maximumKeyCount {
                record.keys.append(key)
                record.values.append(value)
                record.valueLines.append(valueLine)
            } else if record.problem == nil {
                record.problem = JSONRecordError(
                    line: record.line, key: nil, message: "more than \(maximumKeyCount) keys", isFatal: false)
            }
            try skipWhitespace(newlines: newlines)
            errorLine = line
            switch try stream.peek() {
            case UInt8(ascii: ","):
                stream.position += 1
                try skipWhitespace(newlines: newlines)
            case UInt8(ascii: "}"):
                stream.position += 1
                return record
            case UInt8(ascii: "\n"):
                throw SyntaxError(message: "the line ends inside the object")
            default:
                throw SyntaxError(message: "expected ',' or '}' after a value")
            }
        }
    }

    /// Reads a value inside a container at nesting level `depth`.
    private func readValue(problem: inout JSONRecordError?, key: String, newlines: Bool, depth: Int) throws -> ImportValue {
        errorLine = line
        guard let byte = try stream.peek() else { throw SyntaxError(message: "the file ends inside an object") }
        switch byte {
        case UInt8(ascii: "\""):
            return .text(try readString(problem: &problem, key: key))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber())
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .boolean(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .boolean(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        case UInt8(ascii: "["):
            let arrayLine = line
            try checkNesting(depth + 1)
            stream.position += 1
            var elements: [ImportValue] = []
            try skipWhitespace(newlines: newlines)
            if try stream.peek() == UInt8(ascii: "]") {
                stream.position += 1
                return .array([])
            }
            while true {
                let element = try readValue(problem: &problem, key: key, newlines: newlines, depth: depth + 1)
                if case .array = element, problem == nil {
                    problem = JSONRecordError(line: arrayLine, key: key, message: "nested arrays are not supported", isFatal: false)
                }
                // Read on to the end of the array, but keep no more than a record's fields.
                if elements.count < maximumKeyCount {
                    elements.append(element)
                } else if problem == nil {
                    problem = JSONRecordError(
                        line: arrayLine, key: key, message: "more than \(maximumKeyCount) items in the array", isFatal: false)
                }
                try skipWhitespace(newlines: newlines)
                errorLine = line
                switch try stream.peek() {
                case UInt8(ascii: ","):
                    stream.position += 1
                    try skipWhitespace(newlines: newlines)
                case UInt8(ascii: "]"):
                    stream.position += 1
                    return .array(elements)
                default:
                    throw SyntaxError(message: "expected ',' or ']' in an array")
                }
            }
        case UInt8(ascii: "{"):
            if problem == nil {
                problem = JSONRecordError(line: line, key: key, message: "nested objects are not supported", isFatal: false)
            }
            try checkNesting(depth + 1)
            _ = try readObject(newlines: newlines, depth: depth + 1)
            return .null
        default:
            throw SyntaxError(message: "expected a value")
        }
    }

    /// Refuses a container at nesting level `depth` beyond ``ImportLimits/maximumNestingDepth``,
    /// so no input can make the reader recurse until the stack overflows.
    private func checkNesting(_ depth: Int) throws {
        guard depth <= ImportLimits.maximumNestingDepth else {
            throw SyntaxError(message: "nesting deeper than \(ImportLimits.maximumNestingDepth) levels")
        }
    }
}
