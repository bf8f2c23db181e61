/// The bytes of an ``ImportInput``, one chunk at a time, for the CSV and JSON readers: a fixed
/// buffer (64 KiB by default) refilled as the readers consume it.
///
/// ```swift
/// let stream = ByteStream(input)
/// stream.skipByteOrderMark()
/// while let byte = try stream.peek() { stream.position += 1 }
/// ```
final class ByteStream {
    let input: ImportInput
    private let storage: UnsafeMutableRawBufferPointer
    /// The buffer; `bytes[position..<count]` are read but not consumed.
    let bytes: UnsafeMutablePointer<UInt8>
    var position = 0
    private(set) var count = 0

    init(_ input: ImportInput, chunkSize: Int = 64 * 1024) {
        self.input = input
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(4, chunkSize), alignment: 16)
        bytes = storage.bindMemory(to: UInt8.self).baseAddress!
    }

    deinit {
        storage.deallocate()
    }

    /// Whether a byte is available at `position`, reading the next chunk if needed; false at the
    /// end of the input.
    @inline(__always)
    func hasByte() throws -> Bool {
        position < count ? true : try refill()
    }

    /// The byte at `position`, or nil at the end of the input.
    @inline(__always)
    func peek() throws -> UInt8? {
        try hasByte() ? bytes[position] : nil
    }

    /// Reads the next chunk into the buffer (the current one must be consumed).
    private func refill() throws -> Bool {
        precondition(position >= count, "refill before the chunk is consumed")
        position = 0
        count = try input.read(into: storage)
        return count > 0
    }

    /// Skips a UTF-8 byte order mark (EF BB BF) at the start of the input; throws
    /// ``ImportEncodingError`` when the input starts as UTF-16 or UTF-32 text.
    func skipByteOrderMark() throws {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        // A pipe may deliver fewer bytes at first: read until there are four, enough to tell.
        while count - position < 4 {
            let read = try input.read(into: UnsafeMutableRawBufferPointer(
                rebasing: storage[count...]))
            if read == 0 { break }
            count += read
        }
        if let encoding = ImportEncodingError.encoding(ofStart: UnsafeBufferPointer(start: bytes + position, count: count - position)) {
            throw ImportEncodingError(encoding: encoding)
        }
        if count - position >= 3, (0..<3).allSatisfy({ bytes[position + $0] == mark[$0] }) {
            position += 3
        }
    }
}
