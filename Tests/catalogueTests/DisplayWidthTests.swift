import Testing
@testable import CatalogueCommands

@Suite("DisplayWidth: terminal cells, truncation and sanitizing")
struct DisplayWidthTests {
    @Test("Latin text with diacritics, precomposed or combining, takes one cell a letter")
    func latin() {
        #expect(DisplayWidth.of("Bogotá") == 6)
        #expect(DisplayWidth.of("Côte d'Ivoire") == 13)
        #expect(DisplayWidth.of("Bogota\u{301}") == 6)  // a + combining acute
        #expect(DisplayWidth.of("Åland Islands") == 13)
    }

    @Test("East Asian wide characters and emoji take two cells; controls none")
    func wideAndZero() {
        #expect(DisplayWidth.of("東京") == 4)
        #expect(DisplayWidth.of("서울") == 4)
        #expect(DisplayWidth.of("🎂") == 2)
        #expect(DisplayWidth.of("❤\u{FE0F}") == 2)
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
        #expect(DisplayWidth.of("\u{1B}") == 0)
    }

    @Test("truncate cuts by cells and ends in an ellipsis")
    func truncate() {
        #expect(DisplayWidth.truncate("Saint Helena, Ascension and Tristan da Cunha", to: 12) == "Saint Helen…")
        #expect(DisplayWidth.truncate("Colombia", to: 8) == "Colombia")
        #expect(DisplayWidth.truncate("Colombia", to: 7) == "Colomb…")
        #expect(DisplayWidth.truncate("Côte d'Ivoire", to: 4) == "Côt…")
        #expect(DisplayWidth.truncate("東京都", to: 4) == "東…")  // 東 (2) + … (1); 京 would not fit
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
        #expect(DisplayWidth.of(DisplayWidth.truncate("東京都庁舎", to: 5)) <= 5)
    }

    @Test("fit pads to exactly the width, left or right aligned")
    func fit() {
        #expect(DisplayWidth.fit("Bogotá", to: 8) == "Bogotá  ")
        #expect(DisplayWidth.fit("599.00", to: 8, alignRight: true) == "  599.00")
        #expect(DisplayWidth.fit("東京", to: 5) == "東京 ")
        #expect(DisplayWidth.of(DisplayWidth.fit("Congo, The Democratic Republic of the", to: 20)) == 20)
    }

    @Test("suffix keeps the end of long search text")
    func suffix() {
        #expect(DisplayWidth.suffix("united kingdom", width: 7) == "kingdom")
        #expect(DisplayWidth.suffix("são", width: 10) == "são")
    }

    @Test("sanitized replaces control characters, so data cannot move the cursor")
    func sanitized() {
        #expect(DisplayWidth.sanitized("Bad\u{1B}[2JName") == "Bad\u{FFFD}[2JName")
        #expect(DisplayWidth.sanitized("two\nlines\r\n") == "two\u{FFFD}lines\u{FFFD}")
        #expect(DisplayWidth.sanitized("Bogotá") == "Bogotá")
    }
}
