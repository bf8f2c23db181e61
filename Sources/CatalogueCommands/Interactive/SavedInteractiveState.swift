import CatalogueKit

/// What the interactive mode restores on the next launch with the same database and entity
/// (and when switching back to the entity in a session): whether search was active, its text,
/// the match mode, the scope and the selected record.
///
/// ```json
/// {"matchMode":"prefix","searchActive":true,"searchText":"co","scope":"name","selectedID":48,"selectedPosition":0}
/// ```
struct SavedInteractiveState: Codable, Equatable, Sendable {
    var searchActive: Bool
    var searchText: String
    /// The match mode; nil in files written before it was saved (prefix).
    var matchMode: MatchMode?
    /// The scope's key ("name", "capital", "all", a product type).
    var scope: String
    /// The selected record's id; nil when the list was empty.
    var selectedID: Int64?
    /// The selected record's position, used when the id is no longer in the list.
    var selectedPosition: Int
}

extension InteractiveState {
    /// The part of this state that is saved.
    var saved: SavedInteractiveState {
        SavedInteractiveState(
            searchActive: isSearching, searchText: searchText, matchMode: matchMode, scope: scope.key,
            selectedID: list.count > 0 ? selectedID : nil, selectedPosition: selection)
    }

    /// Takes the mode, text and scope of `saved` (an unknown scope falls back to the first);
    /// the run loop then loads the list and selects the saved record.
    mutating func restore(_ saved: SavedInteractiveState) {
        mode = saved.searchActive ? .search : .browse
        // A file saved before the limit, or edited by hand, may hold a longer text.
        searchText = String(String.UnicodeScalarView(saved.searchText.unicodeScalars.prefix(Self.maximumSearchLength)))
        matchMode = saved.matchMode ?? .prefix
        scopeIndex = scopes.firstIndex { $0.key == saved.scope } ?? 0
        selectedID = saved.selectedID
        selection = max(0, saved.selectedPosition)
    }
}
