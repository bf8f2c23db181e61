import ArgumentParser
import CatalogueKit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
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
            number is a product id and anything else a country code (in any case). The entity \
            may also come first, as export and import take it: catalogue show products 5.

            Examples:
              catalogue show CO
              catalogue show ci --format json
              catalogue show 5
              catalogue show 5 --entity products --format json
              catalogue show products 5
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("A country code (CO) or a product id (5).", valueName: "code-or-id"))
    var firstArgument: String

    /// The key when the entity came first (`show products 5`), as `export` and `import` take it.
    @Argument(help: .hidden)
    var secondArgument: String?

    @Option(help: "What to show (default: products for a number, else countries).")
    var entity: CatalogueEntity?

    @Option(help: "Output format.")
    var format: ShowFormat = .table

    /// The code or id to show.
    var key: String { secondArgument ?? firstArgument }

    /// The entity named before the key (`show products 5`), if any.
    private var leadingEntity: CatalogueEntity? {
        secondArgument == nil ? nil : CatalogueEntity(argument: firstArgument)
    }

    /// The entity the key names: the one named, else a number names a record of the entity
    /// looked up by id, anything else one looked up by code.
    var resolvedEntity: CatalogueEntity {
        if let named = entity ?? leadingEntity { return named }
        let byID = CatalogueEntity.allCases.first { $0.lookup == .id }
        let byCode = CatalogueEntity.allCases.first { $0.lookup != .id }
        let isNumber = RecordLookup.id.normalizedKey(key) != nil
        return (isNumber ? byID : byCode) ?? byCode ?? .countries
    }

    func validate() throws {
        let entities = CatalogueEntity.allCases.map(\.rawValue).joined(separator: " or ")
        if secondArgument != nil {
            guard let leadingEntity else {
                throw ValidationError("show takes one code or id, or \(entities) and then one: '\(firstArgument)' is neither")
            }
            if let entity, entity != leadingEntity {
                throw ValidationError("'\(firstArgument)' and --entity \(entity.rawValue) name different things to show")
            }
        } else if let named = CatalogueEntity(argument: firstArgument) {
            let example = named.lookup == .id ? "5" : "CO"
            throw ValidationError("which \(named.singular)? Give its \(Self.keyName(named.lookup)) after '\(firstArgument)': catalogue show \(named.rawValue) \(example)")
        }
        let entity = resolvedEntity
        guard entity.lookup.normalizedKey(key) == nil else { return }
        let suggestion = "catalogue search \"\(key)\"" + (entity == SearchInvocation.defaults.entity ? "" : " --entity \(entity.rawValue)")
        throw ValidationError(
            "'\(key)' is not a \(entity.singular) \(Self.keyName(entity.lookup)) (\(entity.lookup.keyDescription)); find one with: \(suggestion)")
    }

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readOnly, concurrentReads: false)
        try show(resolvedEntity.recordType, in: catalogue)
    }

    private func show<R: CatalogueRecord>(_ type: R.Type, in catalogue: Catalogue) throws {
        let lookup = R.entity.lookup
        let key = lookup.normalizedKey(self.key) ?? self.key
        guard let record = try catalogue.read({ try $0.fetchFirst(lookup.request(for: key, of: type)) }), let id = record.id else {
            throw ShowError.notFound("no \(R.entity.singular) with \(Self.keyName(lookup)) \(key)")
        }
        switch format {
        case .json:
            _ = try catalogue.read { db in
                try standardOutput.withExportOutput { output in
                    try RecordExporter<R>(format: .ndjson).export(from: db, to: output, id: id)
                }
            }
        case .table:
            let style = TextStyle(enabled: TerminalOutput.usesColour(STDOUT_FILENO))
            let width = TerminalOutput.isTerminal(STDOUT_FILENO) ? TerminalOutput.columns(of: STDOUT_FILENO) : nil
            standardOutput.print(try record.detailPage(in: catalogue).text(style: style, width: width))
        }
    }

    /// "code", "id": what a key of `lookup` is called.
    private static func keyName(_ lookup: RecordLookup) -> String {
        switch lookup {
        case .code(let column, _, _): column
        case .id: "id"
        }
    }
}

/// Output formats of `catalogue show`.
enum ShowFormat: String, CaseIterable, ArgumentChoices {
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
