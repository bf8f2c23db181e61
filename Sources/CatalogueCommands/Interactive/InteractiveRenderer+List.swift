/// The list part of the screen: column widths, cells with highlighted matches, section
/// headers (the top one pinned) and the section index.
extension InteractiveRenderer {
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

    /// `values` laid out in `widths` (columns of width 0 left out), two spaces apart, as
    /// spans: matches and notes keep their emphasis, in the selected row's colours when
    /// `selected`.
    static func cells(_ values: [ListCell], columns: [ListColumn], widths: [Int], selected: Bool) -> [Span] {
        var spans: [Span] = []
        var first = true
        for (index, width) in widths.enumerated() where width > 0 {
            if !first { spans.append(Span("  ", selected ? .selected : .plain)) }
            first = false
            let cell = index < values.count ? values[index] : ListCell("")
            spans += fit(cell, to: width, alignRight: columns[index].alignRight, selected: selected)
        }
        return spans
    }

    /// One cell cut to `width` cells with "…" when too long, and padded to exactly `width`.
    static func fit(_ cell: ListCell, to width: Int, alignRight: Bool, selected: Bool) -> [Span] {
        let base: SpanStyle = selected ? .selected : .plain
        let pieces = cell.segments.map { Span(DisplayWidth.sanitized($0.text), style($0.emphasis, selected: selected)) }
        let total = pieces.reduce(0) { $0 + DisplayWidth.of($1.text) }
        var spans: [Span]
        if total <= width {
            spans = pieces
        } else {
            // Keep what fits before the ellipsis, each piece in its own style.
            spans = []
            var room = max(0, width - 1)
            for piece in pieces where room > 0 {
                let kept = DisplayWidth.prefix(piece.text, width: room)
                if !kept.isEmpty { spans.append(Span(kept, piece.style)) }
                room -= DisplayWidth.of(kept)
                if DisplayWidth.of(kept) < DisplayWidth.of(piece.text) { break }
            }
            spans.append(Span("…", spans.last?.style ?? base))
        }
        let used = spans.reduce(0) { $0 + DisplayWidth.of($1.text) }
        let padding = Span(String(repeating: " ", count: max(0, width - used)), base)
        return alignRight ? [padding] + spans : spans + [padding]
    }

    private static func style(_ emphasis: ListCell.Emphasis, selected: Bool) -> SpanStyle {
        switch (emphasis, selected) {
        case (.plain, false): .plain
        case (.plain, true): .selected
        case (.match, false): .match
        case (.match, true): .selectedMatch
        case (.note, false): .note
        case (.note, true): .selectedNote
        }
    }

    /// "  found with words: 1 (Ctrl-T: match mode)" under "No items found", the mode plain, cut
    /// with "…" to `width` and padded to it.
    static func otherMatchLine(_ other: OtherMatch, width: Int) -> StyledLine {
        var line = StyledLine("  found with ", style: .dim)
        line.append(other.mode.rawValue)
        line.append(": \(InteractiveCounts.text(other.count, searching: true)) (Ctrl-T: match mode)", .dim)
        line = line.truncated(to: width)
        if line.width < width { line.append(String(repeating: " ", count: width - line.width)) }
        return line
    }

    /// "  did you mean: Philippines?" under "No items found", the names plain, cut with "…" to
    /// `width` and padded to it.
    static func suggestionLine(_ names: [String], width: Int) -> StyledLine {
        var line = StyledLine("  did you mean: ", style: .dim)
        for (index, name) in names.enumerated() {
            if index > 0 { line.append(", ", .dim) }
            line.append(DisplayWidth.sanitized(name))
        }
        line.append("?", .dim)
        line = line.truncated(to: width)
        if line.width < width { line.append(String(repeating: " ", count: width - line.width)) }
        return line
    }

    /// Display line `displayLine`: a section header, a record (">" and reverse video when
    /// selected), or blank; under "No items found", the match mode that finds the text, else
    /// the names close to it. The first line of a sectioned list is always a header: the
    /// section of the first row shown is pinned there, as a table view pins it.
    static func listLine(_ state: InteractiveState, displayLine: Int, rows: [Int: ListRow], widths: [Int], width: Int) -> StyledLine {
        var line = state.list.line(at: displayLine)
        if displayLine == state.scrollTop, state.list.isSectioned, case .record(let position)? = line {
            line = .header(section: state.list.section(containing: position))
        }
        switch line {
        case .header(let section)?:
            return StyledLine(DisplayWidth.fit(" " + state.list.sections[section].title, to: width), style: .sectionHeader)
        case .record(let position)?:
            let selected = position == state.selection
            let mark = Span(selected ? "> " : "  ", selected ? .selected : .plain)
            var styled = StyledLine([mark] + cells(rows[position]?.cells ?? [], columns: state.list.columns, widths: widths, selected: selected))
            styled = styled.truncated(to: width)
            if styled.width < width { styled.append(String(repeating: " ", count: width - styled.width), selected ? .selected : .plain) }
            return styled
        case nil:
            if displayLine == 0, state.list.count == 0 {
                return StyledLine(DisplayWidth.fit("  " + state.list.summary, to: width), style: .dim)
            }
            if displayLine == 1, state.list.count == 0, let other = state.otherMatch {
                return otherMatchLine(other, width: width)
            }
            if displayLine == 1, state.list.count == 0, !state.suggestions.isEmpty {
                return suggestionLine(state.suggestions, width: width)
            }
            return StyledLine(String(repeating: " ", count: width))
        }
    }

    /// The A–Z index, one span per list line: every title when they fit; else, as UIKit does
    /// on a short table, titles spread evenly (the first, the last and the selected row's
    /// section always shown) with "•" between two titles where letters were skipped. The
    /// selected row's section highlighted.
    static func indexColumn(_ state: InteractiveState) -> [Span] {
        let titles = state.list.indexTitles
        let height = state.listHeight
        let current = state.list.sections.isEmpty ? nil : state.list.sections[state.list.section(containing: state.selection)].title
        var spans = Array(repeating: Span(" "), count: height)
        guard !titles.isEmpty else { return spans }
        var entries = titles.map { Optional($0) }
        if titles.count > height {
            // Titles on every other line, a bullet between: (height + 1) / 2 titles.
            let slots = max(1, (height + 1) / 2)
            var picked = slots == 1 ? [0] : (0..<slots).map { ($0 * (titles.count - 1) + (slots - 1) / 2) / (slots - 1) }
            if let current, let wanted = titles.firstIndex(of: current), !picked.contains(wanted) {
                // Replace the nearest sampled title but the first and last: the order stays A→Z.
                let inner = picked.count > 2 ? Array(picked.indices.dropFirst().dropLast()) : Array(picked.indices)
                if let slot = inner.min(by: { abs(picked[$0] - wanted) < abs(picked[$1] - wanted) }) {
                    picked[slot] = wanted
                }
            }
            picked = Array(Set(picked)).sorted()
            entries = []
            for (index, title) in picked.enumerated() {
                entries.append(titles[title])
                if index + 1 < picked.count, picked[index + 1] - title > 1 { entries.append(nil) }
            }
        }
        for (row, entry) in entries.prefix(height).enumerated() {
            guard let title = entry else {
                spans[row] = Span("•", .index)
                continue
            }
            let text = DisplayWidth.fit(DisplayWidth.sanitized(title), to: 1)
            spans[row] = Span(text, title == current ? .currentIndex : .index)
        }
        return spans
    }
}
