@testable import CatalogueCore
import CatalogueKit
@testable import CatalogueSQLite
import Testing

/// The SQL each record schema writes with: every written column, keys last, natural keys found.
@Suite("Record SQL")
struct RecordSQLTests {
    @Test("Product: keys are written after the columns, in column order")
    func product() {
        let sql = Product.schema.sql
        #expect(sql.insert == "INSERT INTO product (name, type, year, price, name_key, type_key) VALUES (?, ?, ?, ?, ?, ?)")
        #expect(sql.update == "UPDATE product SET name = ?, type = ?, year = ?, price = ?, name_key = ?, type_key = ? WHERE id = ?")
        #expect(sql.findByNaturalKey == "SELECT product.id, product.name, product.type, product.year, product.price FROM product WHERE name = ? AND type_key = ?")
        #expect(sql.naturalKeyIndexes == [0, 5])
        #expect(sql.insertAlias == nil && sql.deleteAliases == nil)
    }

    @Test("Country: aliases have their own statements")
    func country() {
        let sql = Country.schema.sql
        #expect(sql.insert.hasSuffix(", aliases, name_key, capital_key) VALUES (\(Array(repeating: "?", count: 22).joined(separator: ", ")))"))
        #expect(sql.naturalKeyIndexes == [0])
        #expect(sql.insertAlias == "INSERT OR IGNORE INTO country_alias (country_id, alias, alias_key) VALUES (?, ?, ?)")
        #expect(sql.deleteAliases == "DELETE FROM country_alias WHERE country_id = ?")
    }

    @Test("Written values append the folded keys, NULL for NULL")
    func writtenValues() {
        let values = Product(name: "Crème brûlée", type: "Birthdays", year: nil, price: 9.5).writtenValues
        #expect(values == [.text("Crème brûlée"), .text("Birthdays"), .null, .real(9.5), .text("creme brulee"), .text("birthdays")])
        let country = Country(code: "XA", name: "Ærø").writtenValues
        #expect(country.suffix(2) == [.text(Folding.fold("Ærø")), .null])
    }

    @Test("Aliases are joined with \"; \" and split back, trimmed")
    func aliasJoining() {
        #expect(AliasTable.join(["Ivory Coast", "CI land"]) == "Ivory Coast; CI land")
        #expect(AliasTable.split("Ivory Coast; CI land") == ["Ivory Coast", "CI land"])
        #expect(AliasTable.split("") == [])
        #expect(AliasTable.split(" a ;; b ") == ["a", "b"])
    }
}
