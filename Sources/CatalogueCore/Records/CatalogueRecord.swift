/// One of the catalogue's entities (``Country``, ``Product``): a record that can be imported,
/// exported, searched by scope and listed, described by its ``EntityDescriptor``.
///
/// Code that works on "an entity" (the CLI, the terminal UI, the server) is written once,
/// generic over `R: CatalogueRecord`, and reaches the type from a ``CatalogueEntity``:
///
/// ```swift
/// func count<R: CatalogueRecord>(_ type: R.Type, in catalogue: Catalogue) throws -> String {
///     R.entity.count(try catalogue.fetchCount(FetchRequest<R>()))
/// }
/// try count(CatalogueEntity.products.recordType, in: catalogue)  // "74 products"
/// ```
public protocol CatalogueRecord: ImportableRecord, Codable {
    /// The entity's descriptor.
    static var entity: EntityDescriptor<Self> { get }

    /// The request for `text` in the scope with key `scope` (nil: the default) and `mode`, with
    /// the repository's semantics (``CatalogueSearch``). Throws ``SearchScopeError`` for an
    /// unknown scope key.
    static func searchRequest(matching text: String, scope: String?, mode: MatchMode) throws -> FetchRequest<Self>

    /// Up to five values of the scope with key `scope` close to `text`, for a search that found
    /// nothing ("did you mean: Colombia?"; `CatalogueSearch.suggestions(for:scope:in:limit:)`).
    ///
    /// ```swift
    /// let names = try catalogue.read { db in try Country.suggestions(for: "Columbia", scope: nil, in: db) }  // ["Colombia"]
    /// ```
    static func suggestions(for text: String, scope: String?, in db: some CatalogueReading) throws -> [String]
}

/// A search scope that the entity does not have, or (``isSearchOnly``) a scope that only
/// searches where a sectioned list was asked for.
///
/// Its description names the valid scopes, and the one a mistyped scope most likely meant:
///
/// ```swift
/// String(describing: SearchScopeError(scope: "captial", entity: .countries, validScopes: ["name", "capital", "any"]))
/// // unknown scope 'captial' for countries (did you mean 'capital'?); valid scopes: name, capital, any
/// ```
public struct SearchScopeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The scope as given.
    public let scope: String
    /// The entity.
    public let entity: CatalogueEntity
    /// The scopes it has (for a sectioned list: those with one).
    public let validScopes: [String]
    /// Whether the scope exists but has no sectioned list (a country's `any`).
    public let isSearchOnly: Bool

    /// An error for `scope` of `entity`, listing `validScopes`.
    public init(scope: String, entity: CatalogueEntity, validScopes: [String], isSearchOnly: Bool = false) {
        self.scope = scope
        self.entity = entity
        self.validScopes = validScopes
        self.isSearchOnly = isSearchOnly
    }

    /// How many valid scopes the message lists; more are counted ("… and 9,980 more"): a
    /// catalogue may hold thousands of product types.
    public static let listedScopeLimit = 20

    public var description: String {
        var valid = validScopes.prefix(Self.listedScopeLimit).joined(separator: ", ")
        if validScopes.count > Self.listedScopeLimit {
            valid += " and \(FieldFormat.grouped(Int64(validScopes.count - Self.listedScopeLimit))) more"
        }
        if isSearchOnly {
            return "scope '\(scope)' of \(entity.rawValue) is for searching only, it has no sections; sectioned scopes: \(valid)"
        }
        let noun = entity == .products ? "product type" : "scope"
        let guess = ClosestName.closest(to: scope, among: validScopes).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown \(noun) '\(scope)' for \(entity.rawValue)\(guess); valid scopes: \(valid)"
    }
}

extension CatalogueEntity {
    /// The tables the catalogue's own entities are stored in (`country`, `country_alias`,
    /// `product`): what the catalogue's migrations name, as against an app's tables.
    package static var catalogueTables: Set<String> {
        Set(allCases.flatMap { entity in [entity.recordType.schema.table] + (entity.recordType.schema.aliases.map { [$0.table] } ?? []) })
    }

    /// The record type of the entity.
    ///
    /// ```swift
    /// let type = CatalogueEntity.countries.recordType   // Country.self
    /// ```
    public var recordType: any CatalogueRecord.Type {
        switch self {
        case .countries: Country.self
        case .products: Product.self
        }
    }
}
