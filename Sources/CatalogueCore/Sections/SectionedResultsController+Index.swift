/// Where a tap on the section index goes.
public enum SectionIndexTarget: Sendable, Hashable {
    /// The search entry: scroll to the top, where the search field is.
    case top
    /// The section at this index.
    case section(Int)
}

extension SectionedResultsController {
    /// The title of the search entry of a section index (UIKit's `UITableViewIndexSearch`).
    public static var searchIndexTitle: String { "{search}" }

    /// The index titles of the sections, in order; empty while searching (search shows no
    /// index).
    public var sectionIndexTitles: [String] {
        sectionIndexTitles()
    }

    /// The section index: the sections' titles (or, with `fullAlphabet`, every title of the
    /// rule, A–Z and #), optionally after a leading search entry.
    ///
    /// ```swift
    /// controller.sectionIndexTitles(includingSearch: true)  // ["{search}", "A", "B", …]
    /// ```
    public func sectionIndexTitles(includingSearch: Bool = false, fullAlphabet: Bool = false) -> [String] {
        let (sections, searching) = state.withLock { ($0.snapshot.sections, $0.search != nil) }
        guard !searching else { return [] }
        var titles = sections.compactMap(\.indexTitle)
        if fullAlphabet {
            let extra = titles.filter { !rule.indexTitles.contains($0) }
            titles = rule.indexTitles + extra
            if fetchRequest.sortDescriptors.first?.ascending == false { titles.reverse() }
        }
        return includingSearch ? [Self.searchIndexTitle] + titles : titles
    }

    /// The section to show for a tap on index entry `title` at `index` (UIKit's
    /// `sectionForSectionIndexTitle:atIndex:`).
    ///
    /// With `includingSearch`, entry 0 is the search entry and returns ``SectionIndexTarget/top``;
    /// every other entry then sits one place after its section. A title with a section of its own
    /// returns that section; a title without one (a letter of a full A–Z index that no record
    /// starts with) returns the nearest following section, else the last. Nil when there are no
    /// sections.
    ///
    /// ```swift
    /// controller.section(forSectionIndexTitle: "{search}", at: 0, includingSearch: true)  // .top
    /// controller.section(forSectionIndexTitle: "X", at: 24, includingSearch: true)       // .section(of "Y")
    /// ```
    public func section(forSectionIndexTitle title: String, at index: Int, includingSearch: Bool = false) -> SectionIndexTarget? {
        if includingSearch, index == 0 || title == Self.searchIndexTitle {
            return .top
        }
        let sections = self.sections
        guard !sections.isEmpty else { return nil }
        if let exact = sections.firstIndex(where: { $0.indexTitle == title }) {
            return .section(exact)
        }
        let descending = fetchRequest.sortDescriptors.first?.ascending == false
        let rank = rule.rank(of: title)
        let following = sections.firstIndex { section in
            descending ? rule.rank(of: section.name) < rank : rule.rank(of: section.name) > rank
        }
        return .section(following ?? sections.count - 1)
    }
}
