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
        abstract: "Show one country (by code or name) or product (by id or name) in detail.",
        discussion: """
            A country's page lists its capital, continent, region, population, area, currency, \
            languages, calling code, internet domain, neighbours (by name) and the other names \
            it is searched by. A product's lists its type, year and price. Without --entity, a \
            number is a product id, two letters a country code (in any case), and anything else \
            a name: a country's name or one of its other names, or a product's, whole, ignoring \
            case and diacritics (a key that names nothing is tried as a name too). A name that \
            is no record's lists those it may mean. The entity may also come first, as export \
            and import take it: catalogue show products 5.

            Examples:
              catalogue show CO
              catalogue show ci --format json
              catalogue show "cote d'ivoire"
              catalogue show 5
              catalogue show 5 --entity products --format json
              catalogue show products 5
              catalogue show products "ipad mini"
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("A country code (CO), a product id (5), or a name (France, \"iPad mini\").", valueName: "code-id-or-name"))
    var firstArgument: String

    /// The key when the entity came first (`show products 5`), as `export` and `import` take it,
    /// or the rest of a name of several words typed without quotes (`show united kingdom`).
    @Argument(help: .hidden)
    var otherArguments: [String] = []

    @Option(help: "What to show (default: products for a number, else countries).")
    var entity: CatalogueEntity?

    @Option(help: "Output format.")
    var format: ShowFormat = .table

    /// The code, id or name to show: the words after the entity, if one came first, else all,
    /// joined by spaces as `search` joins them.
    var key: String {
        (leadingEntity == nil ? [firstArgument] + otherArguments : otherArguments).joined(separator: " ")
    }

    /// The entity named, by `--entity` or before the key; nil: any.
    private var namedEntity: CatalogueEntity? { entity ?? leadingEntity }

    /// The entity named before the key (`show products 5`), if any.
    private var leadingEntity: CatalogueEntity? {
        otherArguments.isEmpty ? nil : CatalogueEntity(argument: firstArgument)
    }

    /// The entity whose key the key would be: the one named, else a number names a record of
    /// the entity looked up by id, anything else one looked up by code (a name is looked up in
    /// every entity, ``run()``).
    var resolvedEntity: CatalogueEntity {
        if let named = namedEntity { return named }
        let byID = CatalogueEntity.allCases.first { $0.lookup == .id }
        let byCode = CatalogueEntity.allCases.first { $0.lookup != .id }
        let isNumber = RecordLookup.id.normalizedKey(key) != nil
        return (isNumber ? byID : byCode) ?? byCode ?? .countries
    }

    func validate() throws {
        if let leadingEntity, let entity, entity != leadingEntity {
            throw ValidationError("'\(firstArgument)' and --entity \(entity.rawValue) name different things to show")
        }
        if otherArguments.isEmpty, let named = CatalogueEntity(argument: firstArgument) {
            let example = named.lookup == .id ? "5" : "CO"
            throw ValidationError("which \(named.singular)? Give its \(Self.keyName(named.lookup)) after '\(firstArgument)': catalogue show \(named.rawValue) \(example)")
        }
        guard !CatalogueSearch.normalizedText(key).isEmpty else {
            throw ValidationError("give a code, an id or a name to show")
        }
    }

    func run() throws {
        let catalogue = try global.openCatalogue(access: .readOnly, concurrentReads: false)
        let entity = resolvedEntity
        if let key = entity.lookup.normalizedKey(key), try show(entity.recordType, key: key, in: catalogue) {
            return
        }
        let (found, key) = try recordNamed(in: catalogue)
        guard try show(found.entity.recordType, key: key, in: catalogue) else {
            throw ShowError.notFound("no \(found.entity.singular) with \(Self.keyName(found.entity.lookup)) \(key)")
        }
    }

    /// The one record the key names as a name, and its key; throws ``ShowError`` when it names
    /// none (what it may mean, if anything) or several (which).
    private func recordNamed(in catalogue: Catalogue) throws -> (NamedRecord, String) {
        let entities = namedEntity.map { [$0] } ?? CatalogueEntity.allCases
        let named = try catalogue.read { db in
            try entities.flatMap { try NamedRecord.named(key, $0.recordType, in: db) }
        }
        if named.count == 1, let found = named.first, let key = found.entity.lookup.normalizedKey(found.key) {
            return (found, key)
        }
        let nouns = entities.map(\.singular).joined(separator: " or ")
        let how = "Show one with its \(entities.map { Self.keyName($0.lookup) }.joined(separator: " or "))"
        if named.count > 1 {
            let listed = named.map(\.titleAndKey).joined(separator: ", ")
            throw ShowError.several("'\(key)' names \(named.count) records: \(listed). \(how): catalogue show \(named[0].key)")
        }
        if let code = resolvedEntity.lookup.normalizedKey(key) {
            // A code or id that names nothing, and no name either: said as a code or id.
            throw ShowError.notFound("no \(resolvedEntity.singular) with \(Self.keyName(resolvedEntity.lookup)) \(code)")
        }
        let near = try catalogue.read { db in
            try entities.flatMap { try NamedRecord.near(key, $0.recordType, in: db, limit: 5) }
        }.prefix(5)
        let missing = "no \(nouns) named '\(key)'"
        guard let first = near.first else {
            throw ShowError.notFound(missing)
        }
        let listed = near.map(\.titleAndKey).joined(separator: ", ")
        let showIt = near.count == 1 ? "Show it with" : how
        throw ShowError.notFound("\(missing); did you mean \(listed)? \(showIt): catalogue show \(first.key)")
    }

    /// Prints the record of `type` whose code or id is `key` (normalized); false when there is none.
    private func show<R: CatalogueRecord>(_ type: R.Type, key: String, in catalogue: Catalogue) throws -> Bool {
        let lookup = R.entity.lookup
        guard let record = try catalogue.read({ try $0.fetchFirst(lookup.request(for: key, of: type)) }), let id = record.id else {
            return false
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
        return true
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

/// A record `show` was asked for does not exist, or a name names several (exit code 1).
enum ShowError: Error, CustomStringConvertible {
    case notFound(String)
    case several(String)

    var description: String {
        switch self {
        case .notFound(let message), .several(let message): message
        }
    }
}
