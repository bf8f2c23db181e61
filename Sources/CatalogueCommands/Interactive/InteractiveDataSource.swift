import CatalogueKit

/// Where the interactive mode's list comes from: the sectioned browse list of a scope (a
/// ``SectionedResultsController`` over the entity's browse request) or a search (the entity's
/// search request, in the chosen match mode), read a window at a time.
protocol InteractiveDataSource: AnyObject {
    /// What is listed.
    var entity: CatalogueEntity { get }
    /// The scope bar's choices.
    var scopes: [ScopeChoice] { get }

    /// Reads the list of `mode` for `text`, `match` and `scope`. Returns its layout and, when
    /// `id` is given and in the list, that record's position.
    func load(mode: InteractiveState.Mode, text: String, match: MatchMode, scope: ScopeChoice, locating id: Int64?) throws
        -> (layout: ListLayout, position: Int?)

    /// How many records each scope (in ``scopes`` order) has for `mode`, `text` and `match`,
    /// counted without loading them.
    func scopeCounts(mode: InteractiveState.Mode, text: String, match: MatchMode) throws -> [Int]

    /// `match.firstFallback(for: text)` in `scope`, counted up to the scope bar's cap, as
    /// `catalogue search` names it when it finds nothing; nil when no other mode finds it.
    func otherMatch(text: String, match: MatchMode, scope: ScopeChoice) throws -> OtherMatch?

    /// Up to five names close to `text` in `scope` ("did you mean"), as `catalogue search`
    /// suggests them when it finds nothing.
    func suggestions(text: String, scope: ScopeChoice) throws -> [String]

    /// The rows at `positions` of the last loaded list, by position.
    func rows(_ positions: Range<Int>) throws -> [Int: ListRow]

    /// The detail view of the record at `position`, laid out for `width` cells.
    func detail(at position: Int, width: Int) throws -> DetailContent?
}

extension InteractiveDataSource {
    /// ``load(mode:text:match:scope:locating:)`` in prefix mode.
    func load(mode: InteractiveState.Mode, text: String, scope: ScopeChoice, locating id: Int64?) throws
        -> (layout: ListLayout, position: Int?) {
        try load(mode: mode, text: text, match: .prefix, scope: scope, locating: id)
    }
}

/// The ``InteractiveDataSource`` of one entity, written once for every entity: its scopes,
/// requests, columns, cells and detail page come from its ``EntityDescriptor``.
final class RecordListSource<R: CatalogueRecord>: InteractiveDataSource {
    let catalogue: Catalogue
    /// The scopes with a sectioned list, as the catalogue has them (product types included).
    let searchScopes: [SearchScope]
    /// Records read at once while searching (and the first page's size).
    static var windowSize: Int { 100 }

    private enum Current {
        case browse(SectionedResultsController<R>, ListLayout)
        /// A search, its text and its count: the request is built only to read past the first
        /// window.
        case search(PreparedSearch<R>, text: String, count: Int)
    }

    private var current: Current?
    private var controllers: [String: SectionedResultsController<R>] = [:]
    /// The searches prepared so far, by scope key and match mode: a keystroke binds its text
    /// into statements compiled once (prefix mode).
    private var preparedSearches: [String: PreparedSearch<R>] = [:]
    private var window: (start: Int, records: [R]) = (0, [])
    private var scope: SearchScope
    private var query = (mode: InteractiveState.Mode.browse, text: "", match: MatchMode.prefix)
    private var counts: (key: String, token: ChangeToken, counts: [Int])?
    /// The last suggestions, for the text and scope in `key`, while the catalogue is unchanged.
    private var suggested: (key: String, token: ChangeToken, names: [String])?

    init(catalogue: Catalogue) throws {
        self.catalogue = catalogue
        searchScopes = try catalogue.scopes(of: R.self).filter(\.isBrowsable)
        scope = searchScopes[0]
    }

    var entity: CatalogueEntity { R.entity.entity }
    var scopes: [ScopeChoice] { searchScopes.map(ScopeChoice.init) }

    func load(mode: InteractiveState.Mode, text: String, match: MatchMode, scope choice: ScopeChoice, locating id: Int64?) throws
        -> (layout: ListLayout, position: Int?) {
        scope = searchScope(choice)
        query = (mode, CatalogueSearch.normalizedText(text), match)
        let columns = Self.columns(for: scope).map { ListColumn(title: $0.label, width: $0.listWidth, alignRight: $0.isNumeric) }
        switch mode {
        case .search:
            let search = try preparedSearch(scope: scope, match: match)
            // Counted up to the cap, and listed as far: a keystroke never counts every match.
            let results = try search.search(text)
            current = .search(search, text: text, count: results.totalCount)
            window = (0, results.records)
            var position: Int?
            if let id {
                position = results.records.firstIndex { $0.id == id }
                if position == nil, results.totalCount > results.records.count {
                    var listed = try search.request(for: text)
                    listed.fetchLimit = results.totalCount
                    position = try catalogue.fetchIDs(listed).firstIndex(of: id)
                }
            }
            let layout = ListLayout(
                count: results.totalCount, columns: columns, summary: results.summary, isCountExact: results.isCountExact)
            return (layout, position)
        case .browse:
            let controller = controller(for: scope)
            try controller.performFetch()
            let sections = controller.sections.map {
                ListSection(title: $0.name, offset: $0.offset, count: $0.numberOfObjects)
            }
            var jumpTable: [String: Int] = [:]
            for (index, title) in controller.rule.indexTitles.enumerated() {
                if case .section(let section)? = controller.section(forSectionIndexTitle: title, at: index) {
                    jumpTable[title] = section
                }
            }
            let count = controller.fetchedCount
            let layout = ListLayout(
                count: count, sections: sections, indexTitles: controller.sectionIndexTitles, jumpTable: jumpTable,
                columns: columns, summary: count == 0 ? ResultCountText.found(0) : R.entity.count(count))
            current = .browse(controller, layout)
            let position = id.flatMap { controller.indexPath(forID: $0) }.map { sections[$0.section].offset + $0.row }
            return (layout, position)
        }
    }

    func otherMatch(text: String, match: MatchMode, scope choice: ScopeChoice) throws -> OtherMatch? {
        let scope = searchScope(choice)
        let found = try match.firstFallback(for: text) { mode in
            try catalogue.counts(of: [scope], limit: InteractiveCounts.limit) {
                try R.searchRequest(matching: text, scope: $0.key, mode: mode)
            }[0]
        }
        return found.map { OtherMatch(mode: $0.mode, count: $0.count) }
    }

    func suggestions(text: String, scope choice: ScopeChoice) throws -> [String] {
        let key = "\(choice.key)\u{0}\(CatalogueSearch.normalizedText(text))"
        let token = try catalogue.engine.changeToken()
        if let suggested, suggested.key == key, suggested.token == token { return suggested.names }
        let scope = searchScope(choice).key
        let names = try catalogue.read { db in try R.suggestions(for: text, scope: scope, in: db) }
        suggested = (key, token, names)
        return names
    }

    func scopeCounts(mode: InteractiveState.Mode, text: String, match: MatchMode) throws -> [Int] {
        let key = "\(mode)\u{0}\(match)\u{0}\(mode == .search ? CatalogueSearch.normalizedText(text) : "")"
        let token = try catalogue.engine.changeToken()
        if let counts, counts.key == key, counts.token == token { return counts.counts }
        // Searching, each scope is counted up to the cap (InteractiveCounts); browsing, exactly.
        let result = try catalogue.counts(of: searchScopes, limit: mode == .search ? InteractiveCounts.limit : .exact) { scope in
            switch mode {
            case .browse: R.entity.browseRequest(scope)
            case .search: try R.searchRequest(matching: text, scope: scope.key, mode: match)
            }
        }
        counts = (key, token, result)
        return result
    }

    func rows(_ positions: Range<Int>) throws -> [Int: ListRow] {
        var rows: [Int: ListRow] = [:]
        for position in positions {
            guard let record = try record(at: position) else { continue }
            rows[position] = ListRow(id: record.id, cells: cells(of: record))
        }
        return rows
    }

    func detail(at position: Int, width: Int) throws -> DetailContent? {
        guard let record = try record(at: position) else { return nil }
        let page = try record.detailPage(in: catalogue)
        return DetailContent(title: page.title, lines: page.bodyLines(width: width))
    }

    /// The list's fields for `scope`: the entity's compact list fields, the scope's order
    /// field first when it is not the title (the capital scope lists capitals first).
    static func columns(for scope: SearchScope) -> [FieldDescriptor<R>] {
        let fields = R.entity.compactListFields
        guard scope.orderField != R.entity.titleField.name,
              let index = fields.firstIndex(where: { $0.name == scope.orderField })
        else { return fields }
        var ordered = fields
        ordered.insert(ordered.remove(at: index), at: 0)
        return ordered
    }

    /// The cells of `record`: each field's text ("—" for no text), with what the search
    /// matched marked in the scope's fields, and the alias a record was found by after its
    /// title when the title itself did not match.
    func cells(of record: R) -> [ListCell] {
        let searching = query.mode == .search && !query.text.isEmpty
        return Self.columns(for: scope).map { field in
            let text = field.text(of: record)
            guard !text.isEmpty else { return ListCell(field.isNumeric ? "" : "—") }
            guard searching, scope.matchedFields.contains(field.name) else { return ListCell(text) }
            var cell = ListCell(highlighting: text, matching: query.text, mode: query.match)
            if field.name == R.entity.titleField.name, !cell.hasMatch, let alias = matchedAlias(of: record) {
                cell.appendNote(alias)
            }
            return cell
        }
    }

    /// The first alias of `record` the search matched, when its scope searches aliases.
    private func matchedAlias(of record: R) -> ListCell? {
        guard let column = R.schema.aliases?.joinedColumn, scope.matchedFields.contains(column),
              case .text(let joined)? = R.entity.field(named: column)?.value(record)
        else { return nil }
        return AliasTable.split(joined).lazy
            .map { ListCell(highlighting: $0, matching: self.query.text, mode: self.query.match) }
            .first { $0.hasMatch }
    }

    /// The record at `position` of the current list; nil outside it.
    private func record(at position: Int) throws -> R? {
        switch current {
        case .browse(let controller, let layout)?:
            guard position >= 0, position < layout.count else { return nil }
            let section = layout.section(containing: position)
            let path = ResultIndexPath(row: position - layout.sections[section].offset, section: section)
            do {
                return try controller.object(at: path)
            } catch SectionedResultsError.recordMissing {
                // Deleted by another process since the last fetch; the next reload drops it.
                return nil
            }
        case .search(let search, let text, let count)?:
            guard position >= 0, position < count else { return nil }
            if position < window.start || position >= window.start + window.records.count {
                // Read a window around the position, so scrolling either way stays in it.
                var page = try search.request(for: text)
                page.fetchOffset = max(0, position - Self.windowSize / 2)
                page.fetchLimit = Self.windowSize
                window = (page.fetchOffset, try catalogue.fetch(page))
            }
            let index = position - window.start
            return window.records.indices.contains(index) ? window.records[index] : nil
        case nil:
            return nil
        }
    }

    /// The search scope a scope bar choice stands for (the default when it is gone).
    private func searchScope(_ choice: ScopeChoice) -> SearchScope {
        searchScopes.first { $0.key == choice.key } ?? searchScopes[0]
    }

    /// The search of `scope` in `match` mode, prepared once.
    private func preparedSearch(scope: SearchScope, match: MatchMode) throws -> PreparedSearch<R> {
        let key = "\(scope.key)\u{0}\(match)"
        if let search = preparedSearches[key] { return search }
        let search = try catalogue.prepareSearch(
            R.self, scope: scope.key, mode: match, limit: Self.windowSize, count: InteractiveCounts.limit)
        preparedSearches[key] = search
        return search
    }

    /// The browse controller of `scope`, made once per scope.
    private func controller(for scope: SearchScope) -> SectionedResultsController<R> {
        if let controller = controllers[scope.key] { return controller }
        var request = R.entity.browseRequest(scope)
        request.fetchBatchSize = 64
        let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: request)
        controllers[scope.key] = controller
        return controller
    }
}
