import ArgumentParser
import CatalogueKit

/// The entity `browse` and `index` list: `--entity products`, or first, as `show`, `import` and
/// `export` take it: `catalogue browse products`. Countries when neither says.
///
/// ```swift
/// @OptionGroup var entityChoice: EntityChoice
/// var entity: CatalogueEntity { entityChoice.chosen }
/// ```
struct EntityChoice: ParsableArguments {
    @Argument(help: ArgumentHelp("The entity, as --entity names it.", visibility: .hidden))
    var named: CatalogueEntity?

    @Option(help: ArgumentHelp(
        "What to list: countries (the default) or products.",
        discussion: "It may also come first: catalogue browse products."))
    var entity: CatalogueEntity?

    /// The entity chosen.
    var chosen: CatalogueEntity {
        named ?? entity ?? .countries
    }

    func validate() throws {
        _ = try Self.given(named: named, option: entity)
    }

    /// The entity given first or by `--entity`, if either; a usage error when they differ.
    static func given(named: CatalogueEntity?, option: CatalogueEntity?) throws -> CatalogueEntity? {
        if let named, let option, named != option {
            throw ValidationError("'\(named.rawValue)' and --entity \(option.rawValue) name different entities; give one")
        }
        return named ?? option
    }
}
