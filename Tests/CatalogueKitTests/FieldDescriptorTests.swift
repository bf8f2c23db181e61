import CatalogueKit
import Testing

/// Which fields are numbers (tables align them right), through the public descriptors.
@Suite("Field descriptors")
struct FieldDescriptorTests {
    /// A host app's record, with a field of each kind of value type.
    private struct Reading: Sendable {
        var count: Int64
        var ratio: Double
        var label: String
        var note: String?
    }

    @Test("Int, Int64 and Double fields, optional or not, are numeric; text fields are not")
    func numericFields() {
        let country = Country.entity
        #expect(country.field(named: "population")?.isNumeric == true)   // Int?
        #expect(country.field(named: "area_km2")?.isNumeric == true)     // Double?
        for name in ["code", "name", "numeric_code", "capital", "languages", "aliases"] {
            #expect(country.field(named: name)?.isNumeric == false, "\(name)")
        }
        let product = Product.entity
        #expect(product.field(named: "year")?.isNumeric == true)
        #expect(product.field(named: "price")?.isNumeric == true)
        #expect(product.field(named: "name")?.isNumeric == false)

        #expect(FieldDescriptor<Reading>("count", label: "Count", \.count).isNumeric)
        #expect(FieldDescriptor<Reading>("ratio", label: "Ratio", \.ratio).isNumeric)
        #expect(!FieldDescriptor<Reading>("label", label: "Label", \.label).isNumeric)
        #expect(!FieldDescriptor<Reading>("note", label: "Note", \.note).isNumeric)
    }
}
