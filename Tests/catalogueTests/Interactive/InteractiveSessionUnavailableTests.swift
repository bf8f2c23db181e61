import CatalogueKit
import Foundation
import Testing
@testable import CatalogueCommands

/// The run loop (``InteractiveSession``) while the database does not answer (a PostgreSQL
/// server that is down or restarting): the session goes on with the list it had, the status
/// line says why, and the next key reads again. Driven by scripted key batches over a source
/// that fails, as the PostgreSQL engine does, while an outage lasts.
@Suite("Interactive session: a database that does not answer for a while")
struct InteractiveSessionUnavailableTests {
    /// What the PostgreSQL engine throws when its server is down.
    struct Unreachable: DatabaseAvailabilityError, CustomStringConvertible {
        var isDatabaseUnavailable: Bool { true }
        var description: String { "cannot connect to postgres://app@db/c: connection refused (is the server running?)" }
    }

    /// Any other failure.
    struct Broken: Error {}

    /// A terminal that runs each batch's action (starting or ending an outage), then hands
    /// out its events; then Ctrl-C. Keeps the frames it was given.
    final class ScriptedTerminal: InteractiveTerminal {
        private var batches: [(action: () -> Void, events: [Terminal.Event])]
        private(set) var frames: [String] = []

        init(_ batches: [(action: () -> Void, events: [Terminal.Event])]) {
            self.batches = batches
        }

        func enter() throws {}
        func leave() {}
        var size: ScreenSize { ScreenSize(rows: 24, columns: 200) }
        func nextEvents() throws -> [Terminal.Event] {
            guard !batches.isEmpty else { return [.key(.interrupt)] }
            let batch = batches.removeFirst()
            batch.action()
            return batch.events
        }
        func suspend() throws {}
        func reapplyRawMode() throws {}
        func write(_ text: String) { frames.append(text) }
    }

    /// What every source throws while it is set: the outage, shared by the sources made
    /// before it began and after.
    final class Outage {
        var failure: (any Error)?
    }

    /// The real source of an entity, throwing the outage's failure from every read while it
    /// lasts.
    final class OutageSource: InteractiveDataSource {
        let wrapped: any InteractiveDataSource
        let outage: Outage

        init(_ wrapped: any InteractiveDataSource, outage: Outage) {
            self.wrapped = wrapped
            self.outage = outage
        }

        var entity: CatalogueEntity { wrapped.entity }
        var scopes: [ScopeChoice] { wrapped.scopes }

        private func check() throws {
            if let failure = outage.failure { throw failure }
        }

        func load(mode: InteractiveState.Mode, text: String, match: MatchMode, scope: ScopeChoice, locating id: Int64?) throws
            -> (layout: ListLayout, position: Int?) {
            try check()
            return try wrapped.load(mode: mode, text: text, match: match, scope: scope, locating: id)
        }

        func scopeCounts(mode: InteractiveState.Mode, text: String, match: MatchMode) throws -> [Int] {
            try check()
            return try wrapped.scopeCounts(mode: mode, text: text, match: match)
        }

        func otherMatch(text: String, match: MatchMode, scope: ScopeChoice) throws -> OtherMatch? {
            try check()
            return try wrapped.otherMatch(text: text, match: match, scope: scope)
        }

        func suggestions(text: String, scope: ScopeChoice) throws -> [String] {
            try check()
            return try wrapped.suggestions(text: text, scope: scope)
        }

        func rows(_ positions: Range<Int>) throws -> [Int: ListRow] {
            try check()
            return try wrapped.rows(positions)
        }

        func detail(at position: Int, width: Int) throws -> DetailContent? {
            try check()
            return try wrapped.detail(at: position, width: width)
        }
    }

    static let catalogue: Catalogue = {
        try! Catalogue(path: InteractiveScratchFiles.path("session-unavailable.sqlite"))
    }()

    /// A countries session over `batches`, each with an action that starts or ends the
    /// outage; returns the session, how `run()` ended, and the frames drawn.
    func run(_ batches: [(action: (Outage) -> Void, events: [Terminal.Event])]) throws
        -> (session: InteractiveSession, outcome: Result<InteractiveSession.Outcome, any Error>, frames: [String]) {
        let outage = Outage()
        let interactiveSources = InteractiveSources(catalogue: Self.catalogue) { entity in
            OutageSource(try InteractiveSources.source(for: entity, catalogue: Self.catalogue), outage: outage)
        }
        let terminal = ScriptedTerminal(batches.map { batch in
            (action: { batch.action(outage) }, events: batch.events)
        })
        let session = try InteractiveSession(terminal: terminal, sources: interactiveSources, entity: .countries, colours: false)
        let outcome = Result { try session.run() }
        return (session, outcome, terminal.frames)
    }

    static func typed(_ text: String) -> [Terminal.Event] {
        text.map { .key(.character($0)) }
    }

    static func unchanged(_: Outage) {}
    static func outage(_ outage: Outage) { outage.failure = Unreachable() }
    static func recovery(_ outage: Outage) { outage.failure = nil }

    @Test("Typing while the database does not answer keeps the list and the text, says why, and reads again at the next key")
    func typingThroughAnOutage() throws {
        let (session, outcome, frames) = try run([
            (Self.unchanged, Self.typed("/")),
            (Self.unchanged, Self.typed("col")),
            (Self.outage, Self.typed("o")),
            (Self.unchanged, [.key(.down)]),
            (Self.recovery, Self.typed("m")),
        ])
        #expect(try outcome.get() == .quit)
        #expect(session.state.searchText == "colom")
        #expect(session.state.databaseProblem == nil)
        let expected = try Self.catalogue.search(CatalogueSearch.countries(matching: "colom"), limit: nil)
        #expect(session.state.list.count == expected.totalCount)
        #expect(session.state.selectedID == expected.records.first?.id)
        // Frames: the start, "/", "col", "o" (outage), ↓ (outage), "m".
        #expect(frames.count == 6)
        let status = " \(InteractiveRenderer.unavailableLabel) \(Unreachable())"
        #expect(frames[3].contains(status), "\(frames[3])")
        #expect(frames[4].contains(status), "\(frames[4])")
        #expect(!frames[5].contains(InteractiveRenderer.unavailableLabel))
        // During the outage the list of "col" stayed on screen, with the text typed since.
        #expect(frames[3].contains("Bogotá"))
        #expect(frames[3].contains("colo"))
    }

    @Test("Opening a record, or another entity, while the database does not answer stays on the list and says why")
    func detailAndEntityDuringAnOutage() throws {
        let (session, outcome, frames) = try run([
            (Self.unchanged, Self.typed("/") + Self.typed("col")),
            (Self.outage, [.key(.enter)]),
            (Self.unchanged, [.key(.control("e"))]),
        ])
        #expect(try outcome.get() == .quit)
        #expect(session.state.detail == nil)
        #expect(session.state.entity == .countries)
        #expect(session.state.searchText == "col")
        #expect(session.state.databaseProblem == "\(Unreachable())")
        // Frames: the start, "/col", Enter (outage), Ctrl-E (outage): each on the list of "col".
        #expect(frames.count == 4)
        for frame in frames[2...] {
            #expect(frame.contains(InteractiveRenderer.unavailableLabel), "\(frame)")
            #expect(frame.contains("Search countries:") && frame.contains("Bogotá"), "\(frame)")
        }
    }

    @Test("Any other error still ends the session with it")
    func otherErrorsEndTheSession() throws {
        let (_, outcome, _) = try run([
            (Self.unchanged, Self.typed("/")),
            ({ $0.failure = Broken() }, Self.typed("x")),
        ])
        #expect(throws: Broken.self) { try outcome.get() }
    }
}
