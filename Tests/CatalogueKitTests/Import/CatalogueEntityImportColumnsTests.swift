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

    @Test("An import's unknown-column issue names the entity that owns the column; other issues name none")
    func issueOwner() throws {
        let catalogue = try Catalogue(path: ":memory:")
        let input = ImportInput(text: "name,type\nKazoo,music\n", name: "p.csv")
        var issue: ImportIssue?
        do {
            _ = try catalogue.importRecords(Country.self, from: input, options: ImportOptions(format: .csv))
        } catch let error as ImportIssue {
            issue = error
        }
        let refused = try #require(issue)
        #expect(refused.entityOwningUnknownColumn(importing: .countries) == .products)
        let other = ImportIssue(source: "p.csv", line: 2, column: "type", reason: "must not be empty")
        #expect(other.entityOwningUnknownColumn(importing: .countries) == nil)
    }

    @Test("The column names are the record types' import columns")
    func names() {
        #expect(CatalogueEntity.products.importColumnNames == ["id", "name", "type", "year", "price"])
        #expect(CatalogueEntity.countries.importColumnNames == Country.importColumns.map(\.name))
    }
}
