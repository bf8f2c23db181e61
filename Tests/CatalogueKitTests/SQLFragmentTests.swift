import CatalogueKit
import Testing

/// SQL fragments: text and arguments travel together.
@Suite("SQL fragments")
struct SQLFragmentTests {
    @Test("Concatenation keeps arguments in the order of their placeholders")
    func concatenation() {
        var fragment = SQLFragment("name_key >= ?", [.text("bog")])
        fragment += SQLFragment(" AND name_key < ?", [.text("boh")])
        #expect(fragment.sql == "name_key >= ? AND name_key < ?")
        #expect(fragment.arguments == [.text("bog"), .text("boh")])
        let sum = SQLFragment("a = ?", [.integer(1)]) + SQLFragment(" OR b = ?", [.null])
        #expect(sum == SQLFragment("a = ? OR b = ?", [.integer(1), .null]))
    }

    @Test("Joining and parenthesizing")
    func joined() {
        let parts = [SQLFragment("a = ?", [.integer(1)]), SQLFragment("b"), SQLFragment("c = ?", [.text("x")])]
        let joined = SQLFragment.joined(parts, separator: " AND ")
        #expect(joined.sql == "a = ? AND b AND c = ?")
        #expect(joined.arguments == [.integer(1), .text("x")])
        #expect(SQLFragment.joined([], separator: ", ") == SQLFragment(""))
        #expect(joined.parenthesized.sql == "(a = ? AND b AND c = ?)")
        #expect(joined.parenthesized.arguments == joined.arguments)
    }

    @Test("Description shows the arguments only when there are some")
    func description() {
        #expect(SQLFragment("1").description == "1")
        #expect(SQLFragment("x = ?", [.text("a")]).description == "x = ? [\"a\"]")
    }
}
