import ArgumentParser
import CatalogueKit

/// The sectioned list `browse`, `index` and the interactive mode show for a scope: the
/// entity's browse request (``EntityDescriptor/browseRequest(_:)``) in a sectioned results
/// controller.
enum BrowseScope {
    /// The controller of the scope named `key` (nil: the default); throws ``SearchScopeError``
    /// for an unknown scope, or one that only searches.
    static func controller<R: CatalogueRecord>(
        _ type: R.Type, scope key: String?, catalogue: Catalogue
    ) throws -> SectionedResultsController<R> {
        let scope = try catalogue.scope(key, of: type, browsing: true)
        return SectionedResultsController(catalogue: catalogue, fetchRequest: R.entity.browseRequest(scope))
    }

    /// Refuses, before the catalogue is opened, a scope that cannot exist or has no sections.
    static func validate<R: CatalogueRecord>(_ key: String?, of type: R.Type) throws {
        _ = try usageError { try R.entity.fixedScope(key, browsing: true) }
    }

    /// Runs `body`, reporting a ``SearchScopeError`` as a usage error (exit code 2) from a
    /// command's `validate()`.
    static func usageError<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SearchScopeError {
            throw ValidationError(error.description)
        }
    }
}
