import CatalogueKit
import Testing

/// ``CatalogueEntity/entity(owningUnknownColumn:)``: which entity a stray column belongs to.
@Suite("Import columns by entity")
struct CatalogueEntityImportColumnsTests {
    @Test("A column of the other entity names it; a shared or unknown column names none", arguments: [
        (CatalogueEntity.countries, "type", CatalogueEntity.products as CatalogueEntity?),
        (.countries, " Year ", .products),
        (.products, "code", .countries),
        (.products, "capital", .countries),
        (.products, "name", nil),
        (.countries, "id", nil),
        (.products, "colour", nil),
    ])
    func owner(entity: CatalogueEntity, column: String, expected: CatalogueEntity?) {
        #expect(entity.entity(owningUnknownColumn: column) == expected)
    }

    @Test("The column names are the record types' import columns")
    func names() {
        #expect(CatalogueEntity.products.importColumnNames == ["id", "name", "type", "year", "price"])
        #expect(CatalogueEntity.countries.importColumnNames == Country.importColumns.map(\.name))
    }
}
