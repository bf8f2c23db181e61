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

    @Test("Unknown records: exit 1; malformed keys: exit 2", arguments: [
        (["show", "ZZ"], 1, "catalogue: error: no country with code ZZ\n"),
        (["show", "xx"], 1, "catalogue: error: no country with code XX\n"),
        (["show", "99999"], 1, "catalogue: error: no product with id 99999\n"),
        (["show", "Colombia"], 2, "catalogue: error: 'Colombia' is not a country code (two letters, e.g. CO); find one with: catalogue search \"Colombia\"\n"),
        (["show", "ipad", "--entity", "products"], 2, "catalogue: error: 'ipad' is not a product id (a number); find one with: catalogue search \"ipad\" --entity products\n"),
        (["show", "products"], 2, "catalogue: error: which product? Give its id after 'products': catalogue show products 5\n"),
        (["show", "Countries"], 2, "catalogue: error: which country? Give its code after 'Countries': catalogue show countries CO\n"),
        (["show", "cities", "5"], 2, "catalogue: error: show takes one code or id, or countries or products and then one: 'cities' is neither\n"),
        (["show", "products", "5", "--entity", "countries"], 2, "catalogue: error: 'products' and --entity countries name different things to show\n"),
        (["show", "products", "CO"], 2, "catalogue: error: 'CO' is not a product id (a number); find one with: catalogue search \"CO\" --entity products\n"),
        (["show", "countries", "Colombia"], 2, "catalogue: error: 'Colombia' is not a country code (two letters, e.g. CO); find one with: catalogue search \"Colombia\"\n"),
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
        #expect(help.standardOutput.contains("USAGE: catalogue show [--db <path>] <code-or-id> [--entity <entity>]"))
    }
}
