/// The repository: the one place that turns an entity, a scope, search text and a match mode
/// into a ``FetchRequest``. The CLI, the interactive mode and sectioned results all search
/// through it, so they agree.
///
/// Semantics:
/// - the text is trimmed; empty text matches every record in the scope;
/// - countries: scope ``CountryScope/name`` matches the name or an alias (a country is listed
///   once, under its name), ``CountryScope/capital`` the capital, ``CountryScope/any`` either;
/// - products: scope ``ProductScope/all`` or one type, compared case-insensitively;
/// - the order is folded name, name, id; in the capital scope folded capital, capital, id
///   (``MatchMode/words`` and ``MatchMode/fuzzy``: relevance first);
/// - the capital scope holds the countries that have a capital (empty text lists those).
///
/// ```swift
/// let request = CatalogueSearch.countries(matching: "bog", scope: .capital)
/// let colombia = try catalogue.read { try $0.fetch(request) }.first
/// ```
public enum CatalogueSearch {
    /// Search text as searched: surrounding whitespace removed.
    public static func normalizedText(_ text: String) -> String {
        // Pure Swift (Foundation's trimming bridges through NSString): this runs per keystroke.
        guard let first = text.first, let last = text.last, first.isWhitespace || last.isWhitespace else {
            return text
        }
        var trimmed = Substring(text)
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        return String(trimmed)
    }

    /// The request for countries matching `text`.
    public static func countries(
        matching text: String, scope: CountryScope = .name, mode: MatchMode = .prefix
    ) -> FetchRequest<Country> {
        let text = normalizedText(text)
        let order = scope == .capital ? FetchSortDescriptor.by("capital") : FetchSortDescriptor.byName
        guard !text.isEmpty else {
            return FetchRequest(predicate: scope == .capital ? .notEquals("capital", nil) : .true, sortDescriptors: order)
        }
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        switch mode {
        case .prefix, .contains:
            let op: ComparisonOperator = mode == .prefix ? .beginsWith : .contains
            let name: FetchPredicate = .comparison(column: "name", operator: op, value: .text(text), options: cd)
                || .anyAlias(operator: op, value: text, options: cd)
            let capital: FetchPredicate = .comparison(column: "capital", operator: op, value: .text(text), options: cd)
            let predicate: FetchPredicate = switch scope {
            case .name: name
            case .capital: capital
            case .any: name || capital
            }
            return FetchRequest(predicate: predicate, sortDescriptors: order)
        case .words, .fuzzy:
            let columns: [String]? = switch scope {
            case .name: ["name", "aliases"]
            case .capital: ["capital"]
            case .any: nil
            }
            guard let pattern = FullTextPattern(
                matchingAllPrefixesIn: text, columns: columns, toleratingTypos: mode == .fuzzy)
            else {
                return FetchRequest(predicate: .false, sortDescriptors: order)
            }
            return FetchRequest(predicate: .fullText(pattern), sortDescriptors: [.relevance] + order)
        case .terms:
            let predicates = terms(in: text).map { term -> FetchPredicate in
                var alternatives: [FetchPredicate] = [
                    .contains("name", term, options: cd),
                    .contains("capital", term, options: cd),
                ]
                if let number = Int64(term) {
                    alternatives.append(.equals("population", number))
                }
                return .or(alternatives)
            }
            return FetchRequest(predicate: .and(predicates), sortDescriptors: order)
        }
    }

    /// The request for products matching `text`.
    public static func products(
        matching text: String, scope: ProductScope = .all, mode: MatchMode = .prefix
    ) -> FetchRequest<Product> {
        let text = normalizedText(text)
        let order = FetchSortDescriptor.byName
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        var conditions: [FetchPredicate] = []
        if case .type(let type) = scope {
            conditions.append(.equals("type", type, options: cd))
        }
        var sort = order
        if !text.isEmpty {
            switch mode {
            case .prefix:
                conditions.append(.beginsWith("name", text, options: cd))
            case .contains:
                conditions.append(.contains("name", text, options: cd))
            case .words, .fuzzy:
                if let pattern = FullTextPattern(matchingAllPrefixesIn: text, toleratingTypos: mode == .fuzzy) {
                    conditions.insert(.fullText(pattern), at: 0)
                    sort = [.relevance] + order
                } else {
                    conditions.append(.false)
                }
            case .terms:
                for term in terms(in: text) {
                    var alternatives: [FetchPredicate] = [.contains("name", term, options: cd)]
                    if let number = Int64(term) {
                        alternatives.append(.equals("year", number))
                        alternatives.append(.equals("price", Double(number)))
                    } else if let number = Double(term), number.isFinite {
                        alternatives.append(.equals("price", number))
                    }
                    conditions.append(.or(alternatives))
                }
            }
        }
        let predicate: FetchPredicate = conditions.count == 1 ? conditions[0] : .and(conditions)
        return FetchRequest(predicate: predicate, sortDescriptors: sort)
    }

    /// The whitespace-separated terms of `text`, in order.
    /// Duplicates are dropped: every term must match, so a repeated term adds nothing.
    public static func terms(in text: String) -> [String] {
        var seen: Set<Substring> = []
        return text.split(whereSeparator: { $0.isWhitespace }).filter { seen.insert($0).inserted }.map(String.init)
    }
}
