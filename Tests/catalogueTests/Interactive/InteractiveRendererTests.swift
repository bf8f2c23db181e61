import Testing
@testable import catalogue

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
        #expect(lines[0] == " Search countries: co")
        #expect(lines[1].hasPrefix(" Scope: [Name]  Capital"))
        #expect(lines[2].hasPrefix("  Name "))
        #expect(lines[3].hasPrefix("> Colombia "))
        #expect(lines[4].hasPrefix("  Comoros "))
        #expect(lines[5].hasPrefix("  Côte d'Ivoire "))
        #expect(lines[22].hasPrefix(" 3 items found"))
        #expect(lines[22].hasSuffix("1 of 3 "))
        #expect(lines[23].contains("Esc browse") && lines[23].contains("^C quit"))
        // The cursor sits after the text in the field.
        #expect(screen.cursor?.row == 0)
        #expect(screen.cursor?.column == DisplayWidth.of(" Search countries: co"))
    }

    @Test("No results: 'No items found'")
    func noResults() {
        let lines = render(InteractiveFixtures.searchingState(text: "bog", count: 0))
        #expect(lines[3].hasPrefix("  No items found"))
        #expect(lines[22].hasPrefix(" No items found"))
    }

    @Test("Browse view: section headers and the index column at the right edge")
    func browseView() {
        let state = InteractiveFixtures.browsingState()
        let screen = InteractiveRenderer.render(state, rows: InteractiveFixtures.rows(for: state))
        let lines = screen.plainLines
        expectFits(lines, state.size)
        #expect(screen.cursor == nil)
        #expect(lines[0] == " Search countries: press / to search")
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

    @Test("Too many titles for the lines: sampled evenly, keeping first, last and the current one")
    func sampledIndex() {
        let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { (String(UnicodeScalar($0)), 3) }
        var state = InteractiveState(entity: .countries, scopes: ScopeChoice.countryScopes)
        state.apply(InteractiveFixtures.browseLayout(letters))
        state.resize(ScreenSize(rows: 15, columns: 40))  // 10 list lines for 26 titles
        for section in [0, 2, 13, 24, 25] {
            state.jump(toSection: section)
            let spans = InteractiveRenderer.indexColumn(state)
            let titles = spans.map(\.text)
            #expect(titles.count == 10)
            #expect(titles.first == "A" && titles.last == "Z")
            #expect(titles == titles.sorted(), "\(titles)")
            let current = letters[section].0
            #expect(spans.contains { $0.text == current && $0.style == .currentIndex }, "\(current) in \(titles)")
        }
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
        let line = InteractiveRenderer.helpLine(InteractiveRenderer.searchHelp, width: 40)
        #expect(line.width <= 41)
        #expect(line.text.contains("^C quit"))
        #expect(line.text.hasPrefix(" ↑↓ PgUp PgDn move"))
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
        #expect(InteractiveRenderer.scopeBar(state).text.hasPrefix(" Scope: [All]  Birthdays   Desktop"))
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
