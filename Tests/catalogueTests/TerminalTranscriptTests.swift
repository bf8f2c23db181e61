import Testing

@Suite("Terminal transcripts (test support)")
struct TerminalTranscriptTests {
    @Test("A progress bar erased before a message leaves only the message, as on a screen")
    func erasedBar() {
        // As CI's AddressSanitizer build printed it: the bar drawn once, then erased.
        let output = "\r[........]   0%  0 rows  0 rows/s\u{1B}[K\r\u{1B}[Kcatalogue: created a new catalogue at /tmp/x\r\n"
            + "catalogue: error: bad.csv:3: year\r\n"
        #expect(TerminalTranscript.lines(of: output) == [
            "catalogue: created a new catalogue at /tmp/x", "catalogue: error: bad.csv:3: year",
        ])
    }

    @Test("A carriage return overwrites from the first column; what it does not reach stays")
    func overwrite() {
        #expect(TerminalTranscript.lines(of: "abcdef\rXY\r\n\r\n") == ["XYcdef"])
        #expect(TerminalTranscript.lines(of: "abcdef\rXY\u{1B}[K\r\n") == ["XY"])
    }
}
