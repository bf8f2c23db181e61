#if PostgreSQL
import CatalogueKit
import CataloguePostgres
import Foundation

/// The PostgreSQL engine at scale, each figure next to the same SQL with the same arguments run
/// by `pgbench` (prepared statements, one client: the difference is postgres-nio's and
/// CatalogueKit's cost) and next to CatalogueKit on SQLite over the same products, in one run.
///
/// - Import: `catalogue import products FILE --db postgres://…` into a new, unseeded catalogue
///   (whole process), next to the same binary importing into a new SQLite file and `psql`'s
///   `\copy` of the same CSV into a four-column table without indexes (the floor: no folded keys,
///   no word vectors, no indexes, no upsert).
/// - Keystrokes: the prefix, contains, ranked and unranked words pages and the prefix count.
/// - Sections: the controller's performFetch + index titles, cold and warm, on both engines.
///
/// The server is the caller's (`Benchmarks/postgres.sh` starts a throwaway one); `adminURL`
/// names a database of it from which this workload creates and drops its own.
struct PostgresWorkloads {
    let size: Int
    let adminURL: URL
    let dataDirectory: URL
    let catalogueBinary: String
    /// Imports per engine (the median is reported).
    let importRounds: Int
    /// Rounds of every keystroke (fewer for the workloads that scan).
    let rounds: Int

    /// The database the keystroke workloads read, made by the last import.
    var benchmarkDatabase: String { "catalogue_bench_\(size)" }

    func run(into report: inout Report) throws {
        guard FileManager.default.isExecutableFile(atPath: catalogueBinary) else {
            throw benchmarkError("no catalogue binary at \(catalogueBinary): run `swift build -c release --traits PostgreSQL` in the root package")
        }
        let csv = try ImportWorkload.productsCSV(size: size, directory: dataDirectory)
        report.addText(try importSection(csv: csv))

        let url = databaseURL(benchmarkDatabase)
        try psql(adminURL, "ANALYZE", database: benchmarkDatabase)
        let postgres = try Catalogue.connect(to: url.absoluteString)
        let sqliteData = try BenchmarkData.prepare(size: size, directory: dataDirectory)
        let sqlite = try SearchEngines(data: sqliteData)
        let pgbench = PgbenchRunner(url: url, scratch: dataDirectory.appendingPathComponent("pgbench"))

        for workload in keystrokeWorkloads(sqlite) {
            let inProcess = try measure(
                workload.title, size: size, texts: workload.texts, rounds: workload.rounds, anchor: "pgbench (same SQL)",
                engines: [
                    Engine(name: "CatalogueKit on PostgreSQL") { try workload.run(postgres, $0) },
                    Engine(name: "CatalogueKit on SQLite") { try workload.run(sqlite.catalogue, $0) },
                ])
            var samples = Samples()
            for text in workload.texts {
                let fragment = try workload.sql(text)
                samples.append(contentsOf: try pgbench.latencies(of: fragment, transactions: workload.rounds))
            }
            var result = WorkloadResult(
                title: workload.title + " on PostgreSQL", size: size,
                results: inProcess.results + [("pgbench (same SQL)", samples)], anchor: "pgbench (same SQL)")
            result.notes = ["The same keystrokes as the SQLite tables above. pgbench: `-M prepared`, one client, "
                + "\(workload.rounds) transactions per keystroke after \(PgbenchRunner.warmUpTransactions) untimed ones, "
                + "latencies from its per-transaction log (they include pgbench's own client work and the round trip)."]
            report.add(result)
        }
        for result in try sectionsResults(postgres: postgres, sqlite: sqliteData) { report.add(result) }
    }

    // MARK: - Import

    private func importSection(csv: String) throws -> String {
        var postgresSeconds = Samples()
        var sqliteSeconds = Samples()
        var copySeconds = Samples()
        let work = dataDirectory.appendingPathComponent("postgres-import-\(size)")
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        for round in 0..<importRounds {
            // A new, unseeded catalogue each round (the library creates the schema).
            try recreateDatabase(benchmarkDatabase)
            var options = PostgresEngine.Options()
            options.seed = false
            _ = try Catalogue.connect(to: databaseURL(benchmarkDatabase).absoluteString, options: options)
            postgresSeconds.append(try timedRun(catalogueBinary, ["import", "products", csv, "--db", databaseURL(benchmarkDatabase).absoluteString]))

            let file = work.appendingPathComponent("round\(round).sqlite").path
            _ = try Catalogue(path: file, seed: false)
            sqliteSeconds.append(try timedRun(catalogueBinary, ["import", "products", csv, "--db", file]))

            let floor = "catalogue_copy_floor"
            try recreateDatabase(floor)
            try psql(adminURL, "CREATE TABLE product (name text, type text, year bigint, price double precision)", database: floor)
            copySeconds.append(try timedRun("/usr/bin/psql", [
                databaseURL(floor).absoluteString, "-v", "ON_ERROR_STOP=1", "-q",
                "-c", "\\copy product FROM '\(csv)' WITH (FORMAT csv, HEADER true)",
            ]))
            try dropDatabase(floor)
        }
        let rows: [(String, Samples)] = [
            ("`catalogue import` into PostgreSQL", postgresSeconds),
            ("`catalogue import` into SQLite", sqliteSeconds),
            ("`psql \\copy` into a bare table (floor)", copySeconds),
        ]
        var lines = [
            "### Import of a \(size.formatted())-row products CSV on PostgreSQL (whole process, median of \(importRounds))", "",
            "| engine | median | min | max | rows/s | vs psql \\copy |", "| --- | --- | --- | --- | --- | --- |",
        ]
        for (name, samples) in rows {
            lines.append("| \(name) | \(format2(samples.median)) s | \(format2(samples.min)) s | \(format2(samples.max)) s | "
                + "\(Int(Double(size) / samples.median).formatted()) | \(formatRatio(samples.median / copySeconds.median)) |")
        }
        lines += ["", "The PostgreSQL import sends every row by COPY to a staging table with its folded keys and word "
            + "vectors computed in Swift, then merges it into `product` (upsert by name, indexes maintained) in one "
            + "transaction. The floor loads the four columns only."]
        return lines.joined(separator: "\n")
    }

    private func timedRun(_ executable: String, _ arguments: [String]) throws -> Double {
        let run = try ChildProcessRun.run(executable, arguments)
        guard run.status == 0 else {
            throw benchmarkError("\(executable) \(arguments.joined(separator: " ")) failed: \(run.errorOutput)")
        }
        return run.seconds
    }

    // MARK: - Keystrokes

    /// One keystroke workload: the request per text, run through a catalogue or as SQL.
    struct KeystrokeWorkload {
        let title: String
        let texts: [String]
        let rounds: Int
        let run: (Catalogue, String) throws -> Int
        let sql: (String) throws -> SQLFragment
    }

    private func keystrokeWorkloads(_ engines: SearchEngines) -> [KeystrokeWorkload] {
        let dialect = PostgresDialect()
        func page(_ title: String, _ texts: [String], rounds: Int, _ request: @escaping (String) -> CatalogueKit.FetchRequest<Product>) -> KeystrokeWorkload {
            KeystrokeWorkload(
                title: title, texts: texts, rounds: rounds,
                run: { catalogue, text in try catalogue.fetch(request(text)).count },
                sql: { try request($0).selectSQL(in: dialect) })
        }
        return [
            page("Prefix page (BEGINSWITH[cd], limit 50) per keystroke", keystrokePrefixes, rounds: self.rounds) { engines.request($0, .prefix) },
            page("Contains page (CONTAINS[cd], limit 50) per keystroke", keystrokePrefixes, rounds: max(1, self.rounds / 4)) { engines.request($0, .contains) },
            page("Words page (ranked, limit 50) per keystroke", keystrokeWords, rounds: max(1, self.rounds / 4)) { engines.request($0, .words) },
            page("Words page, unranked (first 50 matches) per keystroke", keystrokeWords, rounds: self.rounds, engines.unrankedWords),
            KeystrokeWorkload(
                title: "Total count for \"N items found\" (prefix)", texts: keystrokePrefixes, rounds: self.rounds,
                run: { catalogue, text in try catalogue.fetchCount(engines.request(text, .prefix)) },
                sql: { try engines.request($0, .prefix).countSQL(in: dialect) }),
        ]
    }

    // MARK: - Sections

    private func sectionsResults(postgres: Catalogue, sqlite data: BenchmarkData) throws -> [WorkloadResult] {
        var configuration = CatalogueKit.Configuration()
        configuration.readOnly = true
        let sqlite = try Catalogue(path: data.path, seed: false, configuration: configuration)
        let request = CatalogueKit.FetchRequest<Product>(sortDescriptors: CatalogueKit.FetchSortDescriptor.byName)
        var cold: [String: Samples] = [:]
        var warm: [String: Samples] = [:]
        for (name, catalogue) in [("CatalogueKit on PostgreSQL", postgres), ("CatalogueKit on SQLite", sqlite)] {
            for round in 0..<max(1, rounds / 4) {
                // A new cache name each round: the first performFetch computes the sections.
                let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: request, cacheName: "bench-\(round)")
                cold[name, default: Samples()].append(try time {
                    try controller.performFetch()
                    precondition(!controller.sectionIndexTitles.isEmpty)
                })
                let again = SectionedResultsController(catalogue: catalogue, fetchRequest: request, cacheName: "bench-\(round)")
                warm[name, default: Samples()].append(try time {
                    try again.performFetch()
                    precondition(!again.sectionIndexTitles.isEmpty)
                })
            }
        }
        let names = ["CatalogueKit on PostgreSQL", "CatalogueKit on SQLite"]
        return [
            WorkloadResult(
                title: "Sections: performFetch + index titles, cold, on PostgreSQL", size: size,
                results: names.map { ($0, cold[$0]!) }, anchor: "CatalogueKit on SQLite"),
            WorkloadResult(
                title: "Sections: performFetch + index titles, warm (section cache), on PostgreSQL", size: size,
                results: names.map { ($0, warm[$0]!) }, anchor: "CatalogueKit on SQLite"),
        ]
    }

    // MARK: - Databases

    func databaseURL(_ database: String) -> URL {
        var components = URLComponents(url: adminURL, resolvingAgainstBaseURL: false)!
        components.path = "/" + database
        return components.url!
    }

    private func recreateDatabase(_ name: String) throws {
        try dropDatabase(name)
        try psql(adminURL, "CREATE DATABASE \(name)")
    }

    private func dropDatabase(_ name: String) throws {
        try psql(adminURL, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs one statement through `psql` (database names here are this file's own constants).
    private func psql(_ url: URL, _ sql: String, database: String? = nil) throws {
        let target = database.map { databaseURL($0) } ?? url
        let run = try ChildProcessRun.run("/usr/bin/psql", [target.absoluteString, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql])
        guard run.status == 0 else { throw benchmarkError("psql \(sql): \(run.errorOutput)") }
    }
}

/// `pgbench` running one statement with its arguments, prepared, on one client.
struct PgbenchRunner {
    let url: URL
    let scratch: URL

    /// Transactions run first and left out: the first prepares the statement, and PostgreSQL
    /// plans the first five executions of a prepared statement anew (custom plans).
    static let warmUpTransactions = 5

    /// Per-transaction latencies of `transactions` runs of `fragment`, from pgbench's log,
    /// after ``warmUpTransactions`` untimed ones.
    /// The statement's `$n` placeholders become pgbench variables `:pN`, set with `-D`; a NULL
    /// argument is written as `NULL` (pgbench variables are text).
    func latencies(of fragment: SQLFragment, transactions: Int) throws -> Samples {
        try? FileManager.default.removeItem(at: scratch)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var sql = fragment.sql
        var definitions: [String] = []
        // Highest number first, so $1 does not match the start of $10.
        for (index, value) in fragment.arguments.enumerated().reversed() {
            let placeholder = "$\(index + 1)"
            switch value {
            case .null:
                sql = sql.replacingOccurrences(of: placeholder, with: "NULL")
            case .integer(let integer):
                sql = sql.replacingOccurrences(of: placeholder, with: ":p\(index + 1)")
                definitions += ["-D", "p\(index + 1)=\(integer)"]
            case .real(let real):
                sql = sql.replacingOccurrences(of: placeholder, with: ":p\(index + 1)")
                definitions += ["-D", "p\(index + 1)=\(real)"]
            case .text(let text):
                sql = sql.replacingOccurrences(of: placeholder, with: ":p\(index + 1)")
                definitions += ["-D", "p\(index + 1)=\(text)"]
            case .blob:
                throw benchmarkError("pgbench cannot bind a blob")
            }
        }
        let script = scratch.appendingPathComponent("statement.sql")
        // pgbench reads one statement per script line.
        try (sql.replacingOccurrences(of: "\n", with: " ") + ";\n").write(to: script, atomically: true, encoding: .utf8)
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        let logPrefix = scratch.appendingPathComponent("latency").path
        let run = try ChildProcessRun.run("/usr/bin/pgbench", [
            "-n", "-M", "prepared", "-c", "1", "-t", String(Self.warmUpTransactions + transactions), "-f", script.path,
            "-l", "--log-prefix", logPrefix,
            "-h", components.host ?? "127.0.0.1", "-p", String(components.port ?? 5432), "-U", components.user ?? "postgres",
        ] + definitions + [String(components.path.dropFirst())])
        guard run.status == 0 else { throw benchmarkError("pgbench failed: \(run.errorOutput)\n\(sql)") }
        // client_id transaction_no latency_µs script_no end_s end_µs. pgbench 15 logs some
        // latencies as 0, so each transaction's time is taken from the end times instead: one
        // client runs its transactions back to back, so a transaction lasts from the previous
        // one's end to its own (pgbench's own work between them included).
        var ends: [(number: Int, seconds: Double)] = []
        let logs = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("latency") }
        for log in logs {
            let text = try String(contentsOfFile: scratch.appendingPathComponent(log).path, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count >= 6, let number = Int(fields[1]), let seconds = Double(fields[4]),
                      let microseconds = Double(fields[5]) else { continue }
                ends.append((number, seconds + microseconds / 1e6))
            }
        }
        ends.sort { $0.number < $1.number }
        var samples = Samples()
        for index in ends.indices.dropFirst(Self.warmUpTransactions) {
            samples.append(ends[index].seconds - ends[index - 1].seconds)
        }
        guard samples.count == transactions else { throw benchmarkError("pgbench logged \(samples.count) of \(transactions) transactions") }
        return samples
    }
}

func benchmarkError(_ message: String) -> Error {
    CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: message])
}
#endif
