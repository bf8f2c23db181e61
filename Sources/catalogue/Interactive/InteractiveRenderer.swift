/// Turns an ``InteractiveState`` and the rows on screen into a ``Screen`` of exactly the
/// terminal's size: the search field, the scope bar, column titles, the list (section headers
/// and the A–Z index column while browsing), the status line and the help line; or the detail
/// view. Every line fits the width; long names are cut by display width with "…".
///
/// ```
///  Search countries: co
///  Scope: [Name]  Capital
///    Name                                    Capital                 Population
/// > Colombia                                 Bogotá                  49,648,685
///   Comoros                                  Moroni                     773,407
///  15 items found                                                        1 of 15
///  type to search  ↑↓ PgUp PgDn move  Enter details  Tab scope  Esc browse  ^C quit
/// ```
enum InteractiveRenderer {
    /// The smallest terminal the screen is drawn in.
    static let minimumSize = ScreenSize(rows: 8, columns: 30)

    /// The frame for `state`; `rows` holds the records on screen by position.
    static func render(_ state: InteractiveState, rows: [Int: ListRow]) -> Screen {
        let size = state.size
        guard size.rows >= minimumSize.rows, size.columns >= minimumSize.columns else {
            return tooSmall(size)
        }
        if let detail = state.detail {
            return renderDetail(detail, state: state)
        }
        var lines: [StyledLine] = []
        var cursor: (row: Int, column: Int)?
        let (field, cursorColumn) = searchField(state)
        lines.append(field)
        if let cursorColumn { cursor = (0, cursorColumn) }
        lines.append(scopeBar(state))
        let showsIndex = state.list.isSectioned && !state.list.indexTitles.isEmpty
        let contentWidth = size.columns - (showsIndex ? 2 : 0)
        let widths = columnWidths(state.list.columns, width: contentWidth)
        lines.append(columnHeader(state.list.columns, widths: widths))
        let index = showsIndex ? indexColumn(state) : []
        for offset in 0..<state.listHeight {
            var line = listLine(state, displayLine: state.scrollTop + offset, rows: rows, widths: widths, width: contentWidth)
            if showsIndex {
                line.append(" ")
                line.spans.append(index[offset])
            }
            lines.append(line)
        }
        lines.append(statusLine(state))
        lines.append(helpLine(state.isSearching ? searchHelp : browseHelp, width: size.columns))
        return Screen(lines: lines.map { $0.truncated(to: size.columns) }, cursor: cursor)
    }

    // MARK: - Help

    /// The keys of browse mode, most important first.
    static let browseHelp = [("/", "search"), ("A–Z", "jump"), ("↑↓ PgUp PgDn", "move"), ("Enter", "details"),
                             ("Tab", "scope"), ("q", "quit")]
    /// The keys of search mode.
    static let searchHelp = [("↑↓ PgUp PgDn", "move"), ("Enter", "details"), ("Tab", "scope"),
                             ("Esc", "browse"), ("^C", "quit")]
    /// The keys of the detail view.
    static let detailHelp = [("Esc", "back"), ("↑↓", "scroll"), ("^C", "quit")]

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
        return line()
    }

    // MARK: - Top lines

    /// The search field and the cursor's column when searching.
    static func searchField(_ state: InteractiveState) -> (StyledLine, Int?) {
        let label = " Search \(state.entity.rawValue): "
        var line = StyledLine(label, style: state.isSearching ? .accent : .dim)
        guard state.isSearching else {
            line.append("press / to search", .dim)
            return (line, nil)
        }
        let room = max(1, state.size.columns - DisplayWidth.of(label) - 1)
        let text = DisplayWidth.suffix(DisplayWidth.sanitized(state.searchText), width: room)
        line.append(text)
        return (line, DisplayWidth.of(label) + DisplayWidth.of(text))
    }

    /// " Scope: [Name]  Capital", scrolled so the selected scope shows.
    static func scopeBar(_ state: InteractiveState) -> StyledLine {
        let prefix = " Scope: "
        let titles = state.scopes.map { DisplayWidth.sanitized($0.title) }
        let room = state.size.columns - DisplayWidth.of(prefix)
        // Drop scopes from the start until the selected one fits.
        var first = 0
        func width(from start: Int) -> Int {
            titles[start...state.scopeIndex].reduce(0) { $0 + DisplayWidth.of($1) + 3 } + (start > 0 ? 2 : 0)
        }
        while first < state.scopeIndex, width(from: first) > room { first += 1 }
        var line = StyledLine(prefix, style: .dim)
        if first > 0 { line.append("‹ ", .dim) }
        for index in first..<titles.count {
            if index == state.scopeIndex {
                line.append("[" + titles[index] + "]", .selectedScope)
                line.append(" ")
            } else {
                line.append(" " + titles[index] + "  ")
            }
        }
        return line
    }

    /// The column titles, aligned with the rows.
    static func columnHeader(_ columns: [ListColumn], widths: [Int]) -> StyledLine {
        StyledLine("  " + cells(columns.map(\.title), columns: columns, widths: widths), style: .dim)
    }

    // MARK: - The list

    /// Cells of each column for `width` cells of row: two for the selection mark, two between
    /// columns, one at the end; the flexible column takes what the fixed ones leave, and fixed
    /// columns are dropped from the right while it would get fewer than 12.
    static func columnWidths(_ columns: [ListColumn], width: Int) -> [Int] {
        let available = width - 3
        var widths = columns.map { $0.width ?? 0 }
        var shown = columns.count
        func flexible() -> Int {
            available - widths[0..<shown].reduce(0, +) - 2 * max(0, shown - 1)
        }
        while shown > 1, flexible() < 12 {
            shown -= 1
            widths[shown] = 0
        }
        if let flex = columns.firstIndex(where: { $0.width == nil }), flex < shown {
            widths[flex] = max(1, flexible())
        }
        return widths
    }

    /// `values` laid out in `widths` (columns of width 0 left out).
    static func cells(_ values: [String], columns: [ListColumn], widths: [Int]) -> String {
        var parts: [String] = []
        for (index, width) in widths.enumerated() where width > 0 {
            let value = index < values.count ? DisplayWidth.sanitized(values[index]) : ""
            parts.append(DisplayWidth.fit(value, to: width, alignRight: columns[index].alignRight))
        }
        return parts.joined(separator: "  ")
    }

    /// Display line `displayLine`: a section header, a record (">" and reverse video when
    /// selected), or blank.
    static func listLine(_ state: InteractiveState, displayLine: Int, rows: [Int: ListRow], widths: [Int], width: Int) -> StyledLine {
        switch state.list.line(at: displayLine) {
        case .header(let section)?:
            return StyledLine(DisplayWidth.fit(" " + state.list.sections[section].title, to: width), style: .sectionHeader)
        case .record(let position)?:
            let selected = position == state.selection
            let text = cells(rows[position]?.cells ?? [], columns: state.list.columns, widths: widths)
            let line = DisplayWidth.fit((selected ? "> " : "  ") + text, to: width)
            return StyledLine(line, style: selected ? .selected : .plain)
        case nil:
            if displayLine == 0, state.list.count == 0 {
                return StyledLine(DisplayWidth.fit("  " + state.list.summary, to: width), style: .dim)
            }
            return StyledLine(String(repeating: " ", count: width))
        }
    }

    /// The A–Z index, one span per list line: every title when they fit, else titles sampled
    /// evenly (the first, the last and the selected row's section always shown); the selected
    /// row's section highlighted.
    static func indexColumn(_ state: InteractiveState) -> [Span] {
        let titles = state.list.indexTitles
        let height = state.listHeight
        let current = state.list.sections.isEmpty ? nil : state.list.sections[state.list.section(containing: state.selection)].title
        var spans = Array(repeating: Span(" "), count: height)
        guard !titles.isEmpty else { return spans }
        var picked = Array(titles.indices)
        if titles.count > height {
            picked = height == 1 ? [0] : (0..<height).map { ($0 * (titles.count - 1) + (height - 1) / 2) / (height - 1) }
            if let current, let wanted = titles.firstIndex(of: current), !picked.contains(wanted) {
                // Replace the nearest sampled title but the first and last: the order stays A→Z.
                let inner = picked.count > 2 ? Array(picked.indices.dropFirst().dropLast()) : Array(picked.indices)
                if let slot = inner.min(by: { abs(picked[$0] - wanted) < abs(picked[$1] - wanted) }) {
                    picked[slot] = wanted
                }
            }
        }
        let shown = picked.map { titles[$0] }
        for (row, title) in shown.enumerated() {
            let text = DisplayWidth.fit(DisplayWidth.sanitized(title), to: 1)
            spans[row] = Span(text, title == current ? .currentIndex : .index)
        }
        return spans
    }

    /// "15 items found" and, on the right, the selected position.
    static func statusLine(_ state: InteractiveState) -> StyledLine {
        let width = state.size.columns
        let left = " " + (state.isSearching || state.list.count == 0
            ? state.list.summary
            : "\(state.list.summary) in \(state.list.sections.count) sections")
        let right = state.list.count > 0 ? "\(state.selection + 1) of \(state.list.count) " : ""
        let gap = max(1, width - DisplayWidth.of(left) - DisplayWidth.of(right))
        return StyledLine(DisplayWidth.fit(left + String(repeating: " ", count: gap) + right, to: width), style: .status)
    }

    // MARK: - Detail and small screens

    /// The detail view: title, a rule, the labelled lines (scrolled), status and help.
    static func renderDetail(_ detail: DetailContent, state: InteractiveState) -> Screen {
        let size = state.size
        var lines = [StyledLine(" " + DisplayWidth.sanitized(detail.title), style: .bold),
                     StyledLine(String(repeating: "─", count: size.columns), style: .dim)]
        let body = detail.lines.dropFirst(state.detailScroll).prefix(state.detailHeight)
        lines += body.map { StyledLine(" " + DisplayWidth.sanitized($0)) }
        while lines.count < size.rows - 2 { lines.append(StyledLine()) }
        let more = state.detailScroll < state.maxDetailScroll ? "more ↓ " : ""
        let left = " \(state.selection + 1) of \(state.list.count)"
        let gap = max(1, size.columns - DisplayWidth.of(left) - DisplayWidth.of(more))
        lines.append(StyledLine(left + String(repeating: " ", count: gap) + more, style: .status))
        lines.append(helpLine(detailHelp, width: size.columns))
        return Screen(lines: lines.map { $0.truncated(to: size.columns) }, cursor: nil)
    }

    /// A note asking for a bigger terminal.
    static func tooSmall(_ size: ScreenSize) -> Screen {
        let message = ["Terminal too small", "(needs \(minimumSize.columns)×\(minimumSize.rows))", "Ctrl-C quits"]
        var lines = message.prefix(max(0, size.rows)).map { StyledLine(DisplayWidth.truncate($0, to: size.columns)) }
        while lines.count < size.rows { lines.append(StyledLine()) }
        return Screen(lines: lines, cursor: nil)
    }
}
