import ArgumentParser
import CatalogueKit
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `catalogue show`: one country or product as a detail view.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one country (by code) or product (by id) in detail.",
        discussion: """
            A country's page lists its capital, continent, region, population, area, currency, \
            languages, calling code, internet domain, neighbours (by name) and the other names \
            it is searched by. A product's lists its type, year and price. Without --entity, a \
            number is a product id and anything else a country code (in any case).

            Examples:
              catalogue show CO
              catalogue show ci --format json
              catalogue show 5
              catalogue show 5 --entity products --format json
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("A country code (CO) or a product id (5).", valueName: "code-or-id"))
    var key: String

    @Option(help: "What to show (default: products for a number, else countries).")
    var entity: CatalogueEntity?

    @Option(help: "Output format.")
    var format: ShowFormat = .table

    /// The entity the key names.
    var resolvedEntity: CatalogueEntity {
        entity ?? (!key.isEmpty && key.allSatisfy(\.isASCII) && Int64(key) != nil ? .products : .countries)
    }

    func validate() throws {
        switch resolvedEntity {
        case .countries:
            let code = key.uppercased()
            guard code.utf8.count == 2, code.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
                throw ValidationError(
                    "'\(key)' is not a country code (two letters, e.g. CO); find one with: catalogue search \"\(key)\"")
            }
        case .products:
            guard Int64(key) != nil else {
                throw ValidationError(
                    "'\(key)' is not a product id (a number); find one with: catalogue search \"\(key)\" --entity products")
            }
        }
    }

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readOnly)
        let style = TextStyle(enabled: TerminalOutput.usesColour(STDOUT_FILENO))
        let width = TerminalOutput.isTerminal(STDOUT_FILENO) ? TerminalOutput.columns(of: STDOUT_FILENO) : nil
        switch resolvedEntity {
        case .countries:
            let code = key.uppercased()
            let request = FetchRequest<Country>(predicate: .equals("code", code))
            guard let country = try catalogue.read({ try $0.fetchFirst(request) }), let id = country.id else {
                throw ShowError.notFound("no country with code \(code)")
            }
            if format == .json {
                try printJSON(Country.self, id: id, catalogue: catalogue)
                return
            }
            let codes = (country.neighbours ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let neighbours = try catalogue.read { db in
                try db.fetch(FetchRequest<Country>(predicate: .in("code", codes)))
            }
            let names = Dictionary(neighbours.map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })
            standardOutput.print(DetailView.country(country, neighbourNames: codes.map { names[$0] ?? $0 }, style: style, width: width))
        case .products:
            let id = Int64(key) ?? 0
            guard let product = try catalogue.read({ try $0.record(Product.self, id: id) }) else {
                throw ShowError.notFound("no product with id \(id)")
            }
            if format == .json {
                try printJSON(Product.self, id: id, catalogue: catalogue)
                return
            }
            standardOutput.print(DetailView.product(product, style: style, width: width))
        }
    }

    /// The record as one JSON object, with the keys of `catalogue export --format json`.
    private func printJSON<R: ImportableRecord>(_ type: R.Type, id: Int64, catalogue: Catalogue) throws {
        _ = try catalogue.read { db in
            try standardOutput.withExportOutput { output in
                try RecordExporter<R>(format: .ndjson).export(from: db, to: output, id: id)
            }
        }
    }
}

/// Output formats of `catalogue show`.
enum ShowFormat: String, CaseIterable, ExpressibleByArgument {
    /// A detail view for people.
    case table
    /// One JSON object.
    case json
}

/// A record `show` was asked for does not exist (exit code 1).
enum ShowError: Error, CustomStringConvertible {
    case notFound(String)

    var description: String {
        switch self {
        case .notFound(let message): message
        }
    }
}
