import CatalogueKit
import CatalogueTestSupport
import Foundation
import Testing

/// Sort descriptors: the ORDER BY they generate and the order of the rows.
@Suite("Sort descriptors")
struct SortDescriptorTests {
    let catalogue: Catalogue

    init() throws {
        catalogue = try seededCatalogue()
    }

    func orderBy(_ descriptors: [FetchSortDescriptor]) throws -> String {
        let sql = try FetchRequest<Country>(sortDescriptors: descriptors).selectSQL().sql
        let range = try #require(sql.range(of: " ORDER BY "))
        return String(sql[range.upperBound...]).replacingOccurrences(of: " LIMIT ? OFFSET ?", with: "")
    }

    @Test("ORDER BY for each kind of descriptor")
    func orderByClauses() throws {
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        #expect(try orderBy([FetchSortDescriptor("name")]) == "country.name, country.id")
        #expect(try orderBy([FetchSortDescriptor("name", ascending: false)]) == "country.name DESC, country.id")
        #expect(try orderBy([FetchSortDescriptor("name", options: cd)]) == "country.name_key, country.id")
        #expect(try orderBy([FetchSortDescriptor("name", ascending: false, options: cd)]) == "country.name_key DESC, country.id")
        #expect(try orderBy([FetchSortDescriptor("name", options: .caseInsensitive)]) == "catalogue_fold(country.name, 1), country.id")
        #expect(try orderBy([FetchSortDescriptor("continent", options: cd)]) == "catalogue_fold(country.continent, 3), country.id")
        #expect(try orderBy(FetchSortDescriptor.byName) == "country.name_key, country.name, country.id")
        #expect(try orderBy([FetchSortDescriptor("continent"), FetchSortDescriptor("population", ascending: false)])
            == "country.continent, country.population DESC, country.id", "rows that tie on every descriptor come in id order")
        #expect(try FetchRequest<Country>().selectSQL().sql.hasSuffix("ORDER BY country.id LIMIT ? OFFSET ?"))
        #expect(!(try FetchRequest<Country>(sortDescriptors: []).selectSQL().sql.contains("ORDER BY")))
    }

    @Test("Ascending and descending by name")
    func byName() throws {
        let ascending = try catalogue.records(FetchRequest<Country>(sortDescriptors: [FetchSortDescriptor("name")])).map(\.name)
        #expect(ascending.count >= 245)
        #expect(ascending == ascending.sorted(by: Bytes.less))
        let descending = try catalogue.records(FetchRequest<Country>(sortDescriptors: [FetchSortDescriptor("name", ascending: false)])).map(\.name)
        #expect(descending == ascending.reversed())
    }

    @Test("[cd] sorts by the folded name: Åland Islands among the A's, not after Z")
    func byFoldedName() throws {
        let cd = ComparisonOptions.caseAndDiacriticInsensitive
        let folded = try catalogue.records(FetchRequest<Country>(sortDescriptors: [FetchSortDescriptor("name", options: cd)])).map(\.name)
        let keys = folded.map { Folding.fold($0) }
        #expect(keys == keys.sorted(by: Bytes.less))
        let aland = try #require(folded.firstIndex(of: "Åland Islands"))
        let albania = try #require(folded.firstIndex(of: "Albania"))
        #expect(aland < albania)
        let plain = try catalogue.records(FetchRequest<Country>(sortDescriptors: [FetchSortDescriptor("name")])).map(\.name)
        #expect(plain.last == "Åland Islands")
        let descending = try catalogue.records(FetchRequest<Country>(sortDescriptors: [FetchSortDescriptor("name", ascending: false, options: cd)])).map(\.name)
        #expect(descending.map { Folding.fold($0) } == keys.reversed())
    }

    @Test("[c] and [d] sort through the folding function")
    func byPartiallyFoldedName() throws {
        for options in [ComparisonOptions.caseInsensitive, .diacriticInsensitive] {
            let names = try catalogue.records(FetchRequest<Country>(
                sortDescriptors: [FetchSortDescriptor("name", options: options), FetchSortDescriptor("id")])).map(\.name)
            let keys = names.map { Folding.fold($0, options: options) }
            #expect(keys == keys.sorted(by: Bytes.less), "\(options.formatModifier)")
        }
    }

    @Test("Ties fall through to the next descriptor: folded name, name, id")
    func ties() throws {
        let catalogue = try emptyCatalogue()
        let inserted = try catalogue.write { db in
            try ["Éclair", "eclair", "Eclair", "Widget", "Widget"].enumerated().map { index, name in
                try db.insert(Product(name: name, type: index == 4 ? "b" : "a"))
            }
        }
        let ordered = try catalogue.records(FetchRequest<Product>(sortDescriptors: FetchSortDescriptor.byName))
        #expect(ordered.map(\.name) == ["Eclair", "eclair", "Éclair", "Widget", "Widget"])
        #expect(ordered.suffix(2).map(\.id) == [inserted[3].id, inserted[4].id])
        #expect(ordered.map(\.id) == displayOrdered(inserted, name: \.name).map(\.id))
        let reversed = try catalogue.records(FetchRequest<Product>(sortDescriptors: [
            FetchSortDescriptor("name", options: .caseAndDiacriticInsensitive), FetchSortDescriptor("id", ascending: false),
        ]))
        #expect(reversed.map(\.id) == [inserted[2].id, inserted[1].id, inserted[0].id, inserted[4].id, inserted[3].id])
    }

    @Test("Relevance needs a full-text predicate")
    func relevance() throws {
        #expect(throws: FetchRequestError.relevanceWithoutFullText) {
            try FetchRequest<Country>(predicate: .true, sortDescriptors: [.relevance]).selectSQL()
        }
        let pattern = try #require(FullTextPattern(matchingAllPrefixesIn: "island"))
        let request = FetchRequest<Country>(
            predicate: .fullText(pattern) && .equals("continent", "Europe"), sortDescriptors: [.relevance] + FetchSortDescriptor.byName)
        // Relevance then a folded key: the tiers of RelevanceTiers, as UNION ALL arms (the
        // third in three parts: NULL keys, the first keys read in order, the keys beyond), after
        // the matches (collected once, and counted) and the bound of the third tier's ordered
        // read, each computed once for its parts; the rows' checks look up the collected matches.
        let sql = try request.selectSQL()
        let start = [
            "WITH catalogue_match_count_set AS MATERIALIZED (SELECT catalogue_collect_matches(",
            "'country_fts', ?) AS collected), catalogue_match_count AS MATERIALIZED (SELECT catalogue_collected_count(",
            "collected, 'country_fts', ?) AS matches, collected FROM catalogue_match_count_set), catalogue_bound AS ",
            "MATERIALIZED (SELECT coalesce((SELECT country.name_key FROM country WHERE country.name_key IS NOT NULL ORDER ",
            "BY country.name_key LIMIT 1 OFFSET CASE WHEN (SELECT matches FROM catalogue_match_count) >= ? ",
        ].joined()
        #expect(sql.sql.hasPrefix(start), "\(sql.sql)")
        #expect(sql.sql.contains(" AS bound) SELECT * FROM (SELECT * FROM (SELECT country.id, "))
        #expect(sql.sql.components(separatedBy: " UNION ALL ").count == 5)
        #expect(sql.sql.contains(" WHERE (country.name_key >= ? AND country.name_key < ? AND (country.name_key = ? OR country.name_key >= ?)) AND ((catalogue_in_matches(country.id, 'country_fts', ?, (SELECT collected FROM catalogue_match_count))) AND (country.continent = ?)) ORDER BY country.name_key, country.name, country.id LIMIT ?)"), "\(sql.sql)")
        #expect(sql.sql.hasSuffix(") LIMIT ? OFFSET ?"))
        let bound: [DatabaseValue] = [
            .text("\"island\"*"), .text("\"island\"*"), .integer(50_000), .integer(219_999), .integer(19_999),
        ]
        let rows: [DatabaseValue] = [
            .text("island"), .text("island!"), .text("island"), .text("island "), .text("\"island\"*"), .text("Europe"), .integer(-1),
        ]
        #expect(Array(sql.arguments.prefix(12)) == bound + rows)
        let names = try catalogue.records(request).map(\.name)
        #expect(Set(names).isSuperset(of: ["Åland Islands", "Faroe Islands"]))
        #expect(try catalogue.read { try $0.fetchCount(request) } == names.count)
        // Relevance alone (no key to rank by): FTS5's bm25.
        let scored = FetchRequest<Country>(predicate: .fullText(pattern) && .equals("continent", "Europe"), sortDescriptors: [.relevance])
        let scoredSQL = try scored.selectSQL()
        #expect(scoredSQL.sql.contains(" FROM country_fts JOIN country ON country.id = country_fts.rowid WHERE country_fts MATCH ? AND ((country.continent = ?))"))
        #expect(scoredSQL.sql.hasSuffix(" ORDER BY country_fts.rank, country.id LIMIT ? OFFSET ?"))
        #expect(scoredSQL.arguments == [.text("\"island\"*"), .text("Europe"), .integer(-1), .integer(0)])
        #expect(Set(try catalogue.records(scored).map(\.name)) == Set(names))
    }
}
