import Foundation
import Testing
@testable import CatalogueCommands

@Suite("InteractiveRenderer: state and rows to screen lines")
struct InteractiveRendererTests {
    private func render(_ state: InteractiveState, names: [String] = []) -> [String] {
        InteractiveRenderer.render(state, rows: InteractiveFixtures.rows(for: state, names: names)).plainLines
    }

    private func expectFits(_ lines: [String], _ size: ScreenSize, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(lines.count == size.rows, sourceLocation: sourceLocation)
        for line in lines {
            #expect(DisplayWidth.of(line) <= size.columns, "\(line)", sourceLocation: sourceLocation)
        }
    }

    @Test("Search view at 80×24: field with the text, scope bar, results, status, help")
    func searchView() {
        let state = InteractiveFixtures.searchingState(text: "co", count: 3)
        let screen = InteractiveRenderer.render(state, rows: InteractiveFixtures.rows(for: state, names: ["Colombia", "Comoros", "Côte d'Ivoire"]))
        let lines = screen.plainLines
        expectFits(lines, state.size)
        #expect(lines[0].hasPrefix(" Search countries: co "))
        #expect(lines[0].hasSuffix(" match: prefix "))
        #expect(lines[1].hasPrefix(" Scope: [Name] · Capital"))
        #expect(lines[2].hasPrefix("  Name "))
        #expect(lines[3].hasPrefix("> Colombia "))
        #expect(lines[4].hasPrefix("  Comoros "))
        #expect(lines[5].hasPrefix("  Côte d'Ivoire "))
        #expect(lines[22].hasPrefix(" 3 items found"))
        #expect(lines[22].hasSuffix("1 of 3 "))
        #expect(lines[23].contains("Esc browse") && lines[23].contains("^C quit"))
        #expect(lines[23].contains("^T match prefix") && lines[23].contains("^E products"))
        // The cursor sits after the text in the field.
        #expect(screen.cursor?.row == 0)
        #expect(screen.cursor?.column == DisplayWidth.of(" Search countries: co"))
    }

    @Test("No results: 'No items found' once, in the list; the status line leaves it out")
    func noResults() {
        let lines = render(InteractiveFixtures.searchingState(text: "bog", count: 0))
        #expect(lines[3].hasPrefix("  No items found"))
        #expect(lines.filter { $0.contains("No items found") }.count == 1)
        #expect(lines[22].trimmingCharacters(in: .whitespaces).isEmpty)
    }

    @Test("No results with suggestions: 'did you mean' under 'No items found', cut to the width; none, no line")
    func suggestions() {
        var state = InteractiveFixtures.searchingState(text: "phillipines", count: 0)
        state.suggestions = ["Philippines"]
        var lines = render(state)
        expectFits(lines, state.size)
        #expect(lines[3].hasPrefix("  No items found"))
        #expect(lines[4] == "  did you mean: Philippines?" + String(repeating: " ", count: 80 - 28))
        state.suggestions = ["iPhone", "iPhone 11", "iPhone 15 Pro", "iPhone 3G", "iPhone 4"]
        state.size = ScreenSize(rows: 8, columns: 30)
        lines = render(state)
        expectFits(lines, state.size)
        #expect(lines[4] == "  did you mean: iPhone, iPhon…")
        state.suggestions = []
        lines = render(state)
        #expect(lines[4].trimmingCharacters(in: .whitespaces).isEmpty)
    }

    @Test("No results another match mode finds: 'found with words' under 'No items found', in place of suggestions")
    func otherMatch() {
        var state = InteractiveFixtures.searchingState(text: "salvador", count: 0)
        state.otherMatch = OtherMatch(mode: .words, count: 1)
        state.suggestions = ["El Salvador"]
        var lines = render(state)
        expectFits(lines, state.size)
        #expect(lines[3].hasPrefix("  No items found"))
        #expect(lines[4] == "  found with words: 1 (Ctrl-T: match mode)" + String(repeating: " ", count: 80 - 42))
        // Above the cap, as the scope bar counts; cut to a narrow terminal.
        state.otherMatch = OtherMatch(mode: .contains, count: 10_001)
        state.size = ScreenSize(rows: 8, columns: 30)
        lines = render(state)
        expectFits(lines, state.size)
        #expect(lines[4] == "  found with contains: 10,000…")
    }

    @Test("Browse view: section headers and the index column at the right edge")
    func browseView() {
        let state = InteractiveFixtures.browsingState()
        let screen = InteractiveRenderer.render(state, rows: InteractiveFixtures.rows(for: state))
        let lines = screen.plainLines
        expectFits(lines, state.size)
        #expect(screen.cursor == nil)
        #expect(lines[0].hasPrefix(" Search countries: press / to search "))
        #expect(lines[3].hasPrefix(" A "))
        #expect(lines[4].hasPrefix("> Country 0 "))
        #expect(lines[20].hasPrefix(" B "))
        #expect(lines[22].hasPrefix(" 66 countries in 6 sections"))
        #expect(lines[23].contains("/ search") && lines[23].contains("q quit"))
        // Every title fits (6 ≤ 19 lines): one a line, at column 80, from the first list line.
        let index = lines[3..<9].map { String($0.last!) }
        #expect(index == ["A", "B", "C", "D", "Y", "Z"])
        #expect(lines[3..<9].allSatisfy { DisplayWidth.of($0) == 80 })
        #expect(lines[9].hasSuffix("  "))
    }

    @Test("Too many titles for the lines: titles spread evenly with • for skipped letters, first, last and current kept")
    func sampledIndex() {
        let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { (String(UnicodeScalar($0)), 3) }
        var state = InteractiveState(entity: .countries, scopes: ScopeChoice.countryScopes)
        state.apply(InteractiveFixtures.browseLayout(letters))
        state.resize(ScreenSize(rows: 15, columns: 40))  // 10 list lines for 26 titles
        for section in [0, 2, 13, 24, 25] {
            state.jump(toSection: section)
            let spans = InteractiveRenderer.indexColumn(state)
            let entries = spans.map(\.text).filter { $0 != " " }
            #expect(spans.count == 10)
            #expect(entries.count <= 10 && entries.count >= 8, "\(entries)")
            #expect(entries.first == "A" && entries.last == "Z", "\(entries)")
            let titles = entries.filter { $0 != "•" }
            #expect(titles == titles.sorted(), "\(entries)")
            // A bullet stands exactly where letters were skipped, between two titles.
            for (index, entry) in entries.enumerated() {
                if entry == "•" {
                    let before = letters.firstIndex { $0.0 == entries[index - 1] }!
                    let after = letters.firstIndex { $0.0 == entries[index + 1] }!
                    #expect(after - before > 1, "\(entries)")
                } else if index + 1 < entries.count, entries[index + 1] != "•" {
                    let here = letters.firstIndex { $0.0 == entry }!
                    let next = letters.firstIndex { $0.0 == entries[index + 1] }!
                    #expect(next == here + 1, "adjacent titles without a bullet skip nothing: \(entries)")
                }
            }
            #expect(entries.contains("•"))
            let current = letters[section].0
            #expect(spans.contains { $0.text == current && $0.style == .currentIndex }, "\(current) in \(entries)")
        }
    }

    @Test("The first list line is the pinned header of the first row shown")
    func pinnedHeader() {
        var state = InteractiveFixtures.browsingState()
        // At the end of section B (rows 16…35), the B header scrolled away: the top line
        // shows "B" in place of the first row shown (row 17).
        state.select(35)
        let lines = render(state)
        #expect(state.scrollTop == state.list.displayLine(ofRecord: 17))
        #expect(lines[3].hasPrefix(" B "), "\(lines[3])")
        #expect(!lines.contains { $0.hasPrefix("  Country 17 ") })
        #expect(lines[4].hasPrefix("  Country 18 "))
        #expect(lines.contains { $0.hasPrefix("> Country 35 ") })
        // Scrolling up row by row keeps a header on top and the selection below it.
        for position in stride(from: 30, through: 0, by: -1) {
            state.select(position)
            let lines = render(state)
            #expect(lines[3].hasPrefix(" A ") || lines[3].hasPrefix(" B "), "\(position): \(lines[3])")
            #expect(!lines[3].hasPrefix(">"), "\(position)")
        }
    }

    @Test("Matches are highlighted, alias notes dimmed; both plain without colours")
    func highlighting() {
        var state = InteractiveFixtures.searchingState(text: "ivo", count: 2)
        state.selection = 1
        var cote = ListCell(highlighting: "Côte d'Ivoire", matching: "ivo", mode: .contains)
        #expect(cote.hasMatch)
        var ivory = ListCell(highlighting: "Côte d'Ivoire", matching: "ivory", mode: .prefix)
        #expect(!ivory.hasMatch)
        ivory.appendNote(ListCell(highlighting: "Ivory Coast", matching: "ivory", mode: .prefix))
        cote.appendNote(ListCell("x"))
        let rows = [0: ListRow(id: 1, cells: [ivory, ListCell("Yamoussoukro")]), 1: ListRow(id: 2, cells: [cote, ListCell("—")])]
        let screen = InteractiveRenderer.render(state, rows: rows)
        #expect(screen.plainLines[3].hasPrefix("  Côte d'Ivoire — Ivory Coast "))
        let first = screen.lines[3].spans
        #expect(first.contains { $0.text == "Ivory" && $0.style == .match })
        #expect(first.contains { $0.text == " Coast" && $0.style == .note })
        #expect(first.contains { $0.text == " — " && $0.style == .note })
        let selected = screen.lines[4].spans
        #expect(selected.contains { $0.text == "Ivo" && $0.style == .selectedMatch })
        #expect(selected.allSatisfy { [.selected, .selectedMatch, .selectedNote].contains($0.style) })
        // The frame: bold yellow matches with colours; without colours, nothing marks them.
        let coloured = screen.ansiFrame(colours: true, columns: 80)
        #expect(coloured.contains("\u{1B}[1;33mIvory\u{1B}[0m"))
        let plain = screen.ansiFrame(colours: false, columns: 80)
        #expect(plain.contains("Côte d'Ivoire — Ivory Coast"))
        #expect(!plain.contains("\u{1B}[1;33m") && !plain.contains("\u{1B}[2m"))
    }

    @Test("The scope bar shows each scope's count, grouped")
    func scopeCounts() {
        var state = InteractiveFixtures.searchingState(text: "co", count: 15)
        state.scopeCounts = [15, 4]
        #expect(InteractiveRenderer.scopeBar(state).text == " Scope: [Name 15] · Capital 4")
        state.scopeCounts = [1_234, 0]
        #expect(InteractiveRenderer.scopeBar(state).text == " Scope: [Name 1,234] · Capital 0")
        var browsing = InteractiveFixtures.browsingState()  // browsing counts exactly
        browsing.scopeCounts = [1_234_567, 0]
        #expect(InteractiveRenderer.scopeBar(browsing).text == " Scope: [Name 1,234,567] · Capital 0")
        state.scopeCounts = [1]  // stale (another entity's): not shown
        #expect(InteractiveRenderer.scopeBar(state).text == " Scope: [Name] · Capital")
        state.scopeCounts = [InteractiveCounts.cap + 1, InteractiveCounts.cap]  // counted up to the cap
        #expect(InteractiveRenderer.scopeBar(state).text == " Scope: [Name 10,000+] · Capital 10,000")
    }

    @Test("A search counted up to the cap says so: More than 10,000 items found, 1 of more than 10,000")
    func cappedSearch() {
        var state = InteractiveFixtures.searchingState(text: "a", count: 0)
        var layout = InteractiveFixtures.searchLayout(count: InteractiveCounts.cap)
        layout.summary = "More than 10,000 items found"
        layout.isCountExact = false
        state.apply(layout, selecting: 0)
        let status = InteractiveRenderer.statusLine(state).text
        #expect(status.hasPrefix(" More than 10,000 items found"), "\(status)")
        #expect(status.hasSuffix("1 of more than 10,000 "), "\(status)")
        state.apply(InteractiveFixtures.searchLayout(count: 15), selecting: 2)
        #expect(InteractiveRenderer.statusLine(state).text.hasSuffix("3 of 15 "))
    }

    @Test("The help overlay lists every key and closes on any key")
    func helpOverlay() {
        var state = InteractiveFixtures.browsingState()
        #expect(state.handle(.character("?")) == .render)
        #expect(state.showsHelp)
        let lines = render(state)
        expectFits(lines, state.size)
        #expect(lines[0] == " Keys")
        for key in ["/", "Tab, Shift-Tab", "^T", "^E", "Enter", "Esc", "?, F1", "^C, ^D, F10", "q"] {
            #expect(lines.contains { $0.hasPrefix(" " + key + " ") }, "\(key)")
        }
        #expect(lines[23].contains("any key"))
        #expect(state.handle(.down) == .render)
        #expect(!state.showsHelp)
        #expect(state.selection == 0)
        // While searching, ? is typed; F1 opens the help.
        var search = InteractiveFixtures.searchingState(text: "co")
        #expect(search.handle(.character("?")) == .reload(keepSelection: false))
        #expect(search.searchText == "co?")
        #expect(search.handle(.function(1)) == .render)
        #expect(search.showsHelp)
    }

    @Test("Long names are cut by display width with an ellipsis; columns stay aligned")
    func truncation() {
        let state = InteractiveFixtures.searchingState(text: "", count: 3)
        let names = ["South Georgia and the South Sandwich Islands, a very long territory name indeed",
                     "東京都東京都東京都東京都東京都東京都東京都東京都東京都東京都東京都",
                     "Côte d'Ivoire"]
        let lines = render(state, names: names)
        expectFits(lines, state.size)
        #expect(lines[3].contains("…"))
        #expect(lines[4].contains("…"))
        // The capital column starts in the same cell on every row.
        let starts = lines[3...5].map { line -> Int in
            let prefix = line.components(separatedBy: "Capital ").first!
            return DisplayWidth.of(prefix)
        }
        #expect(Set(starts).count == 1, "\(starts)")
    }

    @Test("Fits every size from 30×8; smaller terminals get a note", arguments: [
        ScreenSize(rows: 8, columns: 30), ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 50, columns: 200),
        ScreenSize(rows: 16, columns: 60), ScreenSize(rows: 5, columns: 20),
    ])
    func sizes(size: ScreenSize) {
        var browse = InteractiveFixtures.browsingState()
        browse.resize(size)
        expectFits(render(browse), size)
        var search = InteractiveFixtures.searchingState(text: String(repeating: "long text ", count: 30))
        search.resize(size)
        expectFits(render(search), size)
        search.detail = DetailContent(title: "Colombia", lines: ["Capital          Bogotá", String(repeating: "x", count: 300)])
        expectFits(render(search), size)
        if size.columns < 30 {
            #expect(render(browse)[0] == "Terminal too small")
        }
    }

    @Test("The help line keeps quit when it must drop keys")
    func narrowHelp() {
        let line = InteractiveRenderer.helpLine(InteractiveRenderer.keyHints(InteractiveFixtures.searchingState(text: "co")), width: 40)
        #expect(line.width <= 41)
        #expect(line.text.contains("^C quit"))
        #expect(line.text.hasPrefix(" Esc browse"))
    }

    @Test("The scope bar scrolls to keep the selected scope visible")
    func scopeBar() {
        var state = InteractiveState(
            entity: .products,
            scopes: ScopeChoice.productScopes(types: ["birthdays", "desktop", "device", "funerals", "portable", "weddings"]))
        state.size = ScreenSize(rows: 24, columns: 40)
        state.scopeIndex = 6
        let bar = InteractiveRenderer.scopeBar(state).truncated(to: 40).text
        #expect(bar.contains("[Weddings]"))
        #expect(bar.contains("‹"))
        state.scopeIndex = 0
        #expect(InteractiveRenderer.scopeBar(state).text.hasPrefix(" Scope: [All] · Birthdays · Desktop"))
    }

    @Test("Detail view: title, rule, the lines, position, keys")
    func detailView() {
        var state = InteractiveFixtures.searchingState(text: "colombia", count: 1)
        state.detail = DetailContent(title: "Colombia", lines: ["Republic of Colombia", "", "Capital          Bogotá"])
        let lines = render(state)
        expectFits(lines, state.size)
        #expect(lines[0] == " Colombia")
        #expect(lines[1].allSatisfy { $0 == "─" })
        #expect(lines[2] == " Republic of Colombia")
        #expect(lines[4] == " Capital          Bogotá")
        #expect(lines[22].hasPrefix(" 1 of 1"))
        #expect(lines[23].contains("Esc back"))
    }

    @Test("Control characters in data are shown as �, never sent to the terminal")
    func hostileData() {
        let state = InteractiveFixtures.searchingState(text: "x\u{1B}", count: 1)
        let screen = InteractiveRenderer.render(state, rows: [0: ListRow(id: 1, cells: ["Evil\u{1B}[2J\nName", "\u{07}"])])
        let frame = screen.ansiFrame(colours: false, columns: 80)
        #expect(!frame.contains("\u{1B}[2J"))
        #expect(!frame.contains("\n") && !frame.contains("\u{07}"))
        #expect(screen.plainLines[3].hasPrefix("> Evil\u{FFFD}[2J\u{FFFD}Name"))
    }
}
