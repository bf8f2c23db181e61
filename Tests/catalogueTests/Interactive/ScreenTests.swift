import Testing
@testable import CatalogueCommands

@Suite("Screen: frames as ANSI escape sequences")
struct ScreenTests {
    private let screen = Screen(
        lines: [StyledLine([Span(" A", .sectionHeader), Span("   "), Span("Z", .index)]),
                StyledLine("> Colombia", style: .selected),
                StyledLine("help", style: .dim)],
        cursor: (row: 0, column: 5))

    @Test("Each row is positioned, drawn and cleared to its end; the cursor is placed and shown")
    func frame() {
        let frame = screen.ansiFrame(colours: true, columns: 80)
        #expect(frame.hasPrefix("\u{1B}[?25l\u{1B}[1;1H"))
        #expect(frame.contains("\u{1B}[2;1H\u{1B}[7m> Colombia\u{1B}[0m\u{1B}[K"))
        #expect(frame.hasSuffix("\u{1B}[1;6H\u{1B}[?25h"))
    }

    @Test("A row as wide as the screen is not cleared (the erase would take its last cell)")
    func fullRow() {
        let full = Screen(lines: [StyledLine(String(repeating: "x", count: 10))], cursor: nil)
        #expect(!full.ansiFrame(colours: false, columns: 10).contains("\u{1B}[K"))
        #expect(full.ansiFrame(colours: false, columns: 11).contains("\u{1B}[K"))
        #expect(full.ansiFrame(colours: false, columns: 10).hasSuffix("x"))  // cursor stays hidden
    }

    @Test("Colours only when wanted: NO_COLOR leaves bold and reverse video")
    func noColour() {
        let coloured = screen.ansiFrame(colours: true, columns: 80)
        let plain = screen.ansiFrame(colours: false, columns: 80)
        #expect(coloured.contains("\u{1B}[1;36m"))
        let colourCodes = #/\x1B\[[0-9;]*(3[0-7]|4[0-7]|9[0-7])[;m]/#
        #expect(plain.firstMatch(of: colourCodes) == nil)
        #expect(plain.contains("\u{1B}[1m A"))
        #expect(plain.contains("\u{1B}[7m> Colombia"))
        #expect(!plain.contains("\u{1B}[2m"))
    }

    @Test("Styled lines truncate by cells across spans")
    func truncation() {
        let line = StyledLine([Span("Côte ", .bold), Span("d'Ivoire")])
        #expect(line.width == 13)
        #expect(line.truncated(to: 8).text == "Côte d'…")
        #expect(line.truncated(to: 8).spans.first?.style == .bold)
        #expect(line.truncated(to: 3).text == "Cô…")
    }
}
