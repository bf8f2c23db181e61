#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import Foundation
import PostgresTestSupport
import Testing

// Five minutes: in CI's PostgreSQL stage about a hundred synchronous engine tests wait on the
// server on Swift concurrency's two cooperative threads, and a test's clock runs while it waits
// behind them; the polling arm of changesFromElsewhere once exceeded two minutes so (2026-11-27),
// though a change arrives within 20 ms once it runs. A hang still ends the run.
/// The capability check at connect time and the fallback it picks where pg_trgm is missing:
/// CONTAINS, ENDSWITH and LIKE answer the same rows in the same order without the trigram
/// indexes (read row by row), whether the app switched them off or the role may not install
/// pg_trgm; a later connection that may makes them. (LISTEN switched off, and the polling that
/// replaces it: `PostgresEngineTests.changesFromElsewhere`.)
@Suite("PostgreSQL capabilities and their fallbacks", .requiresPostgres, .timeLimit(.minutes(5)))
struct PostgresCapabilityTests {
    /// A seeded catalogue with 12,000 more products (eight "Zanzibar spice" among them, and names
    /// with `%`, `_` and `\`), vacuumed and analyzed; made with the trigram indexes, or with them switched off.
    static let withTrigrams = Result { try makeCatalogue(trigramIndexes: true) }
    static let withoutTrigrams = Result { try makeCatalogue(trigramIndexes: false) }

    static func makeCatalogue(trigramIndexes: Bool) throws -> Catalogue {
        let database = try PostgresTestServer.shared().createDatabase(prefix: trigramIndexes ? "trigrams_on" : "trigrams_off")
        var options = PostgresEngine.Options()
        options.usesTrigramIndexes = trigramIndexes
        let catalogue = try Catalogue.connect(to: database.url, options: options)
        let words = ["Anvil", "Brass", "Crème", "Delta", "Éclair", "Frame", "Gauge", "Jalapeño", "Kettle", "Lamp", "Mug"]
        var csv = "name,type,year,price\n"
        for index in 0..<12_000 {
            let name = switch index % 1_500 {
            case 7: "Zanzibar spice \(index)"
            case 8: "100% cotton \(index)"
            case 9: "a_b \(index)"
            case 10: "back\\slash \(index)"
            default: "\(words[index % words.count]) \(words[(index / words.count) % words.count].lowercased()) \(index)"
            }
            csv += "\(name),\(["kitchen", "device", "garden"][index % 3]),\(1990 + index % 30),\(index % 500)\n"
        }
        try catalogue.importRecords(Product.self, from: ImportInput(text: csv, name: "capabilities.csv"), options: ImportOptions(format: .csv))
        try database.psql("VACUUM ANALYZE")
        return catalogue
    }

    static let cd = ComparisonOptions.caseAndDiacriticInsensitive

    /// Searches served by the trigram indexes where they exist: CONTAINS in every scope, the
    /// `terms` mode, ENDSWITH and LIKE; text with LIKE's own `%`, `_` and `\`; the empty text.
    static let productRequests: [FetchRequest<Product>] = [
        CatalogueSearch.products(matching: "zanzib", mode: .contains),
        CatalogueSearch.products(matching: "CRÈME", mode: .contains),
        CatalogueSearch.products(matching: "cotton", scope: .type("Garden"), mode: .contains),
        CatalogueSearch.products(matching: "0% c", mode: .contains),
        CatalogueSearch.products(matching: "a_", mode: .contains),
        CatalogueSearch.products(matching: "k\\s", mode: .contains),
        CatalogueSearch.products(matching: "jalap 1995", mode: .terms),
        CatalogueSearch.products(matching: "", mode: .contains),
        FetchRequest(predicate: .endsWith("name", "777", options: cd), sortDescriptors: .byName),
        FetchRequest(predicate: .like("name", "*cr?me*9", options: cd), sortDescriptors: .byName),
    ]
    static let countryRequests: [FetchRequest<Country>] = [
        CatalogueSearch.countries(matching: "ivoire", mode: .contains),
        CatalogueSearch.countries(matching: "land", scope: .any, mode: .contains),
        CatalogueSearch.countries(matching: "ot", scope: .capital, mode: .contains),
        CatalogueSearch.countries(matching: "united king", scope: .any, mode: .terms),
    ]

    /// Each record as "id name", in the order fetched.
    static func rows<R: Record>(_ request: FetchRequest<R>, in catalogue: Catalogue, name: KeyPath<R, String>) throws -> [String] {
        try catalogue.fetch(request).map { "\($0.id.map(String.init) ?? "nil") \($0[keyPath: name])" }
    }

    /// EXPLAIN of `request`'s SQL with its values bound, sequential and plain index scans
    /// discouraged (on a table this small the planner would rather read it all, or read the
    /// display-order B-tree and filter): the plan shows whether an index can serve the LIKE.
    static func plan<R: Record>(_ request: FetchRequest<R>, in catalogue: Catalogue) throws -> [String] {
        let select = try request.selectSQL(in: PostgresDialect())
        return try catalogue.read { db in
            try db.forEachRow(SQLFragment("SET LOCAL enable_seqscan = off")) { _ in }
            try db.forEachRow(SQLFragment("SET LOCAL enable_indexscan = off")) { _ in }
            var lines: [String] = []
            try db.forEachRow(SQLFragment("EXPLAIN " + select.sql, select.arguments)) { lines.append(try $0.decodeText(at: 0)) }
            return lines
        }
    }

    @Test("Switched off: no trigram index is made, and every CONTAINS, terms, ENDSWITH and LIKE search answers the same rows in the same order")
    func sameAnswersWithoutTrigramIndexes() throws {
        let on = try Self.withTrigrams.get()
        let off = try Self.withoutTrigrams.get()
        #expect(on.postgres?.capabilities.trigramIndexes == true)
        #expect(off.postgres?.capabilities.trigramIndexes == false)
        for request in Self.productRequests {
            let expected = try Self.rows(request, in: on, name: \.name)
            #expect(!expected.isEmpty, "\(request)")
            #expect(try Self.rows(request, in: off, name: \.name) == expected, "\(request)")
        }
        for request in Self.countryRequests {
            let expected = try Self.rows(request, in: on, name: \.name)
            #expect(!expected.isEmpty, "\(request)")
            #expect(try Self.rows(request, in: off, name: \.name) == expected, "\(request)")
        }
        // The escaped LIKE characters matched literally, on both.
        let cotton = try off.fetch(CatalogueSearch.products(matching: "0% c", mode: .contains)).map(\.name)
        #expect(cotton.count == 8 && cotton.allSatisfy { $0.hasPrefix("100% cotton ") }, "\(cotton)")
        #expect(try off.fetch(CatalogueSearch.products(matching: "zanzib", mode: .contains)).count == 8)
    }

    @Test("The plans: with the indexes CONTAINS can read product_name_key_trigrams; switched off, no trigram index appears and the LIKE filters rows")
    func plansWithAndWithoutTrigramIndexes() throws {
        let rare = CatalogueSearch.products(matching: "zanzib", mode: .contains)
        let withIndexes = try Self.plan(rare, in: try Self.withTrigrams.get())
        #expect(withIndexes.contains { $0.contains("Bitmap Index Scan on product_name_key_trigrams") }, "\(withIndexes.joined(separator: "\n"))")

        let off = try Self.withoutTrigrams.get()
        for request in Self.productRequests.prefix(3) {
            let plan = try Self.plan(request, in: off)
            let text = plan.joined(separator: "\n")
            #expect(!text.contains("_trigrams"), "\(text)")
            #expect(plan.contains { $0.contains("Filter: ") && $0.contains("name_key ~~ ") }, "\(text)")
        }
        let countries = try Self.plan(Self.countryRequests[1], in: off).joined(separator: "\n")
        #expect(!countries.contains("_trigrams"), "\(countries)")
    }

    @Test("A later connection with the indexes wanted makes the ones a connection without them left out")
    func madeOnALaterConnection() throws {
        let database = try PostgresTestServer.shared().createDatabase(prefix: "trigrams_later")
        var options = PostgresEngine.Options()
        options.usesTrigramIndexes = false
        let first = try Catalogue.connect(to: database.url, options: options)
        #expect(first.postgres?.capabilities.trigramIndexes == false)
        let trigramIndexes = "SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes WHERE indexdef LIKE '%gin_trgm_ops%'"
        #expect(try database.psql(trigramIndexes) == "\n")

        let second = try Catalogue.connect(to: database.url)
        #expect(second.postgres?.capabilities.trigramIndexes == true)
        #expect(try database.psql(trigramIndexes)
            == "country_alias_key_trigrams,country_capital_key_trigrams,country_name_key_trigrams,product_name_key_trigrams\n")
        // Switched off again, a connection drops none: the capability says what the database has.
        let third = try Catalogue.connect(to: database.url, options: options)
        #expect(third.postgres?.capabilities.trigramIndexes == true)
    }

    @Test("A role that may not install pg_trgm gets a working catalogue without trigram indexes, and CONTAINS still answers")
    func roleWithoutExtensionRights() throws {
        let server = try PostgresTestServer.shared()
        let database = try server.createDatabase(prefix: "no_trgm")
        let role = "no_trgm_" + UUID().uuidString.prefix(8).lowercased()
        let password = "pw-" + UUID().uuidString
        try server.createRole(role, password: password)
        // The database lacks pg_trgm; the role may create tables in its schema, not extensions
        // (no CREATE on the database).
        try database.psql("DROP EXTENSION pg_trgm; GRANT CREATE ON SCHEMA public TO :\"role\"", variables: ["role": role])

        let catalogue = try Catalogue.connect(to: server.url(database: database.name, user: role, password: password))
        #expect(catalogue.postgres?.capabilities.trigramIndexes == false)
        #expect(catalogue.postgres?.capabilities.listenNotify == true)
        #expect(try database.psql("SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'") == "0\n")
        #expect(try catalogue.fetch(CatalogueSearch.countries(matching: "ivoire", mode: .contains)).map(\.name) == ["Côte d'Ivoire"])
        #expect(try catalogue.fetch(CatalogueSearch.countries(matching: "ivory", mode: .contains)).map(\.name) == ["Côte d'Ivoire"])
        #expect(try catalogue.fetch(CatalogueSearch.countries(matching: "bog", scope: .capital)).map(\.name) == ["Colombia"])
    }
}
#endif
