// The code of the DocC catalog's overview and of "Searching the catalogue", verbatim, compiled
// as an app would compile it.
import CatalogueKit

func overviewExample() throws {
    let catalogue = try Catalogue(path: Catalogue.defaultPath())   // created and seeded on first use
    let results = try catalogue.search(CatalogueSearch.countries(matching: "bog", scope: .capital))
    print(results.records.first?.name ?? "", results.summary)     // Colombia 1 item found
}

func searchingExamples(catalogue: Catalogue) throws {
    let request = CatalogueSearch.countries(matching: "bog", scope: .capital, mode: .prefix)
    let page = try catalogue.search(request, limit: 50)
    print(page.records.map(\.name))   // ["Colombia"]
    print(page.summary)               // "1 item found"
}

func cappedCountExample(catalogue: Catalogue) throws {
    let results = try catalogue.search(CatalogueSearch.products(matching: "a", mode: .contains), limit: 50, count: .standard)
    print(results.shownSummary)   // "50 of more than 1,000 shown" (at 1M products)
}

func suggestionsExample(catalogue: Catalogue) throws {
    let names = try catalogue.read { db in
        try CatalogueSearch.suggestions(for: "Phillipines", scope: CountryScope.name, in: db)
    }
    print(names)   // ["Philippines"]
}

func fallbackModesExample(catalogue: Catalogue) throws {
    let text = "salvador"
    let found = try catalogue.read { db in
        try MatchMode.prefix.firstFallback(for: text) { mode in
            try db.fetchCount(CatalogueSearch.countries(matching: text, mode: mode))
        }
    }
    print(found.map { "\($0.mode.rawValue): \($0.count)" } ?? "none")   // words: 1
}

func fuzzyExample() throws {
    let catalogue = try Catalogue(path: ":memory:", seed: false)
    try catalogue.write { db in
        for name in ["Lamp", "Desk Lampe", "Lampe Berger", "Lampenschirm", "Amber lamp", "Ramp"] {
            try db.insert(Product(name: name, type: "light"))
        }
    }
    let request = CatalogueSearch.products(matching: "lampe", mode: .fuzzy)
    print(try catalogue.fetch(request).map(\.name))
    // ["Lampe Berger", "Lampenschirm", "Desk Lampe", "Lamp", "Amber lamp"]: exact, then with a typo
}

func predicateExamples(catalogue: Catalogue) throws {
    let typed: FetchPredicate = .beginsWith("name", "bo", options: .caseAndDiacriticInsensitive)
        && .greaterThan("population", 1_000_000)
    let parsed = try FetchPredicate(format: "%K BEGINSWITH[cd] %@ AND population > %@", "name", "bo", 1_000_000)
    let countries = try catalogue.read { db in
        try db.fetch(FetchRequest<Country>(predicate: parsed, sortDescriptors: FetchSortDescriptor.byName))
    }
    print(typed == parsed, countries.map(\.name))   // true ["Bolivia", "Bosnia and Herzegovina", "Botswana"]
}

func predicateLanguageExamples(catalogue: Catalogue) throws {
    // LIKE: * any run of characters, ? one character; a literal start reads the key's range.
    let like = try FetchPredicate(format: "name LIKE[cd] 'bo*a'")
    // MATCHES: a regular expression the whole value matches (reads every row of the scope).
    let matches = try FetchPredicate(format: "name MATCHES[c] 'ch(ad|ile)'")
    // ANY (or SOME) for the to-many aliases.
    let alias = try FetchPredicate(format: "ANY aliases BEGINSWITH[cd] %@", "ivory")
    // $VARIABLES: a template parsed once, filled in on every keystroke (the same SQL each time).
    let template = try FetchPredicate(format: "capital BEGINSWITH[cd] $TEXT")
    let keystroke = try template.withSubstitutionVariables(["TEXT": "bog"])
    for predicate in [like, matches, alias, keystroke] {
        print(try catalogue.fetch(FetchRequest<Country>(predicate: predicate, sortDescriptors: .byName)).map(\.name))
    }
    // ["Bolivia", "Bonaire, Sint Eustatius and Saba", "Bosnia and Herzegovina", "Botswana"]
    // ["Chad", "Chile"]  ["Côte d'Ivoire"]  ["Colombia"]
}

func preparedSearchExample(catalogue: Catalogue) throws {
    let search = try catalogue.prepareSearch(products: .all, mode: .prefix, limit: 50)
    for typed in ["c", "cr", "cré"] {
        let results = try search.search(typed)      // a page and a count capped at 1,000
        print(typed, results.summary)
    }
}

func cancelledSearchExample(catalogue: Catalogue) async throws {
    let search = try catalogue.prepareSearch(countries: .name)
    var running: Task<SearchResults<Country>, any Error>?
    for typed in ["c", "co", "colo"] {
        running?.cancel()                        // the search of the keystroke before stops
        running = Task { try await search.search(typed) }
    }
    print("colo", try await running!.value.summary)  // colo 1 item found
}
