import CatalogueKit

/// Where a `catalogue search` that found nothing would find something: the entity's other
/// scopes, then the other entity, as a scope bar's counts would show them ("Name 0 · Capital 1");
/// found in neither, another match mode in the scope searched.
///
/// ```
/// $ catalogue search bogota
/// No items found
/// found with --scope capital: 1 country
/// $ catalogue search ipad
/// No items found
/// found with --entity products: 2 products
/// $ catalogue search salvador
/// No items found
/// found with --match words: 1 country
/// ```
enum SearchElsewhereHint {
    /// Counting stops here: "more than 1,000 products".
    static let countCap = 1_000

    /// The lines for `text` searched with `mode`, which found nothing in `scope` of `type`: one
    /// per option that would find something (the scopes that do on one line), none when nothing
    /// does. Search-only scopes (a country's `any`) are left out; so is the default scope when
    /// a type scope was searched, and the type scopes when the default scope was (it holds
    /// every type, so they find nothing it did not). When neither finds it, the first of
    /// `mode.fallbacks(for:)` that finds the text in `scope` (`MatchMode.firstFallback(for:counting:)`).
    static func lines<R: CatalogueRecord>(
        text: String, mode: MatchMode, scope: SearchScope, of type: R.Type, in catalogue: Catalogue
    ) throws -> [String] {
        var lines: [String] = []
        let defaultKey = R.entity.defaultScope.key
        let scopes = scope.key == defaultKey ? R.entity.scopes : try catalogue.scopes(of: type)
        let others = scopes.filter { other in
            other.key != scope.key && other.isBrowsable && !(scope.typeValue != nil && other.key == defaultKey)
        }
        let counts = try catalogue.counts(of: others, limit: .capped(at: countCap)) {
            try R.searchRequest(matching: text, scope: $0.key, mode: mode)
        }
        let found = zip(others, counts).filter { $0.1 > 0 }.map { "with --scope \($0.0.key): \(described($0.1, of: type))" }
        if !found.isEmpty {
            lines.append("found " + found.joined(separator: "; "))
        }
        for entity in CatalogueEntity.allCases where entity != R.entity.entity {
            if let line = try otherEntityLine(text: text, mode: mode, of: entity.recordType, in: catalogue) {
                lines.append(line)
            }
        }
        if lines.isEmpty, let line = try otherModeLine(text: text, mode: mode, scope: scope, of: type, in: catalogue) {
            lines.append(line)
        }
        return lines
    }

    /// "found with --match words: 1 country", for `mode.firstFallback(for: text)` in `scope`.
    private static func otherModeLine<R: CatalogueRecord>(
        text: String, mode: MatchMode, scope: SearchScope, of type: R.Type, in catalogue: Catalogue
    ) throws -> String? {
        let found = try mode.firstFallback(for: text) { other in
            try catalogue.counts(of: [scope], limit: .capped(at: countCap)) {
                try R.searchRequest(matching: text, scope: $0.key, mode: other)
            }[0]
        }
        return found.map { "found with --match \($0.mode.rawValue): \(described($0.count, of: type))" }
    }

    /// "found with --entity products: 11 products", when the default scope of `type` finds any.
    private static func otherEntityLine<R: CatalogueRecord>(
        text: String, mode: MatchMode, of type: R.Type, in catalogue: Catalogue
    ) throws -> String? {
        let scope = R.entity.defaultScope
        let count = try catalogue.counts(of: [scope], limit: .capped(at: countCap)) {
            try R.searchRequest(matching: text, scope: $0.key, mode: mode)
        }[0]
        return count > 0 ? "found with --entity \(R.entity.entity.rawValue): \(described(count, of: type))" : nil
    }

    /// "1 country", "more than 1,000 products".
    private static func described<R: CatalogueRecord>(_ count: Int, of type: R.Type) -> String {
        count > countCap ? "more than \(R.entity.count(countCap))" : R.entity.count(count)
    }
}
