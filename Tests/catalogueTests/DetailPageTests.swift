import Testing
@testable import CatalogueCommands

@Suite("DetailPage: facts aligned and wrapped in terminal cells")
struct DetailPageTests {
    @Test("Values wrap at spaces by the cells they take: a CJK character takes two")
    func wrapsByCells() {
        #expect(DetailPage.wrap("東京 大阪 名古屋 札幌", width: 10) == ["東京 大阪", "名古屋", "札幌"])
        #expect(DetailPage.wrap("Bogota\u{301} Quito Lima", width: 12) == ["Bogota\u{301} Quito", "Lima"])
        #expect(DetailPage.wrap("Bogotá Quito", width: nil) == ["Bogotá Quito"])
        // A word wider than the line has a line of its own.
        #expect(DetailPage.wrap("a 東京タワー模型 b", width: 6) == ["a", "東京タワー模型", "b"])
    }

    @Test("The facts' values start in one column and wrap under it, in cells")
    func labelledFacts() {
        // "Capital" and two spaces: values start in cell 9; a line of 30 cells leaves 20 for them.
        let page = DetailPage(title: "日本", facts: [.init(label: "Capital", value: "東京 大阪 名古屋 札幌 福岡"), .init(label: "ID", value: "7")])
        let lines = page.labelled(style: TextStyle(enabled: false), width: 30)
        #expect(lines == ["Capital  東京 大阪 名古屋\n         札幌 福岡", "ID       7"])
    }
}
