import CatalogueKit

/// The help line at the bottom and the help overlay (`?`, F1) listing every key.
extension InteractiveRenderer {
    /// The keys the help line shows, most useful first (the line drops those before the last
    /// when narrow): the match mode and the other entity by name.
    static func keyHints(_ state: InteractiveState) -> [(String, String)] {
        let other = nextEntity(after: state.entity).rawValue
        let mode = "match \(state.matchMode.rawValue)"
        if state.isSearching {
            return [("Esc", "browse"), ("Tab", "scope"), ("^T", mode), ("^E", other), ("F1", "help"),
                    ("Enter", "details"), ("↑↓", "move"), ("^C", "quit")]
        }
        return [("/", "search"), ("?", "help"), ("Tab", "scope"), ("^T", mode), ("^E", other),
                ("Enter", "details"), ("↑↓", "move"), ("A–Z", "jump"), ("q", "quit")]
    }

    /// The keys of the detail view.
    static let detailHints = [("Esc", "back"), ("↑↓", "scroll"), ("^C", "quit")]

    /// The entity Ctrl-E switches to.
    static func nextEntity(after entity: CatalogueEntity) -> CatalogueEntity {
        let all = CatalogueEntity.allCases
        let index = all.firstIndex(of: entity) ?? 0
        return all[(index + 1) % all.count]
    }

    /// Every key, for the help overlay.
    static let allKeys: [(String, String)] = [
        ("/", "search (while browsing)"),
        ("typing", "edit the search: Backspace, ^U clears, ^W deletes a word"),
        ("paste", "search for the pasted text (its first 256 characters)"),
        ("A–Z, #", "jump to a section while browsing (Shift-Q for Q)"),
        ("↑ ↓ PgUp PgDn", "move the selection"),
        ("Home, End", "first and last record"),
        ("Tab, Shift-Tab", "next and previous scope (the selection stays when it can)"),
        ("^T", "match mode: prefix, contains, words, terms, fuzzy"),
        ("^E", "switch between countries and products"),
        ("Enter", "details of the selected record (Esc closes them)"),
        ("Esc", "end the search, back to the sections"),
        ("?, F1", "this help (any key closes it)"),
        ("^L", "redraw"),
        ("^Z", "suspend (fg resumes)"),
        ("q", "quit while browsing"),
        ("^C, ^D, F10", "quit"),
    ]

    /// The help overlay: a title, a rule, one line per key (as many as fit), the status line
    /// and "any key closes".
    static func renderHelp(_ state: InteractiveState) -> Screen {
        let size = state.size
        let keyWidth = allKeys.map { DisplayWidth.of($0.0) }.max() ?? 0
        var lines = [StyledLine(" Keys", style: .bold), StyledLine(String(repeating: "─", count: size.columns), style: .dim)]
        for (keys, action) in allKeys.prefix(max(0, size.rows - 4)) {
            var line = StyledLine(" ")
            line.append(DisplayWidth.fit(keys, to: keyWidth), .accent)
            line.append("  " + action)
            lines.append(line)
        }
        while lines.count < size.rows - 2 { lines.append(StyledLine()) }
        let status = " Search \(state.entity.rawValue), match mode \(state.matchMode.rawValue)"
        lines.append(StyledLine(DisplayWidth.fit(status, to: size.columns), style: .status))
        lines.append(helpLine([("any key", "closes this help")], width: size.columns))
        return Screen(lines: lines.map { $0.truncated(to: size.columns) }, cursor: nil)
    }

    /// The help line for `width` cells: the items that fit, dropping those before the last
    /// (quit) first.
    static func helpLine(_ items: [(String, String)], width: Int) -> StyledLine {
        var items = items
        func line() -> StyledLine {
            var line = StyledLine()
            for (keys, action) in items {
                line.append(" ")
                line.append(keys, .accent)
                line.append(" " + action + " ")
            }
            return line
        }
        while items.count > 1, line().width > width + 1 {
            items.remove(at: items.count - 2)
        }
        var result = line()
        if result.width > width, var last = result.spans.popLast() {
            // Only the trailing space is over: drop it rather than cut the last word.
            last.text.removeLast()
            result.spans.append(last)
        }
        return result
    }
}
