// The lexical layer of JSONRecordReader: whitespace, strings, numbers and literals.

extension JSONRecordReader {
    /// Skips spaces, tabs and carriage returns, and line feeds when `newlines` is true.
    func skipWhitespace(newlines: Bool) throws {
        while try stream.hasByte() {
            let bytes = stream.bytes
            var position = stream.position
            let end = stream.count
            while position < end {
                let byte = bytes[position]
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                    position += 1
                } else if byte == UInt8(ascii: "\n") && newlines {
                    line += 1
                    position += 1
                } else {
                    stream.position = position
                    return
                }
            }
            stream.position = position
        }
    }

    /// After a syntax error in NDJSON: skips to the start of the next line.
    func skipRestOfLine() throws {
        while let byte = try stream.peek() {
            stream.position += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                return
            }
        }
    }

    /// A string in double quotes, with its escapes decoded. Invalid UTF-8 or a string longer
    /// than the limit sets `problem` (the record fails, reading goes on).
    func readString(problem: inout JSONRecordError?, key: String?) throws -> String {
        let startLine = line
        stream.position += 1  // the opening quote
        scratch.removeAll(keepingCapacity: true)
        var tooLong = false
        while true {
            guard try stream.hasByte() else { throw SyntaxError(message: "the file ends inside a string") }
            let bytes = stream.bytes
            let start = stream.position
            let end = stream.count
            var position = start
            while position < end {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                position += 1
            }
            append(bytes + start, count: position - start, tooLong: &tooLong)
            stream.position = position
            if tooLong, stopsAtOverlongValue {
                failed = true
                throw JSONRecordError(line: startLine, key: key, message: ImportLimits.tooLongMessage(limit: maximumFieldLength), isFatal: true)
            }
            guard position < end else { continue }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                stream.position += 1
                break
            }
            errorLine = line
            if byte == UInt8(ascii: "\n") {
                throw SyntaxError(message: "the line ends inside a string")
            }
            if byte < 0x20 {
                throw SyntaxError(message: "control character in a string (escape it)")
            }
            stream.position += 1  // the backslash
            let decoded = try readEscape()
            withUnsafeBytes(of: decoded.bytes) { raw in
                append(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: decoded.count, tooLong: &tooLong)
            }
        }
        if tooLong || (scratch.count > maximumFieldLength && String(decoding: scratch, as: UTF8.self).unicodeScalars.count > maximumFieldLength) {
            if problem == nil {
                problem = JSONRecordError(line: startLine, key: key, message: ImportLimits.tooLongMessage(limit: maximumFieldLength), isFatal: false)
            }
            return ""
        }
        guard let string = String(validating: scratch, as: UTF8.self) else {
            if problem == nil {
                problem = JSONRecordError(line: startLine, key: key, message: "invalid UTF-8", isFatal: false)
            }
            return ""
        }
        return string
    }

    private func append(_ bytes: UnsafePointer<UInt8>, count: Int, tooLong: inout Bool) {
        guard count > 0, !tooLong else { return }
        if scratch.count + count > maximumFieldLength * 4 {
            tooLong = true
        } else {
            scratch.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        }
    }

    /// The UTF-8 bytes of the escape after a backslash (`\n`, `\u00e9`, a surrogate pair).
    private func readEscape() throws -> (bytes: (UInt8, UInt8, UInt8, UInt8), count: Int) {
        guard let byte = try stream.peek() else { throw SyntaxError(message: "the file ends inside a string") }
        stream.position += 1
        let simple: UInt8? = switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple { return ((simple, 0, 0, 0), 1) }
        guard byte == UInt8(ascii: "u") else { throw SyntaxError(message: "invalid escape in a string") }
        var value = try readHex4()
        if (0xD800...0xDBFF).contains(value) {
            guard try stream.peek() == UInt8(ascii: "\\") else { throw SyntaxError(message: "unpaired surrogate in a \\u escape") }
            stream.position += 1
            guard try stream.peek() == UInt8(ascii: "u") else { throw SyntaxError(message: "unpaired surrogate in a \\u escape") }
            stream.position += 1
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw SyntaxError(message: "unpaired surrogate in a \\u escape") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(value) {
            throw SyntaxError(message: "unpaired surrogate in a \\u escape")
        }
        var result: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var count = 0
        UTF8.encode(Unicode.Scalar(value)!) { unit in
            withUnsafeMutableBytes(of: &result) { $0[count] = unit }
            count += 1
        }
        return (result, count)
    }

    private func readHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try stream.peek() else { throw SyntaxError(message: "the file ends inside a string") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw SyntaxError(message: "invalid \\u escape in a string")
            }
            value = value << 4 | digit
            stream.position += 1
        }
        return value
    }

    func readLiteral(_ literal: StaticString) throws {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard try stream.peek() == byte else { throw SyntaxError(message: "expected a value") }
            stream.position += 1
        }
        try expectValueEnd()
    }

    /// A number per the JSON grammar, as written.
    func readNumber() throws -> String {
        scratch.removeAll(keepingCapacity: true)
        func digits() throws -> Int {
            var count = 0
            while let byte = try stream.peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard scratch.count < maximumFieldLength else { throw SyntaxError(message: "number too long") }
                scratch.append(byte)
                stream.position += 1
                count += 1
            }
            return count
        }
        if try stream.peek() == UInt8(ascii: "-") {
            scratch.append(UInt8(ascii: "-"))
            stream.position += 1
        }
        let leadingZero = try stream.peek() == UInt8(ascii: "0")
        let integerDigits = try digits()
        guard integerDigits > 0, !(leadingZero && integerDigits > 1) else { throw SyntaxError(message: "invalid number") }
        if try stream.peek() == UInt8(ascii: ".") {
            scratch.append(UInt8(ascii: "."))
            stream.position += 1
            guard try digits() > 0 else { throw SyntaxError(message: "invalid number") }
        }
        if let byte = try stream.peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            scratch.append(byte)
            stream.position += 1
            if let sign = try stream.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                scratch.append(sign)
                stream.position += 1
            }
            guard try digits() > 0 else { throw SyntaxError(message: "invalid number") }
        }
        try expectValueEnd()
        return String(decoding: scratch, as: UTF8.self)
    }

    /// After a number or literal: a delimiter, whitespace or the end must follow.
    func expectValueEnd() throws {
        guard let byte = try stream.peek() else { return }
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\t"),
             UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            return
        default:
            throw SyntaxError(message: "expected a value")
        }
    }
}
