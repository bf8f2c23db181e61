import CatalogueKit
import Foundation
import GRDB

/// One way of answering a keystroke: returns the number of rows it produced.
struct Engine {
    let name: String
    /// At most this many timed rounds (slow anchors such as in-memory filtering get fewer).
    var maxRounds = Int.max
    let run: (String) throws -> Int
}

/// A measured workload: each engine's per-keystroke samples, in engine order.
struct WorkloadResult {
    let title: String
    let size: Int
    let results: [(engine: String, samples: Samples)]
    let anchor: String
    var notes: [String] = []
    /// The keystroke texts, in the order each round measured them.
    var texts: [String] = []

    func samples(of engine: String) -> Samples? {
        results.first { $0.engine == engine }?.samples
    }

    /// "`text` p50, …" for `engine`'s keystrokes, slowest first: where a p99 comes from.
    func keystrokeMedians(of engine: String) -> String {
        guard let values = samples(of: engine)?.values, !texts.isEmpty else { return "" }
        let medians = texts.indices.map { index -> (String, Double) in
            var samples = Samples()
            for (position, value) in values.enumerated() where position % texts.count == index { samples.append(value) }
            return (texts[index], samples.median)
        }
        return medians.sorted { $0.1 > $1.1 }.map { "`\($0.0)` \(formatDuration($0.1))" }.joined(separator: ", ")
    }
}

/// Runs every engine on every keystroke text, interleaving engines round by round so machine
/// noise spreads evenly. One untimed warm-up round first.
func measure(_ title: String, size: Int, texts: [String], rounds: Int, anchor: String, engines: [Engine]) throws -> WorkloadResult {
    var samples = Array(repeating: Samples(), count: engines.count)
    for engine in engines {
        for text in texts.prefix(engine.maxRounds == Int.max ? texts.count : 1) { _ = try engine.run(text) }
    }
    for round in 0..<rounds {
        for (index, engine) in engines.enumerated() where round < engine.maxRounds {
            for text in texts {
                var rows = 0
                let seconds = try time { rows = try engine.run(text) }
                precondition(rows >= 0)
                samples[index].append(seconds)
            }
        }
    }
    var result = WorkloadResult(title: title, size: size, results: zip(engines, samples).map { ($0.name, $1) }, anchor: anchor)
    result.texts = texts
    return result
}

/// A page of `mode` per keystroke by CatalogueKit, and by the raw C API and GRDB's `Row` cursor
/// running the SQL CatalogueKit planned for each text.
func measureSameSQL(
    _ title: String, _ mode: MatchMode, texts: [String], size: Int, rounds: Int, engines: SearchEngines
) throws -> WorkloadResult {
    try measure(
        title, size: size, texts: texts, rounds: rounds, anchor: "raw C API",
        engines: [
            engines.catalogueKit(mode),
            try engines.rawC(mode, texts: texts),
            try engines.grdbRowCursor(mode, texts: texts),
        ])
}

/// "Keystrokes: `a`, `b`." for a workload's notes.
func keystrokeList(_ texts: [String]) -> String {
    "Keystrokes: " + texts.map { "`\($0)`" }.joined(separator: ", ") + "."
}

/// The text typed, keystroke by keystroke: 10 prefixes of 1–5 letters, some with diacritics.
let keystrokePrefixes = ["a", "ch", "cré", "dél", "forêt", "mo", "pât", "q", "sol", "zéph"]

/// Words typed for full-text search.
let keystrokeWords = ["caf", "crème mu", "for", "lum ca", "oc", "pro", "québ", "sol ca", "velvet", "zé"]

/// Words typed with typos for the fuzzy mode: transpositions, deletions, insertions and
/// substitutions of the generated names' words, one with a second word typed exactly, and a
/// prefix too short to forgive a typo.
let keystrokeTypos = ["caf", "cahteau", "blankte", "kettel", "lumeire ca", "montral", "patisseire", "quebek", "velvte", "zephir"]

/// GRDB's record, decoded with Decodable.
struct GRDBProduct: FetchableRecord, Decodable {
    var id: Int64
    var name: String
    var type: String
    var year: Int?
    var price: Double?
}

/// The engines of the search workloads over one database.
struct SearchEngines {
    let data: BenchmarkData
    let catalogue: Catalogue
    let raw: RawSQLite
    let grdb: GRDB.DatabaseQueue
    let pageSize = 50

    init(data: BenchmarkData) throws {
        self.data = data
        var configuration = CatalogueKit.Configuration()
        configuration.readOnly = true
        catalogue = try Catalogue(path: data.path, seed: false, configuration: configuration)
        raw = try RawSQLite(path: data.path)
        var grdbConfiguration = GRDB.Configuration()
        grdbConfiguration.readonly = true
        grdbConfiguration.prepareDatabase { db in
            // The same SQL needs the library's catalogue_in_matches (FullTextMembership).
            guard let handle = db.sqliteConnection, FullTextMembership.register(on: handle) == 0 else {
                throw GRDB.DatabaseError(message: "cannot register \(FullTextMembership.functionName)")
            }
            // The page cache of the library's connections, so both read the same pages from the file.
            try db.execute(sql: "PRAGMA cache_size = -\(SQLiteEngine.defaultPageCacheKiB)")
        }
        grdb = try GRDB.DatabaseQueue(path: data.path, configuration: grdbConfiguration)
    }

    /// A page of the repository's search in `mode`.
    func request(_ text: String, _ mode: MatchMode) -> CatalogueKit.FetchRequest<Product> {
        var request = CatalogueSearch.products(matching: text, mode: mode)
        request.fetchLimit = pageSize
        return request
    }

    /// A page of full-text matches in FTS order, without ranking (the DESIGN anchor's query).
    func unrankedWords(_ text: String) -> CatalogueKit.FetchRequest<Product> {
        let predicate: CatalogueKit.FetchPredicate = FullTextPattern(matchingAllPrefixesIn: text).map { .fullText($0) } ?? .false
        return CatalogueKit.FetchRequest<Product>(predicate: predicate, sortDescriptors: [], fetchLimit: pageSize)
    }

    /// CatalogueKit, as an app calls it per keystroke.
    func catalogueKit(_ name: String = "CatalogueKit", _ makeRequest: @escaping (String) -> CatalogueKit.FetchRequest<Product>) -> Engine {
        Engine(name: name) { text in try catalogue.fetch(makeRequest(text)).count }
    }

    /// CatalogueKit's ``PreparedSearch`` of all products in `mode`: what a search field runs
    /// keystroke after keystroke (in prefix mode each text is bound into SQL compiled once).
    func preparedSearch(_ mode: MatchMode) throws -> Engine {
        let search = try catalogue.prepareSearch(products: .all, mode: mode, limit: pageSize)
        return Engine(name: "CatalogueKit prepared search") { text in try search.fetch(text).count }
    }

    /// CatalogueKit with one of the repository's match modes.
    func catalogueKit(_ mode: MatchMode) -> Engine {
        catalogueKit { request($0, mode) }
    }

    /// The SQL CatalogueKit runs for `request`: planned on one of its connections, so a
    /// CONTAINS reads the trigram index when CatalogueKit's would, and a fuzzy word holds the
    /// same alternatives (the planning itself, a count of candidates or a vocabulary lookup,
    /// is CatalogueKit's cost only).
    func plannedSQL(_ request: CatalogueKit.FetchRequest<Product>) throws -> SQLFragment {
        try catalogue.sqlite!.database.read { db in
            let request = try db.resolvingTypos(in: request)
            return try request.selectSQL(in: db.plannedDialect(for: request))
        }
    }

    /// The SQL CatalogueKit generates, run on the raw C API: statements prepared and arguments
    /// computed before timing (one statement per distinct SQL among the keystrokes: the
    /// relevance tiers and the CONTAINS plan depend on the text).
    func rawC(_ name: String = "raw C API", texts: [String], _ makeRequest: (String) -> CatalogueKit.FetchRequest<Product>) throws -> Engine {
        var statements: [String: RawStatement] = [:]
        var keystrokes: [String: (statement: RawStatement, arguments: [CatalogueKit.DatabaseValue])] = [:]
        for text in texts {
            let fragment = try plannedSQL(makeRequest(text))
            let statement = try statements[fragment.sql] ?? raw.prepare(fragment.sql)
            statements[fragment.sql] = statement
            keystrokes[text] = (statement, fragment.arguments)
        }
        return Engine(name: name) { text in
            let keystroke = keystrokes[text]!
            keystroke.statement.bind(keystroke.arguments)
            return keystroke.statement.products().count
        }
    }

    func rawC(_ mode: MatchMode, texts: [String]) throws -> Engine {
        try rawC(texts: texts) { request($0, mode) }
    }

    /// The SQL and arguments CatalogueKit runs for each keystroke, computed before timing.
    private func grdbKeystrokes(_ mode: MatchMode, texts: [String]) throws -> [String: (sql: String, arguments: GRDB.StatementArguments)] {
        var keystrokes: [String: (sql: String, arguments: GRDB.StatementArguments)] = [:]
        for text in texts {
            let fragment = try plannedSQL(request(text, mode))
            keystrokes[text] = (fragment.sql, try grdbArguments(fragment.arguments))
        }
        return keystrokes
    }

    /// The same SQL through GRDB: cached statement and a Row cursor.
    func grdbRowCursor(_ mode: MatchMode, texts: [String]) throws -> Engine {
        let keystrokes = try grdbKeystrokes(mode, texts: texts)
        return Engine(name: "GRDB Row cursor") { text in
            try grdb.inDatabase { db in
                let keystroke = keystrokes[text]!
                let statement = try db.cachedStatement(sql: keystroke.sql)
                let rows = try Row.fetchCursor(statement, arguments: keystroke.arguments)
                var products: [Product] = []
                while let row = try rows.next() {
                    products.append(Product(id: row[0], name: row[1], type: row[2], year: row[3], price: row[4]))
                }
                return products.count
            }
        }
    }

    /// The same SQL through GRDB, decoding `Decodable` records.
    func grdbDecodable(_ mode: MatchMode, texts: [String]) throws -> Engine {
        let keystrokes = try grdbKeystrokes(mode, texts: texts)
        return Engine(name: "GRDB Decodable") { text in
            try grdb.inDatabase { db in
                let keystroke = keystrokes[text]!
                let statement = try db.cachedStatement(sql: keystroke.sql)
                return try GRDBProduct.fetchAll(statement, arguments: keystroke.arguments).count
            }
        }
    }

    /// GRDB's own full-text idiom: FTS5Pattern(matchingAllPrefixesIn:) per keystroke, with the
    /// SQL of `makeRequest`, whose only argument before LIMIT and OFFSET is the pattern (the
    /// unranked page).
    func grdbFTS5Pattern(_ name: String, texts: [String], _ makeRequest: (String) -> CatalogueKit.FetchRequest<Product>) throws -> Engine {
        let first = try makeRequest(texts[0]).selectSQL()
        let sql = first.sql
        precondition(first.arguments.count == 3, "the SQL takes the pattern, LIMIT and OFFSET")
        return Engine(name: name) { text in
            try grdb.inDatabase { db in
                guard let pattern = FTS5Pattern(matchingAllPrefixesIn: text) else { return 0 }
                return try GRDBProduct.fetchAll(db, sql: sql, arguments: [pattern, pageSize, 0]).count
            }
        }
    }

    func grdbArguments(_ values: [CatalogueKit.DatabaseValue]) throws -> GRDB.StatementArguments {
        GRDB.StatementArguments(values.map { value -> (any GRDB.DatabaseValueConvertible)? in
            switch value {
            case .null: nil
            case .integer(let integer): integer
            case .real(let real): real
            case .text(let text): text
            case .blob(let data): data
            }
        })
    }
}
