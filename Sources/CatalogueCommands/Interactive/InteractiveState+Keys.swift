import CatalogueKit

/// What the run loop does after a key changed the ``InteractiveState``.
enum InteractiveEffect: Equatable, Sendable {
    /// Nothing changed.
    case none
    /// The screen changed; the list's data did not.
    case render
    /// The list's request changed (search text, scope or mode): read it again. With
    /// `keepSelection`, select the same record in the new list when it is there.
    case reload(keepSelection: Bool)
    /// Open the detail view of the selected record.
    case openDetail
    /// Save the state, restore the terminal and exit.
    case quit
    /// Restore the terminal and stop the process (Ctrl-Z); redraw when continued.
    case suspend
    /// Show the next entity (Ctrl-E), with its own saved state.
    case switchEntity
}

extension InteractiveState {
    /// The keys, in one place (the help line and `--help` describe the same rules):
    ///
    /// - everywhere: Ctrl-C or Ctrl-D quit, F10 quits, Ctrl-Z suspends, Ctrl-L redraws, F1
    ///   opens the help overlay (any key closes it);
    /// - detail view: Esc, Enter, Backspace or q close it; ↑/↓/PgUp/PgDn scroll it;
    /// - lists: ↑/↓ move, PgUp/PgDn move a page, Home/End go to the first/last record,
    ///   Tab/Shift-Tab cycle the scope (the selected record stays selected when it is in the
    ///   new scope), Ctrl-T cycles the match mode, Ctrl-E switches entity, Enter opens the
    ///   detail view;
    /// - browse: `/` starts a search, a letter (or `#`) jumps to its section (the nearest
    ///   following when it has none), `?` opens the help overlay, q quits;
    /// - search: typing edits the text (Backspace, Ctrl-U clears, Ctrl-W deletes a word) and
    ///   the results follow every keystroke; Esc ends the search (clearing it) and returns to
    ///   browsing, on the record that was selected;
    /// - a bracketed paste is text, never keys: in a list it goes into the search field (while
    ///   browsing it starts a search), line breaks and tabs as spaces; it closes the help
    ///   overlay first; the detail view ignores it. Only Ctrl-C, Ctrl-D and F10 act inside a
    ///   paste (they quit).
    mutating func handle(_ key: Key) -> InteractiveEffect {
        if Self.quitKeys.contains(key) {
            return .quit
        }
        if key == .pasteStart || key == .pasteEnd || isPasting {
            return handlePaste(key)
        }
        switch key {
        case .control("z"):
            return .suspend
        case .control("l"):
            return .render
        default:
            break
        }
        if showsHelp {
            showsHelp = false
            return .render
        }
        if key == .function(1) || (key == .character("?") && !isSearching && detail == nil) {
            showsHelp = true
            return .render
        }
        if detail != nil {
            return handleDetail(key)
        }
        if let effect = handleListKey(key) {
            return effect
        }
        return isSearching ? handleSearchKey(key) : handleBrowseKey(key)
    }

    /// Whether `key` only edits the search text (typing, Backspace, Ctrl-U, Ctrl-W while
    /// searching, without the detail view or the help overlay): its reload does not depend on
    /// the list, so the run loop searches once for a batch of such keys (a paste).
    /// A paste's keys count as such edits: they need no list either.
    func editsOnlySearchText(_ key: Key) -> Bool {
        if Self.quitKeys.contains(key) { return false }
        if key == .pasteStart || key == .pasteEnd || isPasting { return true }
        guard isSearching, detail == nil, !showsHelp else { return false }
        switch key {
        case .character, .backspace, .control("u"), .control("w"): return true
        default: return false
        }
    }

    /// Ctrl-C, Ctrl-D and F10.
    private static let quitKeys: Set<Key> = [.control("c"), .control("d"), .function(10)]

    /// A bracketed paste: its start (which starts a search while browsing), its text, its end.
    private mutating func handlePaste(_ key: Key) -> InteractiveEffect {
        switch key {
        case .pasteStart:
            isPasting = true
            pasteHasPendingBreak = false
            let closedHelp = showsHelp
            showsHelp = false
            guard detail == nil, !isSearching else { return closedHelp ? .render : .none }
            mode = .search
            searchText = ""
            return .reload(keepSelection: false)
        case .pasteEnd:
            isPasting = false
            pasteHasPendingBreak = false
            return .none
        case .enter, .tab:
            pasteHasPendingBreak = true
            return .none
        case .character(let character):
            guard isSearching, detail == nil, !showsHelp else { return .none }
            var changed = false
            if pasteHasPendingBreak {
                pasteHasPendingBreak = false
                if let last = searchText.last, !last.isWhitespace, !character.isWhitespace {
                    changed = appendToSearchText(" ")
                }
            }
            if appendToSearchText(character) { changed = true }
            return changed ? .reload(keepSelection: false) : .none
        default:
            return .none
        }
    }

    /// Appends `character` unless the text would grow past ``maximumSearchLength`` scalars.
    private mutating func appendToSearchText(_ character: Character) -> Bool {
        let added = character.unicodeScalars.count
        // utf8.count is O(1) and never less than the scalar count: most texts need no count.
        if searchText.utf8.count + added > Self.maximumSearchLength,
           searchText.unicodeScalars.count + added > Self.maximumSearchLength {
            return false
        }
        searchText.append(character)
        return true
    }

    private mutating func handleDetail(_ key: Key) -> InteractiveEffect {
        switch key {
        case .escape, .enter, .backspace, .character("q"), .left:
            detail = nil
            detailScroll = 0
            return .render
        case .up: return scrollDetail(by: -1)
        case .down: return scrollDetail(by: 1)
        case .pageUp: return scrollDetail(by: -pageStep)
        case .pageDown: return scrollDetail(by: pageStep)
        case .home: return scrollDetail(by: -detailScroll)
        case .end: return scrollDetail(by: maxDetailScroll - detailScroll)
        default: return .none
        }
    }

    private mutating func scrollDetail(by delta: Int) -> InteractiveEffect {
        let scroll = min(max(0, detailScroll + delta), maxDetailScroll)
        guard scroll != detailScroll else { return .none }
        detailScroll = scroll
        return .render
    }

    /// Keys that work the same in both modes; nil for the others.
    private mutating func handleListKey(_ key: Key) -> InteractiveEffect? {
        switch key {
        case .up: return move(by: -1)
        case .down: return move(by: 1)
        case .pageUp: return move(by: -pageStep)
        case .pageDown: return move(by: pageStep)
        case .home: return move(by: -selection)
        case .end: return move(by: list.count - 1 - selection)
        case .tab: return cycleScope(by: 1)
        case .shiftTab: return cycleScope(by: -1)
        case .control("t"): return cycleMatchMode()
        case .control("e"): return .switchEntity
        case .enter: return list.count > 0 ? .openDetail : InteractiveEffect.none
        default: return nil
        }
    }

    private mutating func move(by delta: Int) -> InteractiveEffect {
        guard list.count > 0 else { return .none }
        let before = (selection, scrollTop)
        select(selection + delta)
        return before == (selection, scrollTop) ? .none : .render
    }

    private mutating func cycleScope(by delta: Int) -> InteractiveEffect {
        guard scopes.count > 1 else { return .none }
        scopeIndex = (scopeIndex + delta + scopes.count) % scopes.count
        // The selected record stays selected when the new scope has it (else: the top result
        // while searching, the same position while browsing).
        return .reload(keepSelection: true)
    }

    /// prefix → contains → words → terms → prefix. A search reloads (keeping the selected
    /// record when it is still found); browsing only shows the mode for the next search.
    private mutating func cycleMatchMode() -> InteractiveEffect {
        let modes = MatchMode.allCases
        let index = modes.firstIndex(of: matchMode) ?? 0
        matchMode = modes[(index + 1) % modes.count]
        return isSearching ? .reload(keepSelection: true) : .render
    }

    private mutating func handleSearchKey(_ key: Key) -> InteractiveEffect {
        switch key {
        case .character(let character):
            guard appendToSearchText(character) else { return .none }
        case .backspace:
            guard !searchText.isEmpty else { return .none }
            searchText.removeLast()
        case .control("u"):
            guard !searchText.isEmpty else { return .none }
            searchText = ""
        case .control("w"):
            guard !searchText.isEmpty else { return .none }
            while searchText.last?.isWhitespace == true { searchText.removeLast() }
            while let last = searchText.last, !last.isWhitespace { searchText.removeLast() }
        case .escape:
            mode = .browse
            searchText = ""
            return .reload(keepSelection: true)
        default:
            return .none
        }
        return .reload(keepSelection: false)
    }

    private mutating func handleBrowseKey(_ key: Key) -> InteractiveEffect {
        switch key {
        case .character("/"):
            mode = .search
            searchText = ""
            return .reload(keepSelection: false)
        case .character("q"):
            return .quit
        case .character(let character):
            let title = character == "#" ? "#" : character.uppercased()
            guard title.count == 1, let section = list.jumpTable[title] else { return .none }
            jump(toSection: section)
            return .render
        default:
            return .none
        }
    }
}
