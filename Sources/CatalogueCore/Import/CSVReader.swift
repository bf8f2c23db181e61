/// One record of a CSV file: its fields and the physical line it starts on.
public struct CSVRecord: Sendable, Hashable {
    /// The physical line (1-based) on which the record starts. A quoted field with line breaks
    /// makes a record span several lines, so the next record starts further down.
    public let line: Int
    /// The fields, unquoted.
    public let fields: [String]

    /// A record starting on `line` with `fields`.
    public init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }
}

/// A streaming RFC 4180 CSV reader: reads its input in chunks, so memory does not grow with the
/// size of the file.
///
/// - Fields are separated by `,` and records end with CRLF or LF (or the end of the input).
/// - A field in double quotes may hold `,`, line breaks and `""` (a quote); line breaks inside
///   quotes are kept as they are.
/// - A UTF-8 byte order mark at the start is skipped; empty lines are skipped.
/// - Each record knows the physical line it starts on.
/// - Fields must be valid UTF-8 and at most `maximumFieldBytes` long; a quote inside an unquoted
///   field, text after a closing quote and an unterminated quote are errors (``CSVError``).
///   After an error, ``next()`` goes on with the following record.
///
/// ```swift
/// let reader = try CSVReader(ImportInput(text: "name,type\n\"Brio, \"\"XL\"\"\",device\n", name: "x.csv"))
/// while let record = try reader.next() {
///     print(record.line, record.fields)  // 1 ["name", "type"], then 2 ["Brio, \"XL\"", "device"]
/// }
/// ```
public final class CSVReader {
    private let stream: ByteStream
    private let maximumFieldLength: Int
    /// The most bytes kept of one field: enough for `maximumFieldLength` scalars of any script.
    private let maximumFieldBytes: Int
    private let maximumFieldCount: Int
    /// The physical line of the byte at the stream's position.
    private var line = 1
    /// The bytes of the current record's fields, back to back, and where each field ends.
    private var recordBytes: [UInt8] = []
    private var fieldEnds: [Int] = []

    /// Whether a field over the length limit ends reading at once, instead of being read
    /// through to its end so that ``next()`` can go on with the following record. For a record
    /// whose error ends the import anyway (a header): an input with no end, such as
    /// `/dev/zero`, then fails at once instead of being read for ever. After such an error the
    /// reader stands inside the field.
    var stopsAtOverlongField = false

    /// How many bytes of the input have been read so far.
    public var bytesRead: Int {
        stream.input.bytesRead
    }

    /// A reader of `input`; skips a UTF-8 byte order mark at its start, and throws
    /// ``ImportEncodingError`` for UTF-16 or UTF-32 text. A field longer than
    /// `maximumFieldLength` characters (Unicode scalars), or a record with more than
    /// `maximumFieldCount` fields, is an error.
    public convenience init(
        _ input: ImportInput, maximumFieldLength: Int = ImportLimits.maximumFieldLength,
        maximumFieldCount: Int = ImportLimits.maximumFieldCount
    ) throws {
        try self.init(input, maximumFieldLength: maximumFieldLength, maximumFieldCount: maximumFieldCount, chunkSize: 64 * 1024)
    }

    /// A reader with a given read size (tests use tiny ones to put chunk ends everywhere).
    init(_ input: ImportInput, maximumFieldLength: Int, maximumFieldCount: Int, chunkSize: Int) throws {
        stream = ByteStream(input, chunkSize: chunkSize)
        self.maximumFieldLength = maximumFieldLength
        self.maximumFieldBytes = maximumFieldLength * 4
        self.maximumFieldCount = maximumFieldCount
        recordBytes.reserveCapacity(1024)
        fieldEnds.reserveCapacity(32)
        try stream.skipByteOrderMark()
    }

    /// The next record, or nil at the end of the input.
    ///
    /// Throws ``CSVError`` for a bad record (the reader then stands after it) and
    /// ``ImportInputError`` when the input cannot be read.
    public func next() throws -> CSVRecord? {
        while try stream.hasByte() {
            let startLine = line
            recordBytes.removeAll(keepingCapacity: true)
            fieldEnds.removeAll(keepingCapacity: true)
            var problem: (field: Int, reason: CSVError.Reason)?
            var quotedFields = 0
            var fieldIndex = 0
            recordLoop: while true {
                let fieldStart = recordBytes.count
                var tooLong = false
                let store = fieldIndex < maximumFieldCount
                if !store, problem == nil {
                    problem = (fieldIndex, .tooManyFields(limit: maximumFieldCount))
                }
                if try stream.peek() == Self.quote {
                    stream.position += 1
                    quotedFields += 1
                    try readQuoted(
                        recordLine: startLine, fieldIndex: fieldIndex, fieldStart: fieldStart, store: store,
                        tooLong: &tooLong)
                    if let byte = try stream.peek(), byte != Self.comma, byte != Self.lineFeed, byte != Self.carriageReturn {
                        if problem == nil { problem = (fieldIndex, .textAfterClosingQuote) }
                    }
                }
                // An unquoted field, or what follows a closing quote (an error, read on to the
                // field's end so the next record starts in the right place).
                let terminator = try readUnquoted(
                    recordLine: startLine, fieldIndex: fieldIndex, fieldStart: fieldStart, store: store, tooLong: &tooLong
                ) { reason in
                    if problem == nil { problem = (fieldIndex, reason) }
                }
                if tooLong, problem == nil {
                    problem = (fieldIndex, .fieldTooLong(limit: maximumFieldLength))
                }
                if store { fieldEnds.append(recordBytes.count) }
                fieldIndex += 1
                switch terminator {
                case Self.comma:
                    continue recordLoop
                default:
                    break recordLoop
                }
            }
            // An empty line is no record.
            if fieldIndex == 1, quotedFields == 0, recordBytes.isEmpty, problem == nil {
                continue
            }
            if let problem {
                throw CSVError(line: startLine, field: problem.field, reason: problem.reason)
            }
            return try makeRecord(line: startLine)
        }
        return nil
    }

    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    /// What `readUnquoted` returns at the end of the input.
    private static let endOfInput: UInt8 = 0

    /// Reads a quoted field's content after its opening quote, up to and including the closing
    /// quote. Throws an unterminated-quote error at the end of the input.
    private func readQuoted(
        recordLine: Int, fieldIndex: Int, fieldStart: Int, store: Bool, tooLong: inout Bool
    ) throws {
        var endsWithLineFeed = false
        while true {
            guard try stream.hasByte() else {
                // The last line is the one holding the last byte.
                let endLine = endsWithLineFeed ? line - 1 : line
                throw CSVError(line: recordLine, field: fieldIndex, reason: .unterminatedQuote(endLine: endLine))
            }
            let bytes = stream.bytes
            let start = stream.position
            let end = stream.count
            var position = start
            var lineFeeds = 0
            while position < end {
                let byte = bytes[position]
                if byte == Self.quote { break }
                if byte == Self.lineFeed { lineFeeds += 1 }
                position += 1
            }
            line += lineFeeds
            if position > start { endsWithLineFeed = bytes[position - 1] == Self.lineFeed }
            if store { append(bytes + start, count: position - start, fieldStart: fieldStart, tooLong: &tooLong) }
            stream.position = position
            if tooLong, stopsAtOverlongField {
                throw CSVError(line: recordLine, field: fieldIndex, reason: .fieldTooLong(limit: maximumFieldLength))
            }
            guard position < end else { continue }  // the chunk ended inside the field
            stream.position += 1  // the quote
            if try stream.peek() == Self.quote {
                stream.position += 1
                endsWithLineFeed = false
                var quote = Self.quote
                if store { append(&quote, count: 1, fieldStart: fieldStart, tooLong: &tooLong) }
                continue
            }
            return
        }
    }

    /// Reads unquoted bytes up to the end of the field; consumes and returns its terminator
    /// (`,`, `\n` for LF or CRLF, or ``endOfInput``).
    private func readUnquoted(
        recordLine: Int, fieldIndex: Int, fieldStart: Int, store: Bool, tooLong: inout Bool,
        problem: (CSVError.Reason) -> Void
    ) throws -> UInt8 {
        while true {
            guard try stream.hasByte() else { return Self.endOfInput }
            let bytes = stream.bytes
            let start = stream.position
            let end = stream.count
            var position = start
            while position < end {
                let byte = bytes[position]
                if byte == Self.comma || byte == Self.lineFeed || byte == Self.carriageReturn || byte == Self.quote { break }
                position += 1
            }
            if store { append(bytes + start, count: position - start, fieldStart: fieldStart, tooLong: &tooLong) }
            stream.position = position
            if tooLong, stopsAtOverlongField {
                throw CSVError(line: recordLine, field: fieldIndex, reason: .fieldTooLong(limit: maximumFieldLength))
            }
            guard position < end else { continue }
            let byte = bytes[position]
            stream.position += 1
            switch byte {
            case Self.comma:
                return byte
            case Self.lineFeed:
                line += 1
                return byte
            case Self.carriageReturn:
                if try stream.peek() == Self.lineFeed {
                    stream.position += 1
                    line += 1
                    return Self.lineFeed
                }
                problem(.bareCarriageReturn)
            default:
                problem(.unexpectedQuote)
            }
            var kept = byte
            if store { append(&kept, count: 1, fieldStart: fieldStart, tooLong: &tooLong) }
        }
    }

    /// Appends field bytes, up to the field limit.
    @inline(__always)
    private func append(_ bytes: UnsafePointer<UInt8>, count: Int, fieldStart: Int, tooLong: inout Bool) {
        guard count > 0 else { return }
        let room = maximumFieldBytes - (recordBytes.count - fieldStart)
        if count > room {
            tooLong = true
            if room > 0 { recordBytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: room)) }
        } else {
            recordBytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        }
    }

    /// The record's fields as strings, checking that each is UTF-8.
    private func makeRecord(line: Int) throws -> CSVRecord {
        var fields: [String] = []
        fields.reserveCapacity(fieldEnds.count)
        try recordBytes.withUnsafeBufferPointer { all in
            var start = 0
            for (index, end) in fieldEnds.enumerated() {
                guard let field = String(validating: UnsafeBufferPointer(rebasing: all[start..<end]), as: UTF8.self) else {
                    throw CSVError(line: line, field: index, reason: .invalidUTF8)
                }
                if end - start > maximumFieldLength, field.unicodeScalars.count > maximumFieldLength {
                    throw CSVError(line: line, field: index, reason: .fieldTooLong(limit: maximumFieldLength))
                }
                fields.append(field)
                start = end
            }
        }
        return CSVRecord(line: line, fields: fields)
    }
}
