import CatalogueKit

/// Where the interactive mode's list comes from: the sectioned browse list of a scope (a
/// ``SectionedResultsController`` over ``BrowseScope``'s request) or a search
/// (``CatalogueSearch``, prefix mode), read a window at a time.
protocol InteractiveDataSource: AnyObject {
    /// What is listed.
    var entity: CatalogueEntity { get }
    /// The scope bar's choices.
    var scopes: [ScopeChoice] { get }

    /// Reads the list of `mode` for `text` and `scope`. Returns its layout and, when `id` is
    /// given and in the list, that record's position.
    func load(mode: InteractiveState.Mode, text: String, scope: ScopeChoice, locating id: Int64?) throws
        -> (layout: ListLayout, position: Int?)

    /// The rows at `positions` of the last loaded list, by position.
    func rows(_ positions: Range<Int>) throws -> [Int: ListRow]

    /// The detail view of the record at `position`, laid out for `width` cells.
    func detail(at position: Int, width: Int) throws -> DetailContent?
}

/// An ``InteractiveDataSource`` over one record type, configured per entity by
/// ``RecordListConfiguration``.
final class RecordListSource<R: Record>: InteractiveDataSource {
    let catalogue: Catalogue
    let configuration: RecordListConfiguration<R>
    /// Records read at once while searching (and the first page's size).
    static var windowSize: Int { 100 }

    private enum Current {
        case browse(SectionedResultsController<R>, ListLayout)
        case search(FetchRequest<R>, count: Int)
    }

    private var current: Current?
    private var controllers: [String: SectionedResultsController<R>] = [:]
    private var window: (start: Int, records: [R]) = (0, [])
    private var scope = ScopeChoice(title: "", key: "")

    init(catalogue: Catalogue, configuration: RecordListConfiguration<R>) {
        self.catalogue = catalogue
        self.configuration = configuration
    }

    var entity: CatalogueEntity { configuration.entity }
    var scopes: [ScopeChoice] { configuration.scopes }

    func load(mode: InteractiveState.Mode, text: String, scope: ScopeChoice, locating id: Int64?) throws
        -> (layout: ListLayout, position: Int?) {
        self.scope = scope
        let columns = configuration.columns(scope)
        switch mode {
        case .search:
            let request = configuration.searchRequest(text, scope)
            let results = try catalogue.search(request, limit: Self.windowSize)
            current = .search(request, count: results.totalCount)
            window = (0, results.records)
            var position: Int?
            if let id {
                position = results.records.firstIndex { $0.id == id }
                if position == nil, results.totalCount > results.records.count {
                    position = try catalogue.read { try $0.fetchIDs(request) }.firstIndex(of: id)
                }
            }
            return (ListLayout(count: results.totalCount, columns: columns, summary: results.summary), position)
        case .browse:
            let controller = try controller(for: scope)
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
                columns: columns, summary: count == 0 ? "No items found" : configuration.noun(count))
            current = .browse(controller, layout)
            let position = id.flatMap { controller.indexPath(forID: $0) }.map { sections[$0.section].offset + $0.row }
            return (layout, position)
        }
    }

    func rows(_ positions: Range<Int>) throws -> [Int: ListRow] {
        var rows: [Int: ListRow] = [:]
        for position in positions {
            guard let record = try record(at: position) else { continue }
            rows[position] = ListRow(id: record.id, cells: configuration.cells(record, scope))
        }
        return rows
    }

    func detail(at position: Int, width: Int) throws -> DetailContent? {
        try record(at: position).map { try configuration.detail($0, width) }
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
        case .search(let request, let count)?:
            guard position >= 0, position < count else { return nil }
            if position < window.start || position >= window.start + window.records.count {
                // Read a window around the position, so scrolling either way stays in it.
                var page = request
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

    /// The browse controller of `scope`, made once per scope.
    private func controller(for scope: ScopeChoice) throws -> SectionedResultsController<R> {
        if let controller = controllers[scope.key] { return controller }
        var request = try configuration.browseRequest(scope)
        request.fetchBatchSize = 64
        let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: request)
        controllers[scope.key] = controller
        return controller
    }
}

/// What differs between the entities in the interactive mode: scopes, requests, columns,
/// cells and the detail view.
struct RecordListConfiguration<R: Record> {
    var entity: CatalogueEntity
    var scopes: [ScopeChoice]
    /// The sectioned request of a scope (``BrowseScope``).
    var browseRequest: (ScopeChoice) throws -> FetchRequest<R>
    /// The search request for text in a scope (``CatalogueSearch``, prefix mode).
    var searchRequest: (String, ScopeChoice) -> FetchRequest<R>
    var columns: (ScopeChoice) -> [ListColumn]
    var cells: (R, ScopeChoice) -> [String]
    /// The detail view of a record for a width.
    var detail: (R, Int) throws -> DetailContent
    /// "250 countries".
    var noun: (Int) -> String
}
