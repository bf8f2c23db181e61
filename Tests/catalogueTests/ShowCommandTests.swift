import Foundation
import Testing

/// `catalogue show` end to end: the detail pages, JSON, and records that do not exist.
@Suite("catalogue show (the built binary)")
struct ShowCommandTests {
    @Test("A country's page: capital, figures grouped, currency, neighbours by name, aliases")
    func countryPage() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["show", "ci"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Côte d'Ivoire  🇨🇮")
        #expect(lines.dropFirst().first == "Republic of Côte d'Ivoire")
        for expected in [
            "Code             CI (CIV, 384)",
            "Capital          Yamoussoukro",
            "Continent        Africa",
            "Population       25,069,229",
            "Area             322,460 km²",
            "Currency         Franc (XOF)",
            "Calling code     +225",
            "Internet domain  .ci",
            "Neighbours       Liberia, Ghana, Guinea, Burkina Faso, Mali",
            "Also known as    Ivory Coast; Republic of Côte d'Ivoire; République de Côte d'Ivoire",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
        // Piped: no colours.
        #expect(!result.standardOutput.contains("\u{1B}"))
    }

    @Test("A product's page, by id")
    func productPage() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["show", "5"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "iPad mini\n\nID     5\nType   device\nYear   2012\nPrice  659.00\n")
        let explicit = try runner.run(["show", "5", "--entity", "products"])
        #expect(explicit.standardOutput == result.standardOutput)
        // The entity first, as export and import take it.
        for arguments in [["show", "products", "5"], ["show", "Products", "5", "--entity", "products"]] {
            let first = try runner.run(arguments)
            #expect(first.status == 0, "\(arguments): \(first.standardError)")
            #expect(first.standardOutput == result.standardOutput, "\(arguments)")
        }
        let country = try runner.run(["show", "countries", "ci"])
        #expect(country.status == 0)
        #expect(country.standardOutput == (try runner.run(["show", "CI"])).standardOutput)
    }

    @Test("--format json: the record's object, with the keys of export")
    func json() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let country = try runner.run(["show", "CO", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(country.standardOutput.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "Colombia")
        #expect(object["capital"] as? String == "Bogotá")
        #expect(object.count == 20)
        let product = try runner.run(["show", "5", "--format", "json"])
        #expect(product.standardOutput == "{\"id\":5,\"name\":\"iPad mini\",\"type\":\"device\",\"year\":2012,\"price\":659.0}\n")
    }

    @Test("Unknown records: exit 1; malformed command lines: exit 2", arguments: [
        (["show", "ZZ"], 1, "catalogue: error: no country with code ZZ\n"),
        (["show", "xx"], 1, "catalogue: error: no country with code XX\n"),
        (["show", "99999"], 1, "catalogue: error: no product with id 99999\n"),
        (["show", "zzzzzz"], 1, "catalogue: error: no country or product named 'zzzzzz'\n"),
        (["show", "cities", "5"], 1, "catalogue: error: no country or product named 'cities 5'\n"),
        (["show", "products", "CO"], 1, "catalogue: error: no product named 'CO'; did you mean "),
        (["show", "countries", "ipad"], 1, "catalogue: error: no country named 'ipad'\n"),
        (["show", "products"], 2, "catalogue: error: which product? Give its id after 'products': catalogue show products 5\n"),
        (["show", "Countries"], 2, "catalogue: error: which country? Give its code after 'Countries': catalogue show countries CO\n"),
        (["show", "products", "5", "--entity", "countries"], 2, "catalogue: error: 'products' and --entity countries name different things to show\n"),
        (["show", "  "], 2, "catalogue: error: give a code, an id or a name to show\n"),
        (["show", "products", "99999"], 1, "catalogue: error: no product with id 99999\n"),
    ])
    func missing(arguments: [String], status: Int32, message: String) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(arguments)
        #expect(result.status == status)
        #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("--help has examples")
    func help() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let help = try runner.run(["show", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("Examples:"))
        #expect(help.standardOutput.contains("catalogue show CO"))
        #expect(help.standardOutput.contains("catalogue show products 5"))
        // The key's second place is no argument of its own in the usage line.
        #expect(help.standardOutput.contains("USAGE: catalogue show [--db <path>] <code-id-or-name> [--entity <entity>]"))
        #expect(help.standardOutput.contains("catalogue show \"cote d'ivoire\""))
    }

    @Test("By name: a country's name or other name, or a product's, whole, in any case, with or without diacritics and quotes")
    func byName() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let ivoryCoast = try runner.run(["show", "ci"])
        #expect(ivoryCoast.status == 0, "\(ivoryCoast.standardError)")
        for arguments in [["show", "cote d'ivoire"], ["show", "CÔTE D’IVOIRE"], ["show", "ivory", "coast"], ["show", "countries", "Ivory Coast"],
                          ["show", "Côte d'Ivoire", "--entity", "countries"]] {
            let result = try runner.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(result.standardOutput == ivoryCoast.standardOutput, "\(arguments)")
        }
        // Two letters are a code first; one that names no country is tried as a name.
        let unitedKingdom = try runner.run(["show", "uk"])
        #expect(unitedKingdom.status == 0, "\(unitedKingdom.standardError)")
        #expect(unitedKingdom.standardOutput.hasPrefix("United Kingdom  🇬🇧\n"))
        #expect(unitedKingdom.standardOutput == (try runner.run(["show", "GB"])).standardOutput)
        let product = try runner.run(["show", "ipad", "mini", "--format", "json"])
        #expect(product.status == 0, "\(product.standardError)")
        #expect(product.standardOutput == (try runner.run(["show", "5", "--format", "json"])).standardOutput)
        #expect((try runner.run(["show", "products", "IPAD MINI"])).standardOutput == (try runner.run(["show", "5"])).standardOutput)
    }

    @Test("A name that names nothing lists what it may mean; one that names several lists them; exit 1")
    func namesNotOne() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let typo = try runner.run(["show", "frnace"])
        #expect(typo.status == 1)
        #expect(typo.standardOutput.isEmpty)
        #expect(typo.standardError == "catalogue: error: no country or product named 'frnace'; did you mean France (FR)? Show it with: catalogue show FR\n")
        // Names that start so, those whose own name does first.
        let start = try runner.run(["show", "united"])
        #expect(start.status == 1)
        #expect(start.standardError.hasPrefix(
            "catalogue: error: no country or product named 'united'; did you mean United Arab Emirates (AE), United Kingdom (GB), United States (US), "),
            "\(start.standardError)")
        #expect(start.standardError.hasSuffix("? Show one with its code or id: catalogue show AE\n"), "\(start.standardError)")
        // A product named as a country is: both listed with what shows each.
        let file = runner.directory.appendingPathComponent("georgia.csv")
        try Data("name,type\nGeorgia,peach\n".utf8).write(to: file)
        #expect(try runner.run(["import", "products", file.path]).status == 0)
        let id = try #require(try runner.run(["search", "georgia", "--entity", "products", "--format", "json"]).jsonIDs().first)
        let both = try runner.run(["show", "GEORGIA"])
        #expect(both.status == 1)
        #expect(both.standardError == "catalogue: error: 'GEORGIA' names 2 records: Georgia (GE), Georgia (\(id)). Show one with its code or id: catalogue show GE\n")
        #expect((try runner.run(["show", "countries", "georgia"])).standardOutput.hasPrefix("Georgia  🇬🇪\n"))
        #expect((try runner.run(["show", "products", "georgia"])).standardOutput.hasPrefix("Georgia\n"))
    }
}
