import CatalogueKit
import Testing

/// ``ImportEncodingError/encoding(ofStart:)``: which first bytes are UTF-16 or UTF-32 text.
@Suite("Import encoding")
struct ImportEncodingErrorTests {
    @Test("Byte order marks and ASCII with zero bytes are recognized; UTF-8 and too little are not", arguments: [
        ([0xFF, 0xFE, 0x6E, 0x00], ImportEncodingError.Encoding.utf16LittleEndian),
        ([0xFE, 0xFF, 0x00, 0x6E], .utf16BigEndian),
        ([0xFF, 0xFE], .utf16LittleEndian),
        ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian),
        ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian),
        ([0x6E, 0x00, 0x61, 0x00], .utf16LittleEndian),
        ([0x00, 0x6E, 0x00, 0x61], .utf16BigEndian),
        ([0x6E, 0x00, 0x00, 0x00], .utf32LittleEndian),
        ([0x00, 0x00, 0x00, 0x6E], .utf32BigEndian),
        ([0xEF, 0xBB, 0xBF, 0x6E], nil),
        (Array("name".utf8), nil),
        (Array("id\n".utf8), nil),
        ([0x00, 0x00, 0x00, 0x00], nil),
        ([], nil),
    ] as [([UInt8], ImportEncodingError.Encoding?)])
    func recognized(start: [UInt8], expected: ImportEncodingError.Encoding?) {
        #expect(ImportEncodingError.encoding(ofStart: start) == expected)
    }

    @Test("The message names the encoding and the iconv command")
    func message() {
        #expect(ImportEncodingError(encoding: .utf16BigEndian).description
            == "UTF-16BE text, not UTF-8; convert it first: iconv -f UTF-16BE -t UTF-8")
    }
}
