import CatalogueKit
import Testing
@testable import CatalogueCommands

@Suite("InteractiveState: the reducer, without a terminal")
struct InteractiveStateTests {
    @Test("/ starts an empty search; typing and editing reload from the top")
    func typing() {
        var state = InteractiveFixtures.browsingState()
        state.select(30)
        #expect(state.handle(.character("/")) == .reload(keepSelection: false))
        #expect(state.isSearching && state.searchText.isEmpty)
        #expect(state.handle(.character("c")) == .reload(keepSelection: false))
        #expect(state.handle(.character("ô")) == .reload(keepSelection: false))
        #expect(state.searchText == "cô")
        #expect(state.handle(.backspace) == .reload(keepSelection: false))
        #expect(state.searchText == "c")
        _ = state.handle(.character(" "))
        _ = state.handle(.character("d"))
        #expect(state.handle(.control("w")) == .reload(keepSelection: false))
        #expect(state.searchText == "c ")
        #expect(state.handle(.control("u")) == .reload(keepSelection: false))
        #expect(state.searchText.isEmpty)
        #expect(state.handle(.backspace) == .none)
        #expect(state.handle(.control("u")) == .none)
    }

    @Test("A combining accent typed after its letter joins it")
    func combining() {
        var state = InteractiveFixtures.searchingState(text: "bogota")
        _ = state.handle(.character("\u{301}"))
        #expect(state.searchText == "bogotá")
        _ = state.handle(.backspace)
        #expect(state.searchText == "bogot")
    }

    @Test("In search mode q and letters are text; in browse mode q quits and letters jump")
    func lettersByMode() {
        var search = InteractiveFixtures.searchingState(text: "")
        #expect(search.handle(.character("q")) == .reload(keepSelection: false))
        #expect(search.searchText == "q")
        var browse = InteractiveFixtures.browsingState()
        #expect(browse.handle(.character("q")) == .quit)
        #expect(browse.handle(.character("c")) == .render)
        #expect(browse.selection == 36)
        #expect(!browse.isSearching && browse.searchText.isEmpty)
    }

    @Test("Ctrl-C, Ctrl-D and F10 quit in every mode, also over the detail view")
    func quitKeys() {
        for key in [Key.interrupt, .endOfInput, .function(10)] {
            var browse = InteractiveFixtures.browsingState()
            #expect(browse.handle(key) == .quit)
            var search = InteractiveFixtures.searchingState()
            #expect(search.handle(key) == .quit)
            search.detail = DetailContent(title: "Colombia", lines: [])
            #expect(search.handle(key) == .quit)
        }
        var state = InteractiveFixtures.browsingState()
        #expect(state.handle(.control("z")) == .suspend)
        #expect(state.handle(.control("l")) == .render)
    }

    @Test("A paste while browsing starts a search with its text; what would be keys is text")
    func pasteWhileBrowsing() {
        var state = InteractiveFixtures.browsingState()
        #expect(state.handle(.pasteStart) == .reload(keepSelection: false))
        #expect(state.isSearching && state.searchText.isEmpty && state.isPasting)
        for key in [Key.character("q"), .character("/"), .character("?"), .escape, .down, .control("u"), .backspace] {
            _ = state.handle(key)
        }
        #expect(state.searchText == "q/?")
        #expect(state.isSearching && !state.showsHelp && state.selection == 0)
        #expect(state.handle(.pasteEnd) == .none)
        #expect(!state.isPasting)
        #expect(state.handle(.backspace) == .reload(keepSelection: false))
        #expect(state.searchText == "q/")
    }

    @Test("Pasted line breaks and tabs are one space between words, nothing at the end")
    func pastedLineBreaks() {
        var state = InteractiveFixtures.searchingState(text: "")
        let keys: [Key] = [.pasteStart, .enter, .character("N"), .character("e"), .character("w"), .enter, .enter, .tab,
                           .character("Y"), .character("o"), .enter, .pasteEnd]
        for key in keys { _ = state.handle(key) }
        #expect(state.searchText == "New Yo")
        #expect(state.handle(.character("r")) == .reload(keepSelection: false))
        #expect(state.searchText == "New Yor")
    }

    @Test("A paste while searching appends; over the detail view it is ignored; it closes the help overlay")
    func pasteElsewhere() {
        var search = InteractiveFixtures.searchingState(text: "bog")
        #expect(search.handle(.pasteStart) == .none)
        #expect(search.handle(.character("o")) == .reload(keepSelection: false))
        _ = search.handle(.pasteEnd)
        #expect(search.searchText == "bogo")
        search.detail = DetailContent(title: "Colombia", lines: [])
        for key in [Key.pasteStart, .character("x"), .escape, .enter, .pasteEnd] {
            #expect(search.handle(key) == .none)
        }
        #expect(search.detail != nil && search.searchText == "bogo")
        var help = InteractiveFixtures.browsingState()
        _ = help.handle(.character("?"))
        #expect(help.showsHelp)
        #expect(help.handle(.pasteStart) == .reload(keepSelection: false))
        _ = help.handle(.character("z"))
        #expect(!help.showsHelp && help.searchText == "z")
    }

    @Test("Ctrl-C, Ctrl-D and F10 still quit inside a paste; Ctrl-Z and Ctrl-L there do nothing")
    func quitInsideAPaste() {
        for key in [Key.interrupt, .endOfInput, .function(10)] {
            var state = InteractiveFixtures.browsingState()
            _ = state.handle(.pasteStart)
            #expect(state.handle(key) == .quit)
        }
        var state = InteractiveFixtures.searchingState(text: "a")
        _ = state.handle(.pasteStart)
        #expect(state.handle(.control("z")) == .none)
        #expect(state.handle(.control("l")) == .none)
        #expect(state.searchText == "a")
    }

    @Test("The search text stops at 256 Unicode scalars, typed or pasted")
    func searchLength() {
        var state = InteractiveFixtures.searchingState(text: String(repeating: "é", count: 255))
        #expect(state.handle(.character("a")) == .reload(keepSelection: false))
        #expect(state.searchText.unicodeScalars.count == InteractiveState.maximumSearchLength)
        #expect(state.handle(.character("b")) == .none)
        // A letter with a combining accent is two scalars: it does not fit in one.
        _ = state.handle(.backspace)
        #expect(state.handle(.character("e\u{301}")) == .none)
        #expect(state.handle(.character("e")) == .reload(keepSelection: false))
        _ = state.handle(.pasteStart)
        for _ in 0..<1_000 { #expect(state.handle(.character("x")) == .none) }
        #expect(state.searchText == String(repeating: "é", count: 255) + "e")
    }

    @Test("A paste's keys need no list: the run loop searches once for the whole paste")
    func pasteEditsOnlySearchText() {
        var state = InteractiveFixtures.browsingState()
        #expect(state.editsOnlySearchText(.pasteStart))
        _ = state.handle(.pasteStart)
        for key in [Key.character("a"), .enter, .down, .escape, .pasteEnd] {
            #expect(state.editsOnlySearchText(key))
        }
        #expect(!state.editsOnlySearchText(.interrupt))
        _ = state.handle(.pasteEnd)
        #expect(!state.editsOnlySearchText(.down))
    }

    @Test("Esc ends the search, clears it and keeps the selected record")
    func escapeEndsSearch() {
        var state = InteractiveFixtures.searchingState()
        #expect(state.handle(.escape) == .reload(keepSelection: true))
        #expect(!state.isSearching && state.searchText.isEmpty)
        var browse = InteractiveFixtures.browsingState()
        #expect(browse.handle(.escape) == .none)
    }

    @Test("Tab and Shift-Tab cycle the scopes both ways, wrapping")
    func scopes() {
        var state = InteractiveState(entity: .products, scopes: ScopeChoice.productScopes(types: ["birthdays", "device"]))
        #expect(state.scopes.map(\.title) == ["All", "Birthdays", "Device"])
        #expect(state.handle(.tab) == .reload(keepSelection: true))
        #expect(state.scope.key == "birthdays")
        _ = state.handle(.tab)
        _ = state.handle(.tab)
        #expect(state.scope.key == "all")
        _ = state.handle(.shiftTab)
        #expect(state.scope.key == "device")
        // Searching too: the selected record stays selected when the new scope has it.
        state.mode = .search
        #expect(state.handle(.tab) == .reload(keepSelection: true))
        var single = InteractiveState(entity: .products, scopes: ScopeChoice.productScopes(types: []))
        #expect(single.handle(.tab) == .none)
    }

    @Test("Letters jump to their section, or the nearest following one; # to the last")
    func jumps() {
        var state = InteractiveFixtures.browsingState()
        _ = state.handle(.character("b"))
        #expect(state.selection == 16)
        #expect(state.scrollTop == state.list.headerLine(ofSection: 1))
        _ = state.handle(.character("E"))  // no E: Y
        #expect(state.selection == 63)
        _ = state.handle(.character("#"))  // no #: the last section, Z
        #expect(state.selection == 64)
        #expect(state.scrollTop == state.list.totalLines - state.listHeight)  // clamped at the end
        #expect(state.handle(.character("é")) == .none)
        #expect(state.handle(.character("1")) == .none)
    }

    @Test("Up/Down, PgUp/PgDn, Home/End move within the list; moving at an end does nothing")
    func movement() {
        var state = InteractiveFixtures.browsingState()
        #expect(state.handle(.up) == .none)
        #expect(state.handle(.down) == .render)
        #expect(state.selection == 1)
        _ = state.handle(.pageDown)
        #expect(state.selection == 1 + state.pageStep)
        _ = state.handle(.pageUp)
        #expect(state.selection == 1)
        _ = state.handle(.end)
        #expect(state.selection == 65)
        #expect(state.handle(.down) == .none)
        #expect(state.handle(.pageDown) == .none)
        _ = state.handle(.home)
        #expect(state.selection == 0 && state.scrollTop == 0)
    }

    @Test("The selection stays on screen; a section's first row brings its header")
    func scrolling() {
        var state = InteractiveFixtures.browsingState()
        for _ in 0..<17 { _ = state.handle(.down) }
        // Record 17 (B's second) is display line 19: the last visible line of 0..<19 is 18.
        #expect(state.selection == 17)
        #expect(state.scrollTop == 1)
        _ = state.handle(.up)  // B's first row: its header (line 17) stays visible
        #expect(state.scrollTop == 1)
        for _ in 0..<3 { _ = state.handle(.up) }
        #expect(state.selection == 13)
        #expect(state.scrollTop == 1)
        state.select(0)
        #expect(state.scrollTop == 0)  // the header of A
    }

    @Test("Empty lists: nothing moves, Enter does nothing")
    func emptyList() {
        var state = InteractiveFixtures.searchingState(text: "zz", count: 0)
        #expect(state.handle(.down) == .none)
        #expect(state.handle(.enter) == .none)
        #expect(state.handle(.end) == .none)
        #expect(state.selection == 0 && state.scrollTop == 0)
    }

    @Test("Enter opens the detail view; Esc, Enter or q closes it; arrows scroll it")
    func detail() {
        var state = InteractiveFixtures.searchingState()
        #expect(state.handle(.enter) == .openDetail)
        state.detail = DetailContent(title: "Colombia", lines: (0..<30).map { "line \($0)" })
        #expect(state.handle(.down) == .render)
        #expect(state.detailScroll == 1)
        _ = state.handle(.end)
        #expect(state.detailScroll == 30 - state.detailHeight)
        #expect(state.handle(.pageDown) == .none)
        #expect(state.handle(.character("x")) == .none)
        #expect(state.selection == 0)
        for key in [Key.escape, .enter, .character("q")] {
            state.detail = DetailContent(title: "Colombia", lines: [])
            #expect(state.handle(key) == .render)
            #expect(state.detail == nil && state.isSearching)
        }
    }

    @Test("apply clamps the selection and puts a located record a third of the way down")
    func apply() {
        var state = InteractiveFixtures.browsingState()
        state.select(60)
        state.apply(InteractiveFixtures.searchLayout(count: 5))
        #expect(state.selection == 4)
        state.apply(InteractiveFixtures.browseLayout([("A", 16), ("B", 20), ("C", 23)]), selecting: 40)
        #expect(state.selection == 40)
        let line = state.list.displayLine(ofRecord: 40)
        #expect(state.scrollTop == line - state.listHeight / 3)
        state.apply(InteractiveFixtures.searchLayout(count: 0), selecting: 3)
        #expect(state.selection == 0 && state.scrollTop == 0 && state.selectedID == nil)
    }

    @Test("Resizing keeps the selection visible")
    func resize() {
        var state = InteractiveFixtures.browsingState()
        state.select(18)
        state.resize(ScreenSize(rows: 10, columns: 60))
        #expect(state.listHeight == 5)
        let line = state.list.displayLine(ofRecord: 18)
        #expect((state.scrollTop..<(state.scrollTop + state.listHeight)).contains(line))
    }

    @Test("Ctrl-T cycles the match mode; a search reloads keeping the selection, browsing only redraws")
    func matchModes() {
        var state = InteractiveFixtures.searchingState(text: "ipod 2007")
        var seen: [MatchMode] = []
        for _ in 0..<5 {
            #expect(state.handle(.control("t")) == .reload(keepSelection: true))
            seen.append(state.matchMode)
        }
        #expect(seen == [.contains, .words, .terms, .fuzzy, .prefix])
        var browse = InteractiveFixtures.browsingState()
        #expect(browse.handle(.control("t")) == .render)
        #expect(browse.matchMode == .contains)
        #expect(browse.saved.matchMode == .contains)
        var restored = InteractiveState(entity: .countries, scopes: ScopeChoice.countryScopes)
        restored.restore(browse.saved)
        #expect(restored.matchMode == .contains)
        // A file from before match modes were saved restores prefix.
        restored.restore(SavedInteractiveState(searchActive: false, searchText: "", scope: "name", selectedID: nil, selectedPosition: 0))
        #expect(restored.matchMode == .prefix)
    }

    @Test("Ctrl-E asks for the other entity, in either mode")
    func entitySwitch() {
        var browse = InteractiveFixtures.browsingState()
        #expect(browse.handle(.control("e")) == .switchEntity)
        var search = InteractiveFixtures.searchingState()
        #expect(search.handle(.control("e")) == .switchEntity)
        #expect(InteractiveRenderer.nextEntity(after: .countries) == .products)
        #expect(InteractiveRenderer.nextEntity(after: .products) == .countries)
    }

    @Test("Saved state round trip: mode, text, scope, selection; unknown scope falls back")
    func savedState() {
        var state = InteractiveFixtures.searchingState(text: "bog")
        state.scopeIndex = 1
        state.select(3)
        state.selectedID = 48
        let saved = state.saved
        #expect(saved == SavedInteractiveState(
            searchActive: true, searchText: "bog", matchMode: .prefix, scope: "capital", selectedID: 48, selectedPosition: 3))
        var restored = InteractiveState(entity: .countries, scopes: ScopeChoice.countryScopes)
        restored.restore(saved)
        #expect(restored.isSearching && restored.searchText == "bog" && restored.scope.key == "capital")
        #expect(restored.selection == 3 && restored.selectedID == 48)
        var products = InteractiveState(entity: .products, scopes: ScopeChoice.productScopes(types: ["device"]))
        products.restore(SavedInteractiveState(
            searchActive: false, searchText: "", scope: "toys", selectedID: nil, selectedPosition: -2))
        #expect(products.scopeIndex == 0 && products.selection == 0)
        // A longer text than the search field takes (a file edited by hand) is cut to it.
        products.restore(SavedInteractiveState(
            searchActive: true, searchText: String(repeating: "ü", count: 10_000), scope: "all", selectedID: nil, selectedPosition: 0))
        #expect(products.searchText == String(repeating: "ü", count: InteractiveState.maximumSearchLength))
    }
}
