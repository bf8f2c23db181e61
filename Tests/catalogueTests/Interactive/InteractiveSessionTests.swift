import CatalogueKit
import Foundation
import Testing
@testable import CatalogueCommands

/// The run loop (``InteractiveSession``) driven by scripted key batches: a batch of search
/// text (a paste, or keys typed faster than a search) is searched once, and the rows on screen
/// are read once per change.
@Suite("Interactive session: one search per batch of typed text")
struct InteractiveSessionTests {
    /// A terminal that hands out scripted batches of events, then Ctrl-C.
    final class ScriptedTerminal: InteractiveTerminal {
        private var batches: [[Terminal.Event]]
        private(set) var frames = 0

        init(_ batches: [[Terminal.Event]]) {
            self.batches = batches
        }

        func enter() throws {}
        func leave() {}
        var size: ScreenSize { ScreenSize(rows: 24, columns: 80) }
        func nextEvents() throws -> [Terminal.Event] {
            batches.isEmpty ? [.key(.interrupt)] : batches.removeFirst()
        }
        func suspend() throws {}
        func reapplyRawMode() throws {}
        func write(_ text: String) { frames += 1 }
    }

    /// The real source of an entity, counting what the session asks of it.
    final class CountingSource: InteractiveDataSource {
        let wrapped: any InteractiveDataSource
        private(set) var loadedTexts: [String] = []
        private(set) var rowReads = 0
        private(set) var suggestedTexts: [String] = []
        private(set) var otherMatchTexts: [String] = []

        init(_ wrapped: any InteractiveDataSource) {
            self.wrapped = wrapped
        }

        var entity: CatalogueEntity { wrapped.entity }
        var scopes: [ScopeChoice] { wrapped.scopes }

        func load(mode: InteractiveState.Mode, text: String, match: MatchMode, scope: ScopeChoice, locating id: Int64?) throws
            -> (layout: ListLayout, position: Int?) {
            loadedTexts.append(text)
            return try wrapped.load(mode: mode, text: text, match: match, scope: scope, locating: id)
        }

        func scopeCounts(mode: InteractiveState.Mode, text: String, match: MatchMode) throws -> [Int] {
            try wrapped.scopeCounts(mode: mode, text: text, match: match)
        }

        func otherMatch(text: String, match: MatchMode, scope: ScopeChoice) throws -> OtherMatch? {
            otherMatchTexts.append(text)
            return try wrapped.otherMatch(text: text, match: match, scope: scope)
        }

        func suggestions(text: String, scope: ScopeChoice) throws -> [String] {
            suggestedTexts.append(text)
            return try wrapped.suggestions(text: text, scope: scope)
        }

        func rows(_ positions: Range<Int>) throws -> [Int: ListRow] {
            rowReads += 1
            return try wrapped.rows(positions)
        }

        func detail(at position: Int, width: Int) throws -> DetailContent? {
            try wrapped.detail(at: position, width: width)
        }
    }

    static let catalogue: Catalogue = {
        try! Catalogue(path: InteractiveScratchFiles.path("session.sqlite"))
    }()

    /// Runs a countries session over `batches` and returns it with its counting source.
    func run(_ batches: [[Terminal.Event]]) throws -> (session: InteractiveSession, source: CountingSource, terminal: ScriptedTerminal) {
        var counting: CountingSource?
        let sources = InteractiveSources(catalogue: Self.catalogue) { entity in
            let source = CountingSource(try InteractiveSources.source(for: entity, catalogue: Self.catalogue))
            counting = source
            return source
        }
        let terminal = ScriptedTerminal(batches)
        let session = try InteractiveSession(terminal: terminal, sources: sources, entity: .countries, colours: false)
        #expect(try session.run() == .quit)
        return (session, try #require(counting), terminal)
    }

    static func typed(_ text: String) -> [Terminal.Event] {
        text.map { .key(.character($0)) }
    }

    @Test("A pasted \"cong\" is one search, and the rows on screen are read once per change")
    func pasteSearchesOnce() throws {
        let (session, source, terminal) = try run([Self.typed("/"), Self.typed("cong"), [.key(.down)]])
        // The browse list, the empty search "/" starts, then "cong" once (not c, co, con, cong).
        #expect(source.loadedTexts == ["", "", "cong"])
        // Once per load, and once for ↓ (which scrolls nothing but selects the next row).
        #expect(source.rowReads == 4)
        #expect(session.state.searchText == "cong")
        #expect(session.state.selection == 1)
        let expected = try Self.catalogue.search(CatalogueSearch.countries(matching: "cong"), limit: nil)
        #expect(expected.records.count >= 2, "Congo and the Democratic Republic of the Congo")
        #expect(session.state.list.count == expected.totalCount)
        #expect(session.state.selectedID == expected.records[1].id)
        #expect(terminal.frames == 4, "a frame at the start and after each batch")
    }

    @Test("A key that needs the list searches the text typed before it first; text after it is searched at the batch's end")
    func keyNeedingTheList() throws {
        let (session, source, _) = try run([Self.typed("/"), Self.typed("co") + [.key(.down)] + Self.typed("l")])
        #expect(source.loadedTexts == ["", "", "co", "col"])
        #expect(session.state.searchText == "col")
        // A new search text starts at the top result.
        #expect(session.state.selection == 0)
    }

    @Test("Backspace, Ctrl-U and Ctrl-W in a batch are edits too: one search for the batch's result")
    func editsInABatch() throws {
        let batch = Self.typed("united kin") + [.key(.control("w")), .key(.backspace)] + Self.typed("zz") + [.key(.control("u"))]
            + Self.typed("bog")
        let (session, source, _) = try run([Self.typed("/"), batch])
        #expect(source.loadedTexts == ["", "", "bog"])
        #expect(session.state.searchText == "bog")
    }

    static func pasted(_ text: String) -> [Terminal.Event] {
        [.key(.pasteStart)] + text.map { $0 == "\n" ? .key(.enter) : .key(.character($0)) } + [.key(.pasteEnd)]
    }

    @Test("A paste while browsing is one search for its text, split across reads or not; its q and / are text")
    func pasteWhileBrowsing() throws {
        let (session, source, _) = try run([Self.pasted("quito\n")])
        #expect(source.loadedTexts == ["", "quito"])
        #expect(session.state.isSearching && session.state.searchText == "quito")
        #expect(session.state.list.count == 0)
        let split = try run([[.key(.pasteStart)] + Self.typed("bog"), Self.typed("/ot"), Self.typed("á") + [.key(.pasteEnd)]])
        #expect(split.session.state.searchText == "bog/otá")
        #expect(split.source.loadedTexts == ["", "bog", "bog/ot", "bog/otá"])
    }

    @Test("A 200,000-character paste searches its first 256 characters once")
    func hugePaste() throws {
        let text = String(repeating: "colombia ", count: 22_223)
        #expect(text.count > 200_000)
        let (session, source, _) = try run([Self.pasted(text)])
        #expect(session.state.searchText == String(text.prefix(InteractiveState.maximumSearchLength)))
        #expect(source.loadedTexts.count == 2)
    }

    @Test("Letters and arrows in one batch while browsing read the rows on screen once, not once per key")
    func burstWhileBrowsing() throws {
        let letters = String(repeating: "bcdefghijklmnoprstuvwxyz", count: 5_000)
        let (session, source, terminal) = try run([Self.typed(letters) + [.key(.down)]])
        // The browse list's load, then one read for the batch.
        #expect(source.rowReads == 2)
        #expect(terminal.frames == 2)
        #expect(!session.state.isSearching)
        // The last letter jumped to Z, then ↓; the selected record's id is that row's.
        let zSection = try #require(session.state.list.jumpTable["Z"])
        let selection = session.state.selection
        #expect(selection == session.state.list.sections[zSection].offset + 1)
        let row = try #require(source.wrapped.rows(selection..<(selection + 1))[selection])
        #expect(session.state.selectedID == row.id)
    }

    @Test("A search that finds nothing asks for suggestions, once per text; one that finds something does not")
    func suggestionsWhenNothingIsFound() throws {
        let (session, source, _) = try run([Self.typed("/"), Self.typed("phillipines")])
        #expect(session.state.list.count == 0)
        #expect(session.state.suggestions == ["Philippines"])
        #expect(source.suggestedTexts == ["phillipines"])
        let found = try run([Self.typed("/"), Self.typed("phil")])
        #expect(found.session.state.suggestions.isEmpty)
        #expect(found.source.suggestedTexts.isEmpty)
        // Browsing never suggests, whatever text is kept for the next search.
        let browsing = try run([Self.typed("/"), Self.typed("zzqq"), [.key(.escape)]])
        #expect(browsing.session.state.mode == .browse)
        #expect(browsing.session.state.suggestions.isEmpty)
    }

    @Test("A search that finds nothing names the match mode that finds it, instead of suggesting names; Ctrl-T gets there")
    func otherMatchWhenNothingIsFound() throws {
        // No country name starts with salvador; a word of El Salvador does.
        let (session, source, _) = try run([Self.typed("/"), Self.typed("salvador")])
        #expect(session.state.list.count == 0)
        #expect(session.state.otherMatch == OtherMatch(mode: .words, count: 1))
        #expect(session.state.suggestions.isEmpty)
        #expect(source.suggestedTexts.isEmpty)
        #expect(source.otherMatchTexts == ["salvador"])
        // Inside a word only: contains. Ctrl-T twice (prefix → contains → words) finds it in words.
        let inside = try run([Self.typed("/"), Self.typed("lvador")])
        #expect(inside.session.state.otherMatch == OtherMatch(mode: .contains, count: 1))
        let switched = try run([Self.typed("/"), Self.typed("salvador"), [.key(.control("t")), .key(.control("t"))]])
        #expect(switched.session.state.matchMode == .words)
        #expect(switched.session.state.list.count == 1)
        #expect(switched.session.state.otherMatch == nil)
        // Found by no mode: the names close to it, as before; found: neither is asked for.
        let typo = try run([Self.typed("/"), Self.typed("phillipines")])
        #expect(typo.session.state.otherMatch == nil)
        #expect(typo.session.state.suggestions == ["Philippines"])
        let found = try run([Self.typed("/"), Self.typed("phil")])
        #expect(found.source.otherMatchTexts.isEmpty)
    }
}
