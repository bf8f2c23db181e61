import ArgumentParser
import CatalogueKit

/// The sectioned view `browse`, `index` and the interactive mode show for an entity and scope.
enum BrowseScope {
    /// Countries by name, or by capital (countries without one left out).
    static func countryRequest(scope: String?) throws -> FetchRequest<Country> {
        let scope = try scope.map { text -> CountryScope in
            guard let scope = CountryScope(rawValue: text.lowercased()) else {
                throw ValidationError(
                    "unknown scope '\(text)' for countries; valid scopes: \(CountryScope.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return scope
        } ?? .name
        switch scope {
        case .name, .any:
            return FetchRequest(sortDescriptors: FetchSortDescriptor.byName)
        case .capital:
            return FetchRequest(
                predicate: .notEquals("capital", nil),
                sortDescriptors: [
                    FetchSortDescriptor("capital", options: .caseAndDiacriticInsensitive), FetchSortDescriptor("capital"), FetchSortDescriptor("id"),
                ])
        }
    }

    /// Products of every type, or of one type (checked against the catalogue's types).
    static func productRequest(scope: String?, catalogue: Catalogue) throws -> FetchRequest<Product> {
        var request = FetchRequest<Product>(sortDescriptors: FetchSortDescriptor.byName)
        if let scope, case .type(let type) = ProductScope(parsing: scope) {
            let types = try catalogue.productTypes()
            guard types.contains(where: { Folding.fold($0) == Folding.fold(type) }) else {
                throw ValidationError(
                    "unknown product type '\(type)'; valid scopes: \((["all"] + types).joined(separator: ", "))")
            }
            request.predicate = .equals("type", type, options: .caseAndDiacriticInsensitive)
        }
        return request
    }
}
