import CatalogueKit
@testable import CatalogueCommands

extension ScopeChoice {
    /// The countries' sectioned scopes: by name (and aliases), or by capital.
    static let countryScopes = Country.entity.scopes.filter(\.isBrowsable).map(ScopeChoice.init)

    /// Every product, then one choice per type ("Device" for "device").
    static func productScopes(types: [String]) -> [ScopeChoice] {
        Product.entity.scopes.map(ScopeChoice.init) + types.map { ScopeChoice(Product.entity.typeScope($0)) }
    }
}

/// Layouts and states for the interactive mode's unit tests, without a database.
enum InteractiveFixtures {
    /// A sectioned layout: `sections` as (title, count), with a jump table like the library's
    /// (a letter without a section jumps to the next one, else the last).
    static func browseLayout(_ sections: [(String, Int)]) -> ListLayout {
        var offset = 0
        let listSections = sections.map { title, count in
            defer { offset += count }
            return ListSection(title: title, offset: offset, count: count)
        }
        let alphabet = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) } + ["#"]
        var jumpTable: [String: Int] = [:]
        for (rank, letter) in alphabet.enumerated() {
            let next = listSections.firstIndex { (alphabet.firstIndex(of: $0.title) ?? alphabet.count) >= rank }
            jumpTable[letter] = next ?? listSections.count - 1
        }
        return ListLayout(
            count: offset, sections: listSections, indexTitles: listSections.map(\.title), jumpTable: jumpTable,
            columns: [ListColumn(title: "Name"), ListColumn(title: "Capital", width: 22)],
            summary: "\(offset) countries")
    }

    /// An unsectioned search layout of `count` records.
    static func searchLayout(count: Int) -> ListLayout {
        ListLayout(
            count: count, columns: [ListColumn(title: "Name"), ListColumn(title: "Capital", width: 22)],
            summary: count == 0 ? "No items found" : count == 1 ? "1 item found" : "\(count) items found")
    }

    /// Countries browsing 16 A, 20 B, 23 C, 4 D, 1 Y and 2 Z, in an 80×24 terminal.
    static func browsingState() -> InteractiveState {
        var state = InteractiveState(entity: .countries, scopes: ScopeChoice.countryScopes)
        state.apply(browseLayout([("A", 16), ("B", 20), ("C", 23), ("D", 4), ("Y", 1), ("Z", 2)]))
        return state
    }

    /// Searching with `count` results, in an 80×24 terminal.
    static func searchingState(text: String = "co", count: Int = 15) -> InteractiveState {
        var state = InteractiveState(entity: .countries, scopes: ScopeChoice.countryScopes)
        state.mode = .search
        state.searchText = text
        state.apply(searchLayout(count: count), selecting: 0)
        return state
    }

    /// Rows "Name N" / "Capital N" for every position of `state`'s list.
    static func rows(for state: InteractiveState, names: [String] = []) -> [Int: ListRow] {
        var rows: [Int: ListRow] = [:]
        for position in 0..<state.list.count {
            let name = position < names.count ? names[position] : "Country \(position)"
            rows[position] = ListRow(id: Int64(position + 1), cells: [name, "Capital \(position)"])
        }
        return rows
    }
}
