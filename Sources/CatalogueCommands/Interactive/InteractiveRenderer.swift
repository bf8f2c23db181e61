import CatalogueKit

/// Turns an ``InteractiveState`` and the rows on screen into a ``Screen`` of exactly the
/// terminal's size: the search field (with the match mode), the scope bar (with each scope's
/// count), column titles, the list (section headers, the top one pinned, and the A–Z index
/// column while browsing; matches highlighted while searching), the status line and the help
/// line; or the detail view, or the help overlay. Every line fits the width; long names are
/// cut by display width with "…".
///
/// ```
///  Search countries: co                                               match: prefix
///  Scope: [Name 15] · Capital 4
///    Name                                    Capital                 Population
/// > Colombia                                 Bogotá                  49,648,685
///   Comoros                                  Moroni                     773,407
///  15 items found                                                        1 of 15
///  ↑↓ move  Enter details  Tab scope  ^T match  ^E products  F1 help  Esc browse  ^C quit
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
        if state.showsHelp {
            return renderHelp(state)
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
        lines.append(helpLine(keyHints(state), width: size.columns))
        return Screen(lines: lines.map { $0.truncated(to: size.columns) }, cursor: cursor)
    }

    // MARK: - Top lines

    /// The search field, the match mode at the right, and the cursor's column when searching.
    static func searchField(_ state: InteractiveState) -> (StyledLine, Int?) {
        let label = " Search \(state.entity.rawValue): "
        let mode = "match: \(state.matchMode.rawValue) "
        var line = StyledLine(label, style: state.isSearching ? .accent : .dim)
        let room = max(1, state.size.columns - DisplayWidth.of(label) - DisplayWidth.of(mode) - 2)
        let text = state.isSearching
            ? DisplayWidth.suffix(DisplayWidth.sanitized(state.searchText), width: room)
            : DisplayWidth.truncate("press / to search", to: room)
        line.append(text, state.isSearching ? .plain : .dim)
        let gap = state.size.columns - line.width - DisplayWidth.of(mode)
        if gap >= 1 {
            line.append(String(repeating: " ", count: gap))
            line.append(mode, .dim)
        }
        return (line, state.isSearching ? DisplayWidth.of(label) + DisplayWidth.of(text) : nil)
    }

    /// " Scope: [Name 12] · Capital 3": each scope with its count once counted ("10,000+" above
    /// the search's cap), scrolled so the selected scope shows.
    static func scopeBar(_ state: InteractiveState) -> StyledLine {
        let prefix = " Scope: "
        let counts = state.scopeCounts.flatMap { $0.count == state.scopes.count ? $0 : nil }
        let titles = state.scopes.enumerated().map { index, scope in
            DisplayWidth.sanitized(scope.title) + (counts.map { " " + InteractiveCounts.text($0[index], searching: state.isSearching) } ?? "")
        }
        let separator = " · "
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
            if index > first { line.append(separator, .dim) }
            if index == state.scopeIndex {
                line.append("[" + titles[index] + "]", .selectedScope)
            } else {
                line.append(titles[index])
            }
        }
        return line
    }

    /// The column titles, aligned with the rows.
    static func columnHeader(_ columns: [ListColumn], widths: [Int]) -> StyledLine {
        let titles = cells(columns.map { ListCell($0.title) }, columns: columns, widths: widths, selected: false)
        return StyledLine("  " + titles.map(\.text).joined(), style: .dim)
    }

    // MARK: - Status

    /// What the status line says before the reason while the database does not answer.
    static let unavailableLabel = "Database unavailable (type to retry):"

    /// "15 items found" and, on the right, the selected position; for an empty list, nothing
    /// on the left (the list itself says "No items found"). While the database does not
    /// answer, why, in place of both.
    static func statusLine(_ state: InteractiveState) -> StyledLine {
        let width = state.size.columns
        if let problem = state.databaseProblem {
            return StyledLine(DisplayWidth.fit(" \(unavailableLabel) " + DisplayWidth.sanitized(problem), to: width), style: .status)
        }
        let left: String
        if state.list.count == 0 {
            left = " "
        } else if state.isSearching {
            left = " " + state.list.summary
        } else {
            left = " \(state.list.summary) in \(FieldFormat.grouped(Int64(state.list.sections.count))) sections"
        }
        let total = (state.list.isCountExact ? "" : "more than ") + FieldFormat.grouped(Int64(state.list.count))
        let right = state.list.count > 0 ? "\(FieldFormat.grouped(Int64(state.selection + 1))) of \(total) " : ""
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
        let left = " \(FieldFormat.grouped(Int64(state.selection + 1))) of \(FieldFormat.grouped(Int64(state.list.count)))"
        let gap = max(1, size.columns - DisplayWidth.of(left) - DisplayWidth.of(more))
        lines.append(StyledLine(left + String(repeating: " ", count: gap) + more, style: .status))
        lines.append(helpLine(detailHints, width: size.columns))
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
