/// Turns the bytes a terminal sends into ``Key``s: control keys, CSI and SS3 escape sequences
/// (arrows, Home/End, PgUp/PgDn, Shift-Tab, function keys) and UTF-8 text.
///
/// Bytes may arrive split across reads: an incomplete escape sequence or UTF-8 character stays
/// pending until the rest arrives. A lone Esc cannot be told from the start of a sequence by
/// its bytes, only by time: when nothing follows within a short timeout, the reader calls
/// ``flush()``, which turns what is pending into keys (`ESC` alone becomes ``Key/escape``).
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.feed([0x1B])          // [] (pending: Esc or a sequence?)
/// decoder.feed(Array("[5~".utf8))  // [.pageUp]
/// decoder.feed([0x1B])          // []
/// decoder.flush()               // [.escape]
/// ```
struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// The longest escape sequence kept waiting for its final byte; longer ones are dropped.
    static let maximumSequenceLength = 32

    init() {}

    /// Whether bytes are waiting for more (an escape sequence or a UTF-8 character).
    var hasPendingInput: Bool { !pending.isEmpty }

    /// Decodes `bytes` after what is pending; returns the complete keys.
    mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Key] where Bytes.Element == UInt8 {
        pending.append(contentsOf: bytes)
        return decode(final: false)
    }

    /// Decodes what is pending as if no more bytes will come (the read timed out): a lone
    /// `ESC` is ``Key/escape``; an incomplete sequence is Esc and its characters; an incomplete
    /// UTF-8 character is dropped.
    mutating func flush() -> [Key] {
        decode(final: true)
    }

    private mutating func decode(final: Bool) -> [Key] {
        var keys: [Key] = []
        var index = 0
        loop: while index < pending.count {
            let byte = pending[index]
            switch byte {
            case 0x1B:
                switch escapeSequence(at: index, final: final) {
                case .incomplete:
                    break loop
                case .key(let key, let length):
                    keys.append(key)
                    index += length
                }
            case 0x00..<0x20, 0x7F:
                keys.append(Self.controlKey(byte))
                index += 1
            case 0x20..<0x80:
                keys.append(.character(Character(Unicode.Scalar(byte))))
                index += 1
            default:
                switch utf8Character(at: index) {
                case .incomplete where !final:
                    break loop
                case .incomplete:
                    index = pending.count
                case .invalid:
                    index += 1
                case .scalar(let scalar, let length):
                    keys.append(.character(Character(scalar)))
                    index += length
                }
            }
        }
        pending.removeFirst(index)
        return keys
    }

    private enum SequenceResult {
        case incomplete
        case key(Key, length: Int)
    }

    /// The key of the escape sequence starting at `start` (an `ESC` byte).
    private func escapeSequence(at start: Int, final: Bool) -> SequenceResult {
        let available = pending.count - start
        guard available > 1 else {
            return final ? .key(.escape, length: 1) : .incomplete
        }
        let introducer = pending[start + 1]
        switch introducer {
        case UInt8(ascii: "["):
            // CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, a final byte 0x40–0x7E.
            var end = start + 2
            while end < pending.count, (0x20...0x3F).contains(pending[end]) {
                end += 1
            }
            guard end < pending.count else {
                if end - start > Self.maximumSequenceLength { return .key(.unknown, length: end - start) }
                return final ? .key(.escape, length: 1) : .incomplete
            }
            let finalByte = pending[end]
            guard (0x40...0x7E).contains(finalByte) else {
                return .key(.unknown, length: end - start)
            }
            let parameters = String(decoding: pending[(start + 2)..<end], as: UTF8.self)
            return .key(Self.csiKey(parameters: parameters, final: finalByte), length: end - start + 1)
        case UInt8(ascii: "O"):
            guard available > 2 else {
                return final ? .key(.escape, length: 1) : .incomplete
            }
            return .key(Self.ss3Key(pending[start + 2]), length: 3)
        default:
            // Esc followed by anything else (another Esc, or a key typed right after it):
            // the Esc stands alone.
            return .key(.escape, length: 1)
        }
    }

    /// The key of `CSI parameters final`: `ESC [ A` is up, `ESC [ 5 ~` PgUp, `ESC [ 1 ; 5 C`
    /// Ctrl-right (modifiers are ignored).
    static func csiKey(parameters: String, final: UInt8) -> Key {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first.flatMap { $0 }
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .shiftTab
        case UInt8(ascii: "P"): return .function(1)
        case UInt8(ascii: "Q"): return .function(2)
        case UInt8(ascii: "R"): return .function(3)
        case UInt8(ascii: "S"): return .function(4)
        case UInt8(ascii: "~"):
            switch first {
            case 1, 7: return .home
            case 2: return .insert
            case 3: return .delete
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            case let code? where (11...15).contains(code): return .function(code - 10)
            case let code? where (17...21).contains(code): return .function(code - 11)
            case 23: return .function(11)
            case 24: return .function(12)
            case 200: return .pasteStart
            case 201: return .pasteEnd
            default: return .unknown
            }
        default:
            return .unknown
        }
    }

    /// The key of `ESC O byte` (application cursor and keypad mode).
    static func ss3Key(_ byte: UInt8) -> Key {
        switch byte {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "M"): .enter
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        default: .unknown
        }
    }

    /// The key of a C0 control byte or DEL.
    static func controlKey(_ byte: UInt8) -> Key {
        switch byte {
        case 0x09: .tab
        case 0x0A, 0x0D: .enter
        case 0x08, 0x7F: .backspace
        case 0x01...0x1A: .control(Character(Unicode.Scalar(byte + 0x60)))
        default: .unknown
        }
    }

    private enum UTF8Result {
        case incomplete
        case invalid
        case scalar(Unicode.Scalar, length: Int)
    }

    /// The UTF-8 character starting at `start` (a byte ≥ 0x80).
    private func utf8Character(at start: Int) -> UTF8Result {
        let lead = pending[start]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .invalid
        }
        var available = 1
        while available < length, start + available < pending.count {
            guard pending[start + available] & 0xC0 == 0x80 else { return .invalid }
            available += 1
        }
        guard available == length else { return .incomplete }
        var decoder = UTF8()
        var iterator = pending[start..<(start + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return .invalid }
        return .scalar(scalar, length: length)
    }
}
