import CatalogueKit
import Foundation

extension Country: CustomDetailPage {
    /// The country page: the flag beside the name, the official name, the codes on one line,
    /// currency name and code together, languages and neighbours by name, the other names it is
    /// searched by.
    func customDetailPage(in catalogue: Catalogue) throws -> DetailPage {
        let codes = (neighbours ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let neighbourRecords = codes.isEmpty ? [] : try catalogue.read { db in
            try db.fetch(FetchRequest<Country>(predicate: .in("code", codes)))
        }
        let names = Dictionary(neighbourRecords.map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })
        return page(neighbourNames: codes.map { names[$0] ?? $0 })
    }

    /// The page, given the names of its neighbours in the order of its `neighbours` codes.
    func page(neighbourNames: [String]) -> DetailPage {
        let otherCodes = [iso3, numericCode].compactMap { $0 }
        let facts: [(String, String?)] = [
            ("Code", code + (otherCodes.isEmpty ? "" : " (" + otherCodes.joined(separator: ", ") + ")")),
            ("Capital", capital),
            ("Continent", continent),
            ("Region", region),
            ("Subregion", subregion),
            ("Population", population.map { FieldFormat.grouped($0) }),
            ("Area", areaKm2.map { FieldFormat.area($0) + " km²" }),
            ("Currency", currency),
            ("Languages", languages.map { $0.split(separator: ",").joined(separator: ", ") }),
            ("Calling code", callingCode.map { $0.hasPrefix("+") ? $0 : "+" + $0 }),
            ("Internet domain", tld),
            ("Neighbours", neighbourNames.isEmpty ? nil : neighbourNames.joined(separator: ", ")),
            ("Demonym", demonym),
            ("Also known as", aliases.isEmpty ? nil : aliases.joined(separator: "; ")),
        ]
        let official = officialName.flatMap { $0 == name ? nil : $0 }
        return DetailPage(
            title: name + (flag.map { "  " + $0 } ?? ""), subtitles: official.map { [$0] } ?? [],
            facts: facts.map { DetailPage.Fact(label: $0.0, value: $0.1) })
    }

    private var currency: String? {
        switch (currencyName, currencyCode) {
        case (let name?, let code?): "\(name) (\(code))"
        case (let name?, nil): name
        case (nil, let code?): code
        case (nil, nil): nil
        }
    }
}
