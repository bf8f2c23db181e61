import ArgumentParser
import CatalogueKit
import Testing
@testable import CatalogueCommands

/// The enumerated options give swift-argument-parser their values concretely: the same values,
/// help and errors as its generic defaults.
@Suite("Enumerated options (ArgumentChoices)")
struct ArgumentChoicesTests {
    /// Every value's raw value, in order, as help and completions list them; each parses back,
    /// exactly (case matters, as it did, except for the entity: see `entityNames`), and describes
    /// itself by its raw value.
    func check<T: ArgumentChoices>(_ type: T.Type, _ expected: [String], exact: Bool = true) {
        #expect(T.allValueStrings == expected, "\(T.self)")
        #expect(T.allValueDescriptions.isEmpty, "\(T.self)")
        for value in T.allCases {
            #expect(T(argument: value.rawValue)?.rawValue == value.rawValue, "\(value)")
            #expect(value.defaultValueDescription == value.rawValue, "\(value)")
        }
        if exact { #expect(T(argument: expected[0].uppercased()) == nil, "\(T.self)") }
        #expect(T(argument: "") == nil, "\(T.self)")
    }

    @Test("Each enumerated option lists its raw values and parses them exactly")
    func values() {
        check(CatalogueEntity.self, ["countries", "products"], exact: false)
        check(MatchMode.self, ["prefix", "contains", "words", "terms", "fuzzy"])
        check(OutputFormat.self, ["table", "json", "csv", "ndjson"])
        check(CountOption.self, ["capped", "exact"])
        check(SectionedOutputFormat.self, SectionedOutputFormat.allCases.map(\.rawValue))
        check(ShowFormat.self, ShowFormat.allCases.map(\.rawValue))
        check(RecordFileFormat.self, RecordFileFormat.allCases.map(\.rawValue))
        check(ImportErrorPolicy.self, ImportErrorPolicy.allCases.map(\.rawValue))
    }

    @Test("The entity is named in the plural or the singular, in any case; help lists the plurals")
    func entityNames() {
        for (argument, entity) in [("countries", CatalogueEntity.countries), ("Country", .countries), ("PRODUCTS", .products), ("product", .products)] {
            #expect(CatalogueEntity(argument: argument) == entity, "\(argument)")
        }
        for argument in ["", "prod", "countrys", "products "] {
            #expect(CatalogueEntity(argument: argument) == nil, "\(argument)")
        }
    }

    @Test("Help and a bad value name the values (the built binary)")
    func helpAndErrors() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let help = try runner.run(["search", "--help"]).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("(values: prefix, contains, words, terms, fuzzy; default: prefix)"), "\(help)")
        #expect(help.contains("(values: table, json, csv, ndjson; default: table)"), "\(help)")
        let bad = try runner.run(["search", "x", "--match", "fuzzzy"])
        #expect(bad.status == 2)
        #expect(bad.standardError.hasPrefix(
            "catalogue: error: The value 'fuzzzy' is invalid for '--match <match>'. Please provide one of 'prefix', 'contains', 'words', 'terms' or 'fuzzy'."),
            "\(bad.standardError)")
    }
}
