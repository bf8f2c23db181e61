import Testing
@testable import CatalogueCommands

@Suite("KeyDecoder: terminal bytes to keys")
struct KeyDecoderTests {
    private func decode(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flush()
    }

    @Test("Arrows, Home/End, PgUp/PgDn in their CSI and SS3 forms", arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}[H", .home), ("\u{1B}[F", .end),
        ("\u{1B}OH", .home), ("\u{1B}OF", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
        ("\u{1B}[7~", .home), ("\u{1B}[8~", .end), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
        ("\u{1B}[3~", .delete), ("\u{1B}[2~", .insert), ("\u{1B}[1;5A", .up), ("\u{1B}[5;2~", .pageUp),
    ])
    func navigation(bytes: String, key: Key) {
        #expect(decode(bytes) == [key])
    }

    @Test("Tab, Shift-Tab (ESC [ Z), Enter (CR and LF), Backspace (DEL and BS)")
    func editingKeys() {
        #expect(decode("\t") == [.tab])
        #expect(decode("\u{1B}[Z") == [.shiftTab])
        #expect(decode("\r") == [.enter])
        #expect(decode("\n") == [.enter])
        #expect(decode("\u{1B}OM") == [.enter])
        #expect(decode("\u{7F}") == [.backspace])
        #expect(decode("\u{08}") == [.backspace])
    }

    @Test("Ctrl keys arrive as bytes in raw mode: Ctrl-C, Ctrl-D, Ctrl-U, Ctrl-W, Ctrl-Z")
    func controlKeys() {
        #expect(decode("\u{03}") == [.interrupt])
        #expect(decode("\u{04}") == [.endOfInput])
        #expect(decode("\u{03}") == [.control("c")])
        #expect(decode("\u{15}\u{17}\u{1A}\u{0C}") == [.control("u"), .control("w"), .control("z"), .control("l")])
    }

    @Test("Function keys: F1–F4 in SS3 and CSI forms, F5–F12 as ESC [ n ~", arguments: [
        ("\u{1B}OP", 1), ("\u{1B}OS", 4), ("\u{1B}[11~", 1), ("\u{1B}[15~", 5), ("\u{1B}[17~", 6),
        ("\u{1B}[21~", 10), ("\u{1B}[24~", 12), ("\u{1B}[1;2P", 1),
    ])
    func functionKeys(bytes: String, number: Int) {
        #expect(decode(bytes) == [.function(number)])
    }

    @Test("A bracketed paste: its markers are keys of their own; between them, text and Enter as usual")
    func bracketedPaste() {
        #expect(decode("\u{1B}[200~bog\rq\u{1B}[201~") == [
            .pasteStart, .character("b"), .character("o"), .character("g"), .enter, .character("q"), .pasteEnd,
        ])
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[20".utf8)) == [])
        #expect(decoder.feed(Array("0~é".utf8)) == [.pasteStart, .character("é")])
    }

    @Test("A lone Esc stays pending until the read times out (flush)")
    func loneEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPendingInput)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPendingInput)
    }

    @Test("An escape sequence split across reads is one key")
    func splitSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.feed(Array("[".utf8)).isEmpty)
        #expect(decoder.feed(Array("6".utf8)).isEmpty)
        #expect(decoder.feed(Array("~".utf8)) == [.pageDown])
    }

    @Test("Esc followed at once by a key, or by another Esc, is Esc then that key")
    func escapeThenKey() {
        #expect(decode("\u{1B}/") == [.escape, .character("/")])
        #expect(decode("\u{1B}\u{1B}[A") == [.escape, .up])
        #expect(decode("\u{1B}\u{1B}") == [.escape, .escape])
    }

    @Test("An incomplete sequence at the timeout is Esc and its characters")
    func incompleteAtTimeout() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[".utf8)).isEmpty)
        #expect(decoder.flush() == [.escape, .character("[")])
    }

    @Test("UTF-8 text with diacritics, also split mid-character across reads")
    func utf8Text() {
        #expect(decode("bogotá") == "bogotá".map(Key.character))
        #expect(decode("São Tomé") == "São Tomé".map(Key.character))
        #expect(decode("東京") == [.character("東"), .character("京")])
        var decoder = KeyDecoder()
        let bytes = Array("á".utf8)
        #expect(decoder.feed(bytes[0..<1]).isEmpty)
        #expect(decoder.feed(bytes[1...]) == [.character("á")])
    }

    @Test("Invalid UTF-8 is skipped; an incomplete character at the timeout is dropped")
    func invalidUTF8() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x61, 0xFF, 0x62, 0x80, 0xC0, 0xAF]) == [.character("a"), .character("b")])
        #expect(decoder.feed([0x61, 0xFF, 0xC3, 0x28]) == [.character("a"), .character("(")])
        #expect(decoder.feed([0xE2, 0x82]).isEmpty)
        #expect(decoder.flush().isEmpty)
        #expect(!decoder.hasPendingInput)
    }

    @Test("Unknown sequences decode to .unknown and do not swallow what follows")
    func unknownSequences() {
        #expect(decode("\u{1B}[99~x") == [.unknown, .character("x")])
        #expect(decode("\u{1B}[?1;2cq") == [.unknown, .character("q")])
        #expect(decode("\u{1B}OZ") == [.unknown])
    }

    @Test("Several keys in one read")
    func severalKeys() {
        #expect(decode("co\u{1B}[B\t\r") == [.character("c"), .character("o"), .down, .tab, .enter])
    }
}
