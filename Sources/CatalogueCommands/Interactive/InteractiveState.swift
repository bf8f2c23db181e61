import CatalogueKit

/// Everything the interactive screen shows, as a value: the mode, the search text, the match
/// mode, the scope and its counts, the list's shape, the selection and the scroll position. Keys change it through
/// ``handle(_:)``, which returns the ``InteractiveEffect`` the run loop performs (reload the
/// list, open the detail view, quit). No terminal and no database here, so it is unit-tested
/// directly.
///
/// ```swift
/// var state = InteractiveState(entity: .countries, scopes: source.scopes)
/// state.handle(.character("/"))  // .reload(keepSelection: false), mode == .search
/// state.handle(.character("c"))  // .reload(keepSelection: false), searchText == "c"
/// ```
struct InteractiveState: Equatable, Sendable {
    /// Browse the sectioned list, or search.
    enum Mode: String, Codable, Sendable {
        case browse
        case search
    }

    var entity: CatalogueEntity
    /// The scope bar's choices; ``scopeIndex`` is the selected one.
    var scopes: [ScopeChoice]
    var scopeIndex = 0
    var mode = Mode.browse
    /// The search field's text (kept while browsing, for the next search and for saving), at
    /// most ``maximumSearchLength`` Unicode scalars.
    var searchText = ""
    /// Whether a bracketed paste is arriving: its text goes into the search field, whatever
    /// its characters would do as keys.
    var isPasting = false
    /// Whether the paste's last key was a line break or tab, which becomes one space before
    /// its next character (so a pasted line's own line break adds nothing).
    var pasteHasPendingBreak = false
    /// How the search text matches (Ctrl-T cycles it).
    var matchMode = MatchMode.prefix
    /// How many records each scope has for the current text, in ``scopes`` order; nil until
    /// counted.
    var scopeCounts: [Int]?
    /// Whether the help overlay (every key) is open.
    var showsHelp = false
    /// The list's shape, set by the run loop after each reload.
    var list = ListLayout.empty
    /// Another match mode that finds a search text that found nothing, shown under "No items
    /// found" ("found with words: 1"); nil otherwise. Set by the run loop after each reload.
    var otherMatch: OtherMatch?
    /// Names close to a search text that found nothing, shown under "No items found" ("did
    /// you mean: Philippines?") when no other match mode finds it; empty otherwise. Set by the
    /// run loop after each reload.
    var suggestions: [String] = []
    /// Position of the selected record among ``ListLayout/count``.
    var selection = 0
    /// The id of the selected record, set by the run loop when it reads the rows on screen.
    var selectedID: Int64?
    /// The first display line shown.
    var scrollTop = 0
    /// The terminal's size.
    var size = ScreenSize(rows: 24, columns: 80)
    /// The detail view on top of the list, when open.
    var detail: DetailContent?
    /// The first line of the detail view shown.
    var detailScroll = 0
    /// Why the last read of the list failed when the database did not answer (a PostgreSQL
    /// server down or restarting), shown on the status line until a read succeeds; nil
    /// otherwise.
    var databaseProblem: String?

    init(entity: CatalogueEntity, scopes: [ScopeChoice]) {
        self.entity = entity
        self.scopes = scopes.isEmpty ? [ScopeChoice(title: "All", key: "all")] : scopes
    }

    /// The selected scope.
    var scope: ScopeChoice { scopes[scopeIndex] }

    /// Whether the search field is active.
    var isSearching: Bool { mode == .search }

    /// The longest search text, in Unicode scalars: what `catalogue serve` and its search page
    /// accept. Typing or pasting past it adds nothing.
    static let maximumSearchLength = 256

    /// Lines the screen keeps for the search field, scope bar, column header, status and help.
    static let chromeLines = 5

    /// Display lines of the list on screen.
    var listHeight: Int { max(1, size.rows - Self.chromeLines) }

    /// Records a PgUp/PgDn moves.
    var pageStep: Int { max(1, listHeight - 1) }

    // MARK: - Applying data

    /// Takes a reloaded list: selects `position` (nil: keep the current position), clamped to
    /// the list, and scrolls it into view (a newly selected position a third of the way down).
    mutating func apply(_ layout: ListLayout, selecting position: Int? = nil) {
        list = layout
        if let position { selection = position }
        selection = min(max(0, selection), max(0, layout.count - 1))
        if layout.count == 0 {
            selectedID = nil
        } else if position != nil {
            scrollTop = max(0, layout.displayLine(ofRecord: selection) - listHeight / 3)
        }
        scrollSelectionIntoView()
    }

    /// Takes a new terminal size and keeps the selection in view.
    mutating func resize(_ newSize: ScreenSize) {
        size = newSize
        scrollSelectionIntoView()
        detailScroll = min(detailScroll, maxDetailScroll)
    }

    // MARK: - Selection and scrolling

    /// Selects record `position` (clamped) and scrolls it into view.
    mutating func select(_ position: Int) {
        guard list.count > 0 else { return }
        selection = min(max(0, position), list.count - 1)
        scrollSelectionIntoView()
    }

    /// Scrolls so the selected row is on screen. In a sectioned list the top line is always a
    /// section header (the pinned header of the first row shown, or a real one), so the
    /// selected row stays at least one line below it.
    mutating func scrollSelectionIntoView() {
        guard list.count > 0 else {
            scrollTop = 0
            return
        }
        let line = list.displayLine(ofRecord: selection)
        // The line above a record is its section's header or a record of the same section.
        let top = list.isSectioned ? line - 1 : line
        if top < scrollTop {
            scrollTop = top
        } else if line >= scrollTop + listHeight {
            scrollTop = line - listHeight + 1
        }
        clampScroll()
    }

    /// Keeps the scroll position inside the list.
    mutating func clampScroll() {
        scrollTop = min(max(0, scrollTop), max(0, list.totalLines - listHeight))
    }

    /// Jumps to section `section`: selects its first record and puts its header at the top.
    mutating func jump(toSection section: Int) {
        guard list.sections.indices.contains(section) else { return }
        selection = list.sections[section].offset
        scrollTop = list.headerLine(ofSection: section)
        clampScroll()
    }

    /// Lines of the detail view on screen (below its title and rule, above status and help).
    var detailHeight: Int { max(1, size.rows - 4) }

    /// The last useful detail scroll position.
    var maxDetailScroll: Int {
        max(0, (detail?.lines.count ?? 0) - detailHeight)
    }
}

/// The size of a terminal, in cells.
struct ScreenSize: Equatable, Sendable {
    var rows: Int
    var columns: Int
}

/// One choice of the scope bar: its title ("Capital") and the scope it stands for ("capital",
/// a product type, "all").
struct ScopeChoice: Equatable, Sendable {
    var title: String
    var key: String

    init(title: String, key: String) {
        self.title = title
        self.key = key
    }

    /// The choice of a search scope.
    init(_ scope: SearchScope) {
        self.init(title: scope.title, key: scope.key)
    }
}

/// A match mode that finds what the one chosen did not, and how many records it finds (counted
/// up to ``InteractiveCounts/cap``, as the scope bar's counts).
struct OtherMatch: Equatable, Sendable {
    var mode: MatchMode
    var count: Int
}

/// The detail view of one record: a title and labelled lines.
struct DetailContent: Equatable, Sendable {
    var title: String
    var lines: [String]
}
