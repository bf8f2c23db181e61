#if Server
import Testing
@testable import CatalogueServer

/// Strict query-string decoding.
@Suite("Query strings")
struct QueryStringTests {
    @Test("Plus is a space, escapes are bytes, UTF-8 is checked; the first of repeated names wins")
    func decoding() throws {
        let query = QueryString("q=bog%C3%B3+x&scope=capital&q=second&empty=&bare&%71uoted=1")
        #expect(try query.value("q") == "bogó x")
        #expect(try query.value("scope") == "capital")
        #expect(try query.value("empty") == "")
        #expect(try query.value("bare") == "")
        #expect(try query.value("quoted") == "1")
        #expect(try query.value("missing") == nil)
        #expect(try QueryString(nil).value("q") == nil)
        #expect(try QueryString("q=a%2Bb%26c%3Dd").value("q") == "a+b&c=d")
    }

    @Test("Broken escapes and bytes that are not UTF-8 are refused", arguments: ["%", "%4", "%ZZ", "%G1", "%FF", "%C3", "%ED%A0%80", "a%C0%AFb"])
    func refused(_ value: String) {
        #expect(throws: APIError.self) { try QueryString("q=" + value).value("q") }
        #expect(QueryString.decode(Substring(value)) == nil)
    }

    @Test("Path segments keep their plus signs")
    func pathSegments() {
        #expect(QueryString.decodePathSegment("C%2B%2B+x") == "C+++x")
        #expect(QueryString.decodePathSegment("%23") == "#")
        #expect(QueryString.decodePathSegment("%ZZ") == nil)
    }
}
#endif
