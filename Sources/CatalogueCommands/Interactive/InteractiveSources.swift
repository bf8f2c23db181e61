import CatalogueKit

/// The interactive mode's list of each entity, made when first shown and kept, so switching
/// entities (Ctrl-E) does not read the scopes again.
final class InteractiveSources {
    let catalogue: Catalogue
    private var sources: [CatalogueEntity: any InteractiveDataSource] = [:]
    private let makeSource: (CatalogueEntity) throws -> any InteractiveDataSource

    /// Each entity's list over `catalogue`.
    convenience init(catalogue: Catalogue) {
        self.init(catalogue: catalogue) { try Self.source(for: $0, catalogue: catalogue) }
    }

    /// Each entity's list made by `makeSource` (tests wrap the real sources to count reads).
    init(catalogue: Catalogue, makeSource: @escaping (CatalogueEntity) throws -> any InteractiveDataSource) {
        self.catalogue = catalogue
        self.makeSource = makeSource
    }

    /// The source of `entity`.
    func source(for entity: CatalogueEntity) throws -> any InteractiveDataSource {
        if let source = sources[entity] { return source }
        let source = try makeSource(entity)
        sources[entity] = source
        return source
    }

    /// A new source for `entity`: the one generic source, over the entity's record type.
    static func source(for entity: CatalogueEntity, catalogue: Catalogue) throws -> any InteractiveDataSource {
        try makeSource(entity.recordType, catalogue: catalogue)
    }

    private static func makeSource<R: CatalogueRecord>(_ type: R.Type, catalogue: Catalogue) throws -> any InteractiveDataSource {
        try RecordListSource<R>(catalogue: catalogue)
    }
}
