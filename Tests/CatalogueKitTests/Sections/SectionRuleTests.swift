import CatalogueKit
import Testing

/// Swedish sections: Å, Ä and Ö are letters of their own, after Z (the example of the docs).
struct SwedishSectionRule: SectionRule {
    static let extraLetters = ["Å", "Ä", "Ö"]

    func sectionName(first: Unicode.Scalar?, foldedFirst: Unicode.Scalar?) -> String {
        if let first, let letter = Self.extraLetters.first(where: { $0 == String(first).uppercased() }) {
            return letter
        }
        return InitialLetterSectionRule().sectionName(first: first, foldedFirst: foldedFirst)
    }

    var indexTitles: [String] {
        InitialLetterSectionRule.letters + Self.extraLetters + [InitialLetterSectionRule.otherSection]
    }
}

@Suite("Section rules")
struct SectionRuleTests {
    @Test("Initial letter after folding; anything else under #", arguments: [
        ("Åland Islands", "A"), ("Çad", "C"), ("Éire", "E"), ("zambia", "Z"), ("Straße", "S"),
        ("'s-Hertogenbosch", "#"), ("1-800 Flowers", "#"), ("Øresund", "#"), ("", "#"), ("  space", "#"),
    ])
    func initialLetter(name: String, section: String) {
        let folded = Folding.fold(name)
        let rule = InitialLetterSectionRule()
        #expect(rule.sectionName(first: name.unicodeScalars.first, foldedFirst: folded.unicodeScalars.first) == section)
    }

    @Test("The default index is A–Z then #")
    func defaultIndex() {
        let letters: [String] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map { String($0) }
        #expect(InitialLetterSectionRule().indexTitles == letters + ["#"])
    }

    @Test("A host app's rule replaces the default: Swedish Å, Ä, Ö after Z")
    func swedishRule() throws {
        let catalogue = try emptyCatalogue()
        try catalogue.write { db in
            for name in ["Örebro", "Åre", "Zinkgruvan", "Arboga", "Älmhult", "Borås", "1 Öre"] {
                try db.insert(Product(name: name, type: "town"))
            }
        }
        let controller = SectionedResultsController(
            catalogue: catalogue, fetchRequest: FetchRequest<Product>(sortDescriptors: FetchSortDescriptor.byName),
            rule: SwedishSectionRule())
        try controller.performFetch()
        #expect(controller.sections.map(\.name) == ["A", "B", "Z", "Å", "Ä", "Ö", "#"])
        let names = try controller.sections.indices.map { section in
            try (0..<controller.numberOfObjects(inSection: section)).map {
                try controller.object(at: ResultIndexPath(row: $0, section: section)).name
            }
        }
        #expect(names == [["Arboga"], ["Borås"], ["Zinkgruvan"], ["Åre"], ["Älmhult"], ["Örebro"], ["1 Öre"]])
        #expect(controller.sectionIndexTitles(fullAlphabet: true).suffix(4) == ["Å", "Ä", "Ö", "#"])
    }
}
