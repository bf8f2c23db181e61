#if Server
import CatalogueKit
import Foundation
import Testing
@testable import CatalogueServer

/// The hand-written JSON of the hot answers says what the records' Codable form says.
@Suite("JSON writer")
struct JSONWriterTests {
    static func object(_ bytes: [UInt8]) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
    }

    @Test("Every seeded country and product is written as JSONEncoder writes its Codable form")
    func records() throws {
        let catalogue = try Catalogue(path: ":memory:")
        var countries = try catalogue.fetch(FetchRequest<Country>())
        countries.append(Country(code: "QQ", name: "Quote \"q\" \\ back\nslash\t\u{1}", aliases: []))
        for country in countries {
            var json = JSONWriter()
            json.record(country)
            #expect(try Self.object(json.bytes) == Self.object(Array(JSONEncoder().encode(country))), "\(country.code)")
        }
        let products = try catalogue.fetch(FetchRequest<Product>()) + [Product(id: 9, name: "Nil fields", type: "x")]
        for product in products {
            var json = JSONWriter()
            json.record(product)
            #expect(try Self.object(json.bytes) == Self.object(Array(JSONEncoder().encode(product))), "\(product.name)")
        }
    }

    @Test("Strings are escaped, numbers written as JSON numbers, non-finite numbers as null")
    func values() throws {
        var json = JSONWriter()
        json.array { json in
            json.string("a\"b\\c\n\r\t\u{0}\u{1F}é🇨🇴")
            json.number(499)
            json.number(0.1)
            json.number(1e20)
            json.number(.nan)
            json.number(.infinity)
            json.integer(Int64.min)
            json.integer(0)
            json.integer(Int64.max)
            json.bool(false)
            json.null()
            json.object { _ in }
            json.array { _ in }
        }
        #expect(String(decoding: json.bytes, as: UTF8.self)
            == #"["a\"b\\c\n\r\t\u0000\u001fé🇨🇴",499,0.1,1e+20,null,null,-9223372036854775808,0,9223372036854775807,false,null,{},[]]"#)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [Any])
        #expect(parsed.first as? String == "a\"b\\c\n\r\t\u{0}\u{1F}é🇨🇴")
    }
}
#endif
