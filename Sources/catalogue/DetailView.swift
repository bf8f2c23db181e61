import CatalogueKit

/// The detail pages of `catalogue show`: a title, then one labelled line per fact, like the
/// country screen of the WorldFacts app.
enum DetailView {
    /// A country's page. `neighbourNames` are the names of its neighbours, in the order of its
    /// `neighbours` codes.
    static func country(_ country: Country, neighbourNames: [String], style: TextStyle, width: Int?) -> String {
        var title = style.bold(TerminalText.escaped(country.name))
        if let flag = country.flag { title += "  " + TerminalText.escaped(flag) }
        var lines = [title]
        if let official = country.officialName, official != country.name {
            lines.append(TerminalText.escaped(official))
        }
        lines.append("")
        let codes = [country.iso3, country.numericCode].compactMap { $0 }
        let facts: [(String, String?)] = [
            ("Code", country.code + (codes.isEmpty ? "" : " (" + codes.joined(separator: ", ") + ")")),
            ("Capital", country.capital),
            ("Continent", country.continent),
            ("Region", country.region),
            ("Subregion", country.subregion),
            ("Population", country.population.map(NumberText.grouped)),
            ("Area", country.areaKm2.map { NumberText.area($0) + " km²" }),
            ("Currency", currency(country)),
            ("Languages", country.languages.map { $0.split(separator: ",").joined(separator: ", ") }),
            ("Calling code", country.callingCode.map { $0.hasPrefix("+") ? $0 : "+" + $0 }),
            ("Internet domain", country.tld),
            ("Neighbours", neighbourNames.isEmpty ? nil : neighbourNames.joined(separator: ", ")),
            ("Demonym", country.demonym),
            ("Also known as", country.aliases.isEmpty ? nil : country.aliases.joined(separator: "; ")),
        ]
        lines += labelled(facts, style: style, width: width)
        return lines.joined(separator: "\n")
    }

    /// A product's page.
    static func product(_ product: Product, style: TextStyle, width: Int?) -> String {
        let facts: [(String, String?)] = [
            ("ID", product.id.map { String($0) }),
            ("Type", product.type),
            ("Year", product.year.map { String($0) }),
            ("Price", product.price.map(NumberText.price)),
        ]
        return ([style.bold(TerminalText.escaped(product.name)), ""] + labelled(facts, style: style, width: width))
            .joined(separator: "\n")
    }

    private static func currency(_ country: Country) -> String? {
        switch (country.currencyName, country.currencyCode) {
        case (let name?, let code?): "\(name) (\(code))"
        case (let name?, nil): name
        case (nil, let code?): code
        case (nil, nil): nil
        }
    }

    /// "Label    value" lines with the values aligned; "—" for no value. Values wrap at word
    /// boundaries to `width`, indented under the first line.
    static func labelled(_ facts: [(String, String?)], style: TextStyle, width: Int?) -> [String] {
        let labelWidth = (facts.map(\.0.count).max() ?? 0) + 2
        let indent = String(repeating: " ", count: labelWidth)
        return facts.map { label, value in
            let padded = label + String(repeating: " ", count: labelWidth - label.count)
            let wrapped = wrap(value.map(TerminalText.escaped) ?? "—", width: width.map { max(20, $0 - labelWidth - 1) })
            return style.dim(padded) + wrapped.joined(separator: "\n" + indent)
        }
    }

    /// `text` in lines of at most `width` characters, broken at spaces (nil: one line).
    static func wrap(_ text: String, width: Int?) -> [String] {
        guard let width, text.count > width else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = String(word)
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        lines.append(current)
        return lines
    }
}
