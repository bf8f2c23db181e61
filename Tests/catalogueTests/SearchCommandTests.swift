import Foundation
import CatalogueKit
import Testing

@Suite("catalogue search (the built binary)")
struct SearchCommandTests {
    @Test("The searches the README and the issue promise", arguments: [
        (["search", "bog", "--scope", "capital"], ["Colombia"]),
        (["search", "cote"], ["Côte d'Ivoire"]),
        (["search", "turkey"], ["Türkiye"]),
        (["search", "ivory"], ["Côte d'Ivoire"]),
        (["search", "--scope", "capital", "bogota"], ["Colombia"]),
        (["search", "--scope", "capital", "SÃO"], ["São Tomé and Príncipe"]),
        (["search", "--entity", "products", "--scope", "device", "ipad"], ["iPad", "iPad mini"]),
        (["search", "--entity", "products", "--match", "terms", "ipod 2007"], ["iPod touch"]),
        (["search", "--entity", "products", "--match", "terms", "599"], ["iPhone"]),
        (["search", "--match", "words", "united ki"], ["United Kingdom"]),
        (["search", "--match", "words", "sao tome"], ["São Tomé and Príncipe"]),
        (["search", "--match", "fuzzy", "Columbia"], ["Colombia"]),
        (["search", "--match", "fuzzy", "--scope", "capital", "Bogata"], ["Colombia"]),
        (["search", "--entity", "products", "--match", "fuzzy", "iphnoe 15"], ["iPhone 15 Pro"]),
    ])
    func documentedSearches(arguments: [String], expected: [String]) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(arguments + ["--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try result.jsonNames() == expected)
    }

    @Test("A search that finds nothing suggests close names on stderr: did you mean: Colombia?")
    func suggestions() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let colombia = try runner.run(["search", "Columbia"])
        #expect(colombia.status == 0)
        #expect(colombia.standardOutput == "No items found\n")
        #expect(colombia.standardError == "did you mean: Colombia?\n")
        let bogota = try runner.run(["search", "Bogata", "--scope", "capital"])
        #expect(bogota.standardError == "did you mean: Bogotá?\n")
        let iPhone = try runner.run(["search", "iphnoe", "--entity", "products", "--match", "words"])
        #expect(iPhone.standardError.hasPrefix("did you mean: iPhone, "), "\(iPhone.standardError)")
        // Nothing close, or something found: stderr stays empty.
        #expect(try runner.run(["search", "zzzz"]).standardError.isEmpty)
        #expect(try runner.run(["search", "colombia"]).standardError.isEmpty)
        // Formats for programs print rows only.
        #expect(try runner.run(["search", "Columbia", "--format", "json"]).standardError.isEmpty)
    }

    @Test("A search that finds nothing in its scope says which scope or entity finds something, instead of suggesting names")
    func foundElsewhere() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        // Paris is a capital; the name scope would suggest Pakistan.
        let paris = try runner.run(["search", "paris"])
        #expect(paris.status == 0)
        #expect(paris.standardOutput == "No items found\n")
        #expect(paris.standardError == "found with --scope capital: 1 country\n")
        // The option it names finds it.
        #expect(try runner.run(["search", "paris", "--scope", "capital", "--format", "json"]).jsonNames() == ["France"])
        // Products, in the mode searched: "iPad" and "iPad mini" start with ipad.
        let iPad = try runner.run(["search", "ipad"])
        #expect(iPad.standardError == "found with --entity products: 2 products\n")
        #expect(try runner.run(["search", "mini", "--match", "words"]).standardError == "found with --entity products: 2 products\n")
        // From a type scope: the other types that find it (not "all", which holds every type), and the
        // countries; Georgia is a country, and now a product of another type.
        let file = runner.directory.appendingPathComponent("georgia.csv")
        try Data("name,type\nGeorgia,peach\nGeorgia,tea\nGeorgia peach jam,tea\n".utf8).write(to: file)
        #expect(try runner.run(["import", "products", file.path]).status == 0)
        let georgia = try runner.run(["search", "georgia", "--entity", "products", "--scope", "device"])
        #expect(georgia.standardOutput == "No items found\n")
        #expect(georgia.standardError == "found with --scope peach: 1 product; with --scope tea: 2 products\nfound with --entity countries: 1 country\n")
        // Nowhere: the names close to the text, as before; nothing at all: nothing.
        #expect(try runner.run(["search", "columbia"]).standardError == "did you mean: Colombia?\n")
        #expect(try runner.run(["search", "zzzz", "--match", "contains"]).standardError.isEmpty)
    }

    @Test("Found in no other scope or entity, a search says which other match mode finds the text in its own scope")
    func foundWithAnotherMode() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        // No name starts with salvador; a word of El Salvador does. Before, it suggested the name.
        let salvador = try runner.run(["search", "salvador"])
        #expect(salvador.standardOutput == "No items found\n")
        #expect(salvador.standardError == "found with --match words: 1 country\n")
        #expect(try runner.run(["search", "salvador", "--match", "words", "--format", "json"]).jsonNames() == ["El Salvador"])
        // No word starts with "lvador": inside a word, contains finds it, from a prefix or from words.
        for mode in ["prefix", "words"] {
            #expect(try runner.run(["search", "lvador", "--match", mode]).standardError == "found with --match contains: 1 country\n", "\(mode)")
        }
        // In the scope searched: capitals, and a product type.
        #expect(try runner.run(["search", "town", "--scope", "capital"]).standardError == "found with --match words: 3 countries\n")
        let products = runner.directory.appendingPathComponent("kettles.csv")
        try Data("name,type\nAmber kettle,kitchen\nCopper kettle,kitchen\nSteel drum,music\n".utf8).write(to: products)
        #expect(try runner.run(["import", "products", products.path]).status == 0)
        #expect(try runner.run(["search", "kettle", "--entity", "products", "--scope", "kitchen"]).standardError
            == "found with --match words: 2 products\n")
        // Another scope or entity that finds the text is said alone: mini is a product, and inside
        // Dominica.
        #expect(try runner.run(["search", "mini", "--match", "words"]).standardError == "found with --entity products: 2 products\n")
        // Contains is not tried for fewer than 3 characters (it would read every name: "ds" is in
        // 22 countries' names, and starts no word), nor after contains, terms or fuzzy (words would find
        // these); then the close names are suggested, as before.
        #expect(try runner.run(["search", "ds"]).standardError.isEmpty)
        #expect(try runner.run(["search", "ds", "--match", "contains", "--format", "json"]).jsonNames().count == 22)
        #expect(try runner.run(["search", "salvador el", "--match", "contains"]).standardError == "did you mean: El Salvador?\n")
        #expect(try runner.run(["search", "salvadr"]).standardError == "did you mean: El Salvador?\n")
    }

    @Test("Table output ends with the item count, or says how many of how many a --limit showed")
    func tableSummary() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let found = try runner.run(["search", "bog", "--scope", "capital"])
        #expect(found.status == 0)
        #expect(found.standardOutput.contains("Bogotá"))
        #expect(found.standardOutput.hasSuffix("1 item found\n"))
        let none = try runner.run(["search", "zzzz"])
        #expect(none.standardOutput == "No items found\n")
        let many = try runner.run(["search", "", "--limit", "3"])
        let lines = many.standardOutput.split(separator: "\n")
        #expect(lines.count == 2 + 3 + 1)
        #expect(lines.last == "3 of 250 shown (--limit 0 for all)")
        let defaultLimit = try runner.run(["search", ""])
        #expect(defaultLimit.standardOutput.hasSuffix("\n50 of 250 shown (--limit 0 for all)\n"))
        let all = try runner.run(["search", "", "--limit", "0"])
        #expect(all.standardOutput.hasSuffix("\n250 items found\n"))
        // Exactly the limit, and nothing more: not cut.
        let exact = try runner.run(["search", "co", "--limit", "15"])
        #expect(exact.standardOutput.hasSuffix("\n15 items found\n"))
        // Machine formats get rows only.
        for format in ["json", "csv", "ndjson"] {
            let output = try runner.run(["search", "", "--limit", "3", "--format", format]).standardOutput
            #expect(!output.contains("shown") && !output.contains("found"), "\(format)")
        }
        let ndjson = try runner.run(["search", "", "--limit", "3", "--format", "ndjson"])
        #expect(ndjson.standardOutput.split(separator: "\n").count == 3)
    }

    @Test("Counts are grouped the same way everywhere: 1,000 items found")
    func groupedCounts() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        var csv = "name,type\r\n"
        for index in 0..<1_200 { csv += "Gadget \(index),bulk\r\n" }
        let imported = try runner.run(["import", "products", "-"], input: Data(csv.utf8))
        #expect(imported.standardOutput.hasPrefix("Imported 1,200 products (1,200 added, 0 updated, 0 skipped)"), "\(imported.standardOutput)")
        let search = try runner.run(["search", "gadget", "--entity", "products", "--limit", "0"])
        #expect(search.standardOutput.hasSuffix("\n1,200 items found\n"))
        let cut = try runner.run(["search", "gadget", "--entity", "products", "--limit", "10", "--count", "exact"])
        #expect(cut.standardOutput.hasSuffix("\n10 of 1,200 shown (--limit 0 for all)\n"))
        let browse = try runner.run(["browse", "--entity", "products", "--scope", "bulk"])
        #expect(browse.standardOutput.hasSuffix("\n1,200 items found\n"))
        let index = try runner.run(["index", "--entity", "products", "--scope", "bulk"])
        #expect(index.standardOutput == "G  1,200\n")
    }

    @Test("Counting stops at 1,000 unless --count exact, in every match mode; below the cap the count is exact")
    func cappedCounts() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        var csv = "name,type\r\n"
        for index in 0..<1_001 { csv += "Gadget \(index),bulk\r\n" }
        for index in 0..<1_000 { csv += "Widget \(index),bulk\r\n" }
        let imported = try runner.run(["import", "products", "-"], input: Data(csv.utf8))
        #expect(imported.status == 0, "\(imported.standardError)")
        for mode in ["prefix", "contains", "words", "terms", "fuzzy"] {
            let capped = try runner.run(["search", "gadget", "--entity", "products", "--match", mode])
            #expect(capped.status == 0, "\(capped.standardError)")
            #expect(capped.standardOutput.hasSuffix("\n50 of more than 1,000 shown (--limit 0 for all)\n"), "\(mode)")
            let exact = try runner.run(["search", "gadget", "--entity", "products", "--match", mode, "--count", "exact"])
            #expect(exact.standardOutput.hasSuffix("\n50 of 1,001 shown (--limit 0 for all)\n"), "\(mode)")
            let atCap = try runner.run(["search", "widget", "--entity", "products", "--match", mode])
            #expect(atCap.standardOutput.hasSuffix("\n50 of 1,000 shown (--limit 0 for all)\n"), "\(mode)")
        }
        let all = try runner.run(["search", "gadget", "--entity", "products", "--limit", "0"])
        #expect(all.standardOutput.hasSuffix("\n1,001 items found\n"), "--limit 0 lists and counts every match")
        let json = try runner.run(["search", "gadget", "--entity", "products", "--format", "json"])
        #expect(try json.jsonNames().count == 50)
        let bad = try runner.run(["search", "gadget", "--count", "roughly"])
        #expect(bad.status == 2 && bad.standardError.contains("--count"), "\(bad.standardError)")
        let help = try runner.run(["search", "--help"])
        #expect(help.standardOutput.contains("--count exact"))
    }

    @Test("Several words are one text, as grep-style tools join them")
    func multiWordText() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let joined = try runner.run(["search", "united", "kingdom", "--format", "json"])
        #expect(joined.status == 0, "\(joined.standardError)")
        #expect(try joined.jsonNames() == ["United Kingdom"])
        let quoted = try runner.run(["search", "united kingdom", "--format", "json"])
        #expect(joined.standardOutput == quoted.standardOutput)
        // Options may come between the words; terms and words modes see each word.
        let terms = try runner.run(["search", "ipod", "--entity", "products", "2007", "--match", "terms", "--format", "json"])
        #expect(try terms.jsonNames() == ["iPod touch"])
        let words = try runner.run(["search", "--match", "words", "sao", "tome", "--format", "json"])
        #expect(try words.jsonNames() == ["São Tomé and Príncipe"])
    }

    @Test("CSV always starts with its header row, also without results")
    func emptyCSV() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let countries = try runner.run(["search", "zzz", "--format", "csv"])
        #expect(countries.status == 0)
        #expect(countries.standardOutput == "code,name,capital,continent,population,area_km2\r\n")
        let products = try runner.run(["search", "zzz", "--entity", "products", "--format", "csv"])
        #expect(products.standardOutput == "id,name,type,year,price\r\n")
        let json = try runner.run(["search", "zzz", "--format", "json"])
        #expect(json.standardOutput == "[]\n")
        let ndjson = try runner.run(["search", "zzz", "--format", "ndjson"])
        #expect(ndjson.standardOutput.isEmpty)
    }

    @Test("The capital scope lists capitals in order: co → Cockburn Town, Colombo, Conakry, Copenhagen")
    func capitalOrder() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["search", "co", "--scope", "capital", "--format", "json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(array.compactMap { $0["capital"] as? String } == ["Cockburn Town", "Colombo", "Conakry", "Copenhagen"])
        let table = try runner.run(["search", "co", "--scope", "capital"])
        let capitals = table.standardOutput.split(separator: "\n").dropFirst(2).dropLast().map(String.init)
        #expect(capitals.count == 4)
        #expect(capitals.first?.contains("Cockburn Town") == true)
        #expect(capitals.last?.contains("Copenhagen") == true)
    }

    @Test("--limit 0 lists every country; JSON has the documented keys")
    func unlimitedJSON() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["search", "--limit", "0", "--format", "json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(array.count >= 245)
        #expect(Set(array[0].keys) == ["code", "name", "capital", "continent", "population", "area_km2"])
        let products = try runner.run(["search", "--entity", "products", "--limit", "0", "--format", "json"])
        let productArray = try #require(try JSONSerialization.jsonObject(with: Data(products.standardOutput.utf8)) as? [[String: Any]])
        #expect(productArray.count >= 49)
        #expect(Set(productArray[0].keys) == ["id", "name", "type", "year", "price"])
    }

    @Test("CSV and NDJSON formats")
    func csvAndNDJSON() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let csv = try runner.run(["search", "ipad", "--entity", "products", "--format", "csv"])
        #expect(csv.standardOutput.hasPrefix("id,name,type,year,price\r\n"))
        #expect(csv.standardOutput.contains(",iPad mini,device,2012,659\r\n"))
        let ndjson = try runner.run(["search", "co", "--format", "ndjson"])
        let lines = ndjson.standardOutput.split(separator: "\n")
        #expect(lines.count >= 3)
        for line in lines {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    @Test("Unknown scope, type or mode: a clear error listing valid values, exit 2", arguments: [
        (["search", "x", "--scope", "planet"], "valid scopes: name, capital, any"),
        (["search", "x", "--scope", "captial"], "unknown scope 'captial' for countries (did you mean 'capital'?); valid scopes: name, capital, any"),
        (["search", "x", "--entity", "products", "--scope", "devcie"], "unknown product type 'devcie' for products (did you mean 'device'?)"),
        (["search", "x", "--entity", "products", "--scope", "toys"], "valid scopes: all, birthdays, desktop, device, funerals, portable, weddings"),
        (["search", "x", "--match", "fuzzzy"], "'prefix', 'contains', 'words', 'terms' or 'fuzzy'"),
        (["search", "x", "--entity", "planets"], "'countries' and 'products'"),
        (["search", "x", "--limit", "-1"], "--limit must be 0 (no limit) or more, not -1"),
        (["search", "x", "--limit", "many"], "'many' is invalid for '--limit"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("catalogue: error: "), "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        // Mistakes in a subcommand point to that subcommand's help.
        #expect(result.standardError.hasSuffix("Run 'catalogue search --help' for usage.\n"), "\(result.standardError)")
    }

    static let hostileTexts = [
        "\"", "*", "^", ":", "-", "(", ")", "NEAR", "AND", "OR", "NOT", "C++", "\"unterminated",
        "'; DROP TABLE country; --", "%", "_", "\\", "a\u{1}b", "\u{7F}", "\u{FFFD}", "🇫🇷", "שלום",
        "100 KB of text",
    ]

    @Test("The hostile texts are all different (the count RELIABILITY.md quotes)")
    func distinctHostileTexts() {
        #expect(Set(Self.hostileTexts).count == Self.hostileTexts.count)
        print("hostile search text (binary): \(Self.hostileTexts.count) texts × 8 searches each")
    }

    @Test("Hostile text gives results or an empty list, never an error", arguments: hostileTexts)
    func hostileText(text: String) throws {
        let text = text == "100 KB of text" ? String(repeating: "ab", count: 50_000) : text
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        for mode in ["prefix", "contains", "words", "terms", "fuzzy"] {
            for entity in ["countries", "products"] {
                let result = try runner.run(["search", "--match", mode, "--entity", entity, "--format", "json", "--", text])
                #expect(result.status == 0, "\(mode) \(entity): \(result.standardError)")
                #expect(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) is [Any])
            }
        }
        let count = try runner.run(["search", "--limit", "0", "--format", "json"])
        #expect(try count.jsonNames().count >= 245)
    }

    @Test("Invalid UTF-8 on the command line is searched as text, not an error")
    func invalidUTF8Argument() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        // bash's printf makes the bytes; the binary receives them as an argument.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "\"$0\" search --match words -- \"$(printf 'caf\\xe9\\xed\\xa0\\x80')\"", CommandRunner.executable.path]
        process.environment = ["CATALOGUE_DB": runner.databasePath, "HOME": runner.directory.path]
        let error = Pipe()
        process.standardError = error
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
    }

    @Test("--version and --help")
    func versionAndHelp() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let version = try runner.run(["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let help = try runner.run(["search", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("Examples:"))
        #expect(help.standardOutput.contains("--match"))
        // The paragraph on match modes names every mode --match takes.
        let words = help.standardOutput.split(separator: "\n\n").first { $0.hasPrefix("Match modes:") }?
            .split(whereSeparator: { !$0.isLetter }).map(String.init) ?? []
        for mode in MatchMode.allCases {
            #expect(words.contains(mode.rawValue), "the help's match modes leave out \(mode.rawValue)")
        }
        #expect(help.standardOutput.contains("catalogue search phillipines --match fuzzy"))
        let example = try runner.run(["search", "phillipines", "--match", "fuzzy", "--format", "json"])
        #expect(try example.jsonNames() == ["Philippines"], "the help's fuzzy example finds what it means")
    }
}
