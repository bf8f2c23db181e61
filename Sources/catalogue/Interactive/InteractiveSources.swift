import Foundation
import CatalogueKit

/// The interactive mode's list of each entity: countries (scopes Name and Capital) and
/// products (All, then one scope per type in the catalogue).
enum InteractiveSources {
    /// The source for `entity`.
    static func source(for entity: CatalogueEntity, catalogue: Catalogue) throws -> any InteractiveDataSource {
        switch entity {
        case .countries: RecordListSource(catalogue: catalogue, configuration: countries(catalogue))
        case .products: RecordListSource(catalogue: catalogue, configuration: try products(catalogue))
        }
    }

    /// Countries: by name (aliases included while searching) or by capital.
    static func countries(_ catalogue: Catalogue) -> RecordListConfiguration<Country> {
        RecordListConfiguration(
            entity: .countries,
            scopes: ScopeChoice.countryScopes,
            browseRequest: { try BrowseScope.countryRequest(scope: $0.key) },
            searchRequest: { text, scope in
                CatalogueSearch.countries(matching: text, scope: CountryScope(rawValue: scope.key) ?? .name, mode: .prefix)
            },
            columns: { scope in
                let population = ListColumn(title: "Population", width: 13, alignRight: true)
                return scope.key == "capital"
                    ? [ListColumn(title: "Capital", width: 24), ListColumn(title: "Country"), population]
                    : [ListColumn(title: "Name"), ListColumn(title: "Capital", width: 22), population]
            },
            cells: { country, scope in
                let capital = country.capital ?? "—"
                let population = country.population.map(NumberText.grouped) ?? ""
                return scope.key == "capital" ? [capital, country.name, population] : [country.name, capital, population]
            },
            detail: { country, width in
                let codes = (country.neighbours ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                let neighbours = codes.isEmpty ? [] : try catalogue.read { db in
                    try db.fetch(FetchRequest<Country>(predicate: .in("code", codes)))
                }
                let names = Dictionary(neighbours.map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })
                let text = DetailView.country(
                    country, neighbourNames: codes.map { names[$0] ?? $0 }, style: TextStyle(enabled: false), width: width)
                return DetailContent(title: country.name, lines: bodyLines(text))
            },
            noun: { $0 == 1 ? "1 country" : "\($0) countries" })
    }

    /// Products: every product, or one type.
    static func products(_ catalogue: Catalogue) throws -> RecordListConfiguration<Product> {
        RecordListConfiguration(
            entity: .products,
            scopes: ScopeChoice.productScopes(types: try catalogue.productTypes()),
            browseRequest: { scope in
                try BrowseScope.productRequest(scope: scope.key == "all" ? nil : scope.key, catalogue: catalogue)
            },
            searchRequest: { text, scope in
                CatalogueSearch.products(matching: text, scope: ProductScope(parsing: scope.key), mode: .prefix)
            },
            columns: { _ in
                [ListColumn(title: "Name"), ListColumn(title: "Type", width: 10),
                 ListColumn(title: "Year", width: 4, alignRight: true), ListColumn(title: "Price", width: 10, alignRight: true)]
            },
            cells: { product, _ in
                [product.name, product.type, product.year.map { String($0) } ?? "",
                 product.price.map(NumberText.price) ?? ""]
            },
            detail: { product, width in
                let text = DetailView.product(product, style: TextStyle(enabled: false), width: width)
                return DetailContent(title: product.name, lines: bodyLines(text))
            },
            noun: { $0 == 1 ? "1 product" : "\($0) products" })
    }

    /// The lines of a `show` page after its title line (the screen draws the title itself) and
    /// the blank lines right after it.
    static func bodyLines(_ page: String) -> [String] {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        return lines.drop { $0.isEmpty }.map(String.init)
    }
}
