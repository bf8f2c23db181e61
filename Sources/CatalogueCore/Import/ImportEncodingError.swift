/// An input in a Unicode encoding other than UTF-8, which the readers take: UTF-16 or UTF-32,
/// as spreadsheets save "Unicode text", recognized by its first bytes (a byte order mark, or
/// ASCII text with zero bytes between its characters).
///
/// ``CSVReader`` and ``JSONRecordReader`` throw it when they are created, before any row is
/// read, so an import reports it instead of a misleading syntax error in the first row:
///
/// ```swift
/// do {
///     _ = try CSVReader(ImportInput(bytes: [0xFF, 0xFE, 0x6E, 0x00], name: "sheet.csv"))
/// } catch let error as ImportEncodingError {
///     print(error)  // UTF-16LE text, not UTF-8; convert it first: iconv -f UTF-16LE -t UTF-8
/// }
/// ```
public struct ImportEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The encodings recognized, named as `iconv` names them.
    public enum Encoding: String, Sendable, Hashable, CaseIterable {
        /// UTF-16, least significant byte first (Windows' "Unicode").
        case utf16LittleEndian = "UTF-16LE"
        /// UTF-16, most significant byte first.
        case utf16BigEndian = "UTF-16BE"
        /// UTF-32, least significant byte first.
        case utf32LittleEndian = "UTF-32LE"
        /// UTF-32, most significant byte first.
        case utf32BigEndian = "UTF-32BE"
    }

    /// The encoding the input's first bytes show.
    public let encoding: Encoding

    /// An error for an input in `encoding`.
    public init(encoding: Encoding) {
        self.encoding = encoding
    }

    /// What is wrong and the command that converts the file.
    public var description: String {
        "\(encoding.rawValue) text, not UTF-8; convert it first: iconv -f \(encoding.rawValue) -t UTF-8"
    }

    /// The encoding that the first bytes of an input show, or nil for UTF-8 (or too few bytes to
    /// tell).
    ///
    /// A byte order mark decides; without one, ASCII text gives itself away by its zero bytes:
    /// `n\0a\0` is UTF-16LE, `\0n\0a` UTF-16BE. UTF-8 text has no zero bytes.
    ///
    /// ```swift
    /// ImportEncodingError.encoding(ofStart: [0xFF, 0xFE, 0x6E, 0x00])  // .utf16LittleEndian
    /// ImportEncodingError.encoding(ofStart: Array("name".utf8))        // nil
    /// ```
    public static func encoding(ofStart bytes: some Collection<UInt8>) -> Encoding? {
        let start = Array(bytes.prefix(4))
        if start.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return .utf32BigEndian }
        if start.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return .utf32LittleEndian }
        if start.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        if start.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        guard start.count == 4 else { return nil }
        let zero = start.map { $0 == 0 }
        switch (zero[0], zero[1], zero[2], zero[3]) {
        case (false, true, true, true): return .utf32LittleEndian
        case (true, true, true, false): return .utf32BigEndian
        case (false, true, false, true): return .utf16LittleEndian
        case (true, false, true, false): return .utf16BigEndian
        default: return nil
        }
    }
}
