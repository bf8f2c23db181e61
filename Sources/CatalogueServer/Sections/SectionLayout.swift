#if Server
import CatalogueCore

/// The sections of a search, as ``SectionedResultsController`` forms them: by the initial
/// letter (after case and diacritic folding) of the field the results are ordered by, A–Z, with
/// everything else (and a missing value) under `#`, last (``InitialLetterSectionRule``). A
/// ranked search (`words`) has one untitled section.
///
/// Each section is a range of the field's folded key, so a section's count and its rows are
/// index range scans: `A` is `key >= 'a' AND key < 'b'`, `#` is below `a`, from `{` on, or NULL.
///
/// ```swift
/// let layout = SectionLayout(search: SearchQuery(text: "co"), request: request)
/// layout.titles                      // ["A", …, "Z", "#"]
/// layout.request(forSection: "S")    // the search, limited to names folding to s…
/// ```
struct SectionLayout<R: ServedRecord>: Sendable {
    /// The section field: `name`, or `capital` for a capital search.
    let field: String
    /// Whether the search is ranked: one untitled section.
    let isRanked: Bool
    /// The search, ordered by the section field (its own order when ranked).
    let ordered: FetchRequest<R>
    let rule = InitialLetterSectionRule()

    init(search: SearchQuery, request: FetchRequest<R>) {
        field = R.sectionField(for: search)
        isRanked = request.sortDescriptors.contains { $0.column == nil }
        var ordered = request
        ordered.fetchLimit = nil
        ordered.fetchOffset = 0
        if !isRanked {
            ordered.sortDescriptors = [
                FetchSortDescriptor(field, options: .caseAndDiacriticInsensitive), FetchSortDescriptor(field), FetchSortDescriptor("id"),
            ]
        }
        self.ordered = ordered
    }

    /// Every section title there may be, in order: A–Z and `#`, or the untitled section.
    var titles: [String] {
        isRanked ? [""] : rule.indexTitles
    }

    /// The index the page shows beside the list: the full A–Z and `#`; none when ranked.
    var indexTitles: [String] {
        isRanked ? [] : rule.indexTitles
    }

    /// The search limited to section `title`, in section order; nil for a title this layout
    /// does not have.
    func request(forSection title: String) -> FetchRequest<R>? {
        if isRanked { return title.isEmpty ? ordered : nil }
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        let condition: FetchPredicate
        if title == InitialLetterSectionRule.otherSection {
            condition = .or([
                .comparison(column: field, operator: .lessThan, value: .text("a"), options: cd),
                .comparison(column: field, operator: .greaterThanOrEqual, value: .text("{"), options: cd),
                .equals(field, nil),
            ])
        } else if InitialLetterSectionRule.letters.contains(title) {
            condition = .beginsWith(field, title.lowercased(), options: cd)
        } else {
            return nil
        }
        var request = ordered
        request.predicate = ordered.predicate && condition
        return request
    }

    /// The section `record` belongs in, when it is among the results.
    func title(of record: R) -> String {
        if isRanked { return "" }
        let value: String? = switch R.entity.fields.first(where: { $0.name == field })?.value(record) {
        case .text(let text)?: text
        default: nil
        }
        let first = value?.unicodeScalars.first
        let foldedFirst = value.flatMap { Folding.fold($0).unicodeScalars.first }
        return rule.sectionName(first: first, foldedFirst: foldedFirst)
    }

    /// The section named by a path segment: `-` is the untitled section; a letter is compared
    /// ignoring case and diacritics, as `catalogue browse --section` compares it (`é` is `E`).
    func title(fromPathSegment segment: String) -> String? {
        if segment == "-" { return isRanked ? "" : nil }
        let wanted = Folding.fold(segment)
        return titles.first { !$0.isEmpty && Folding.fold($0) == wanted }
    }
}
#endif
