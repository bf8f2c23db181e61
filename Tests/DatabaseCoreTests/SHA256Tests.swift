import DatabaseCore
import Testing

@Suite("SHA256")
struct SHA256Tests {
    @Test("FIPS 180-4 / NIST test vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func standardVectors(message: String, expected: String) {
        #expect(SHA256.hexDigest(of: Array(message.utf8)) == expected)
    }

    @Test("one million 'a'")
    func oneMillionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(of: message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the 64-byte block and the 56-byte padding boundary (expected digests from
    /// coreutils `sha256sum`).
    @Test("padding boundaries", arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        (128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(SHA256.hexDigest(of: message) == expected)
    }

    @Test("every byte value, non-ASCII UTF-8")
    func binaryAndUnicodeInput() {
        let allBytes = (0..<3).flatMap { _ in (0...255).map(UInt8.init) }
        #expect(SHA256.hexDigest(of: allBytes) == "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363")
        #expect(SHA256.hexDigest(of: Array("Bogotá 👩‍👩‍👧".utf8))
            == "9339148c6fa88475784cc8fc5ff7ccbf33bd7ab4b34d04e030934a63013ce786")
    }

    @Test("digest is 32 bytes and matches the hex form; any byte collection works")
    func digestAndHexAgree() {
        let message = Array("abc".utf8)
        let digest = SHA256.digest(of: message)
        #expect(digest.count == 32)
        #expect(digest.prefix(4) == [0xba, 0x78, 0x16, 0xbf])
        let hex = digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(hex == SHA256.hexDigest(of: message))
        // An ArraySlice and a String.UTF8View give the same digest as an Array.
        #expect(SHA256.hexDigest(of: ([0, 0] + message)[2...]) == SHA256.hexDigest(of: message))
        #expect(SHA256.hexDigest(of: "abc".utf8) == SHA256.hexDigest(of: message))
    }

    @Test("hex digest is 64 lowercase hexadecimal digits")
    func hexFormat() {
        for length in [0, 1, 31, 32, 33, 1000] {
            let hex = SHA256.hexDigest(of: [UInt8](repeating: 0xff, count: length))
            #expect(hex.count == 64)
            #expect(hex.allSatisfy { "0123456789abcdef".contains($0) })
        }
    }

    @Test("migration checksums are the SHA-256 of the script's UTF-8 bytes")
    func migrationChecksum() {
        let migration = Migration(identifier: "0001_initial", sql: "abc")
        #expect(migration.checksum == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
