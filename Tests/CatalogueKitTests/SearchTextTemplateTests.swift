@testable import CatalogueCore
import CatalogueKit
import Testing

/// ``SearchTextTemplate``: SQL compiled once, with the text's key and successor bound per text.
@Suite("Search text templates")
struct SearchTextTemplateTests {
    @Test("A prefix search's page binds the key, its successor and constants in place; every text gives the compiled SQL")
    func prefixTemplate() throws {
        func compile(_ text: String) throws -> SQLFragment {
            var request = CatalogueSearch.countries(matching: text, scope: .name)
            request.fetchLimit = 20
            return try request.selectSQL()
        }
        let template = try #require(try SearchTextTemplate(compile))
        // The name and the aliases are both compared: two key ranges, then LIMIT and OFFSET.
        #expect(template.slots == [.folded, .successor, .folded, .successor, .constant(.integer(20)), .constant(.integer(0))])
        for text in ["bog", "Côte d'", " UNITED ", "ﬁ", "Ελλ", "%_", "'; DROP TABLE country; --"] {
            let bindings = try #require(SearchTextTemplate.bindings(for: text))
            #expect(template.fragment(folded: bindings.folded, successor: bindings.successor) == (try compile(text)), "\(text)")
        }
    }

    @Test("Texts of another shape have no bindings: empty once trimmed, NUL, no successor")
    func otherShapes() {
        #expect(SearchTextTemplate.bindings(for: "") == nil)
        #expect(SearchTextTemplate.bindings(for: " \t ") == nil)
        #expect(SearchTextTemplate.bindings(for: "a\u{0}") == nil)
        #expect(SearchTextTemplate.bindings(for: "\u{10FFFF}") == nil)
        #expect(SearchTextTemplate.bindings(for: " Bogó ").map { [$0.folded, $0.successor] } == ["bogo", "bogp"])
    }

    @Test("No template when the SQL or an argument depends on the text in another way")
    func noTemplate() throws {
        // The SQL changes with the text (a LIKE pattern's literal prefix decides a range).
        #expect(try SearchTextTemplate { text in
            try FetchRequest<Product>(predicate: .like("name", text.count > 3 ? text : "x%")).selectSQL()
        } == nil)
        // An argument that is neither constant, nor the key, nor its successor.
        #expect(try SearchTextTemplate { text in
            try FetchRequest<Product>(predicate: .equals("name", text)).selectSQL()
        } == nil)
        // The key folded another way ([c] only keeps diacritics).
        #expect(try SearchTextTemplate { text in
            try FetchRequest<Product>(predicate: .beginsWith("name", text, options: .caseInsensitive)).selectSQL()
        } == nil)
        // The text's length as an argument: the sentinels differ in length.
        #expect(try SearchTextTemplate { text in
            try FetchRequest<Product>(predicate: .and([
                .beginsWith("name", text, options: .caseAndDiacriticInsensitive), .equals("year", Int64(text.count)),
            ])).selectSQL()
        } == nil)
    }
}
