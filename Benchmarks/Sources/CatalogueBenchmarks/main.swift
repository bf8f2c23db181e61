// catalogue-benchmarks: CatalogueKit next to its anchors, measured in the same run.
//
//   swift run -c release --package-path Benchmarks CatalogueBenchmarks [--smoke]
//       [--sizes 10000,100000,1000000] [--rounds N] [--output BENCHMARKS.md] [--data DIR]
//       [--workloads search,import,cli,http,postgres] [--catalogue PATH] [--http-seconds 30]
//       [--postgres postgres://user@host:port/database]
//
// The postgres workloads need the PostgreSQL trait (`--traits PostgreSQL`) and a server:
// Benchmarks/postgres.sh starts a throwaway one and runs them.
//
// The import and cli workloads run the root package's `catalogue` binary: by default
// .build/release/catalogue of the root package (`swift build -c release` there), or --catalogue PATH.
import CatalogueKit
import Foundation

struct Options {
    var sizes = [10_000, 100_000, 1_000_000]
    var rounds = 20
    var output: String?
    var dataDirectory = URL(fileURLWithPath: ".data")
    var smoke = false
    /// Which workloads run: `search` (search, sections), `import` and `cli` (cold CLI search);
    /// `http` (`catalogue serve` under wrk) only when asked for.
    var workloads: Set<String> = ["search", "import", "cli"]
    /// How long wrk runs in the `http` workload.
    var httpSeconds = 30
    /// The server of the `postgres` workloads: a database of it they create theirs from.
    var postgresURL: URL?
    /// The `catalogue` binary the import workload runs.
    var catalogueBinary = ImportWorkload.defaultCatalogueBinary

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--smoke":
                options.smoke = true
                options.sizes = [10_000]
                options.rounds = 1
            case "--sizes":
                options.sizes = (iterator.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--rounds":
                options.rounds = Int(iterator.next() ?? "") ?? options.rounds
            case "--output":
                options.output = iterator.next()
            case "--data":
                options.dataDirectory = URL(fileURLWithPath: iterator.next() ?? ".data")
            case "--workloads":
                options.workloads = Set((iterator.next() ?? "").split(separator: ",").map(String.init))
            case "--catalogue":
                options.catalogueBinary = iterator.next() ?? options.catalogueBinary
            case "--http-seconds":
                options.httpSeconds = Int(iterator.next() ?? "") ?? options.httpSeconds
            case "--postgres":
                options.postgresURL = URL(string: iterator.next() ?? "")
            case "--help", "-h":
                print("usage: CatalogueBenchmarks [--smoke] [--sizes 10000,100000,1000000] [--rounds N] [--output FILE] [--data DIR] "
                    + "[--workloads search,import,cli,http,postgres] [--catalogue PATH] [--http-seconds 30] [--postgres URL]")
                exit(0)
            default:
                FileHandle.standardError.write(Data("CatalogueBenchmarks: error: unknown argument \(argument)\n".utf8))
                exit(2)
            }
        }
        return options
    }
}

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == SectionsWorkload.probeArgument {
    do {
        try SectionsWorkload.runProbe(path: CommandLine.arguments[2])
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("CatalogueBenchmarks: error: \(error)\n".utf8))
        exit(1)
    }
}

let options = Options.parse(CommandLine.arguments)
var report = Report()
var scaling: [(size: Int, prefix: Double, words: Double, inMemory: Double)] = []
var targets = TargetCheck()

do {
    for size in options.sizes {
        if options.workloads.contains("import") {
            let workload = ImportWorkload(
                size: size, dataDirectory: options.dataDirectory, catalogueBinary: options.catalogueBinary,
                rounds: max(1, min(3, options.rounds)))
            let (text, ratio, seconds) = try workload.run()
            report.addText(text)
            targets.importRatio = ratio
            targets.importRowsPerSecond = Double(size) / seconds
        }
        if options.workloads.contains("http") {
            let data = try BenchmarkData.prepare(size: size, directory: options.dataDirectory)
            let workload = HTTPServerWorkload(
                data: data, catalogueBinary: options.catalogueBinary,
                scratch: options.dataDirectory.appendingPathComponent("http-scratch"), seconds: options.httpSeconds,
                importRows: options.smoke ? 1_000 : 100_000)
            report.addText(try workload.run())
        }
        if options.workloads.contains("postgres") {
            #if PostgreSQL
            guard let url = options.postgresURL else {
                throw benchmarkError("the postgres workloads need --postgres postgres://user@host:port/database (Benchmarks/postgres.sh)")
            }
            try PostgresWorkloads(
                size: size, adminURL: url, dataDirectory: options.dataDirectory, catalogueBinary: options.catalogueBinary,
                importRounds: max(1, min(3, options.rounds)), rounds: options.rounds
            ).run(into: &report)
            #else
            FileHandle.standardError.write(Data("CatalogueBenchmarks: error: the postgres workloads need --traits PostgreSQL\n".utf8))
            exit(2)
            #endif
        }
        guard options.workloads.contains("search") else { continue }
        let data = try BenchmarkData.prepare(size: size, directory: options.dataDirectory)
        if let seconds = data.buildSeconds {
            report.addText("Built \(size.formatted()) products with CatalogueKit's batch upsert in \(format2(seconds)) s "
                + "(\(Int(Double(size) / seconds).formatted()) rows/s).")
        }
        let engines = try SearchEngines(data: data)
        let inMemory = try InMemoryFilter(catalogue: engines.catalogue)
        var prefix = try measure(
            "Prefix page (BEGINSWITH[cd], limit 50) per keystroke", size: size, texts: keystrokePrefixes,
            rounds: options.rounds, anchor: "raw C API",
            engines: [
                engines.catalogueKit(.prefix),
                try engines.preparedSearch(.prefix),
                try engines.rawC(.prefix, texts: keystrokePrefixes),
                try engines.grdbRowCursor(.prefix, texts: keystrokePrefixes),
                try engines.grdbDecodable(.prefix, texts: keystrokePrefixes),
                inMemory.preFolded,
                inMemory.foldingEveryName,
            ])
        prefix.notes = [keystrokeList(keystrokePrefixes)
            + " CatalogueKit builds, compiles and runs a request per keystroke (`Catalogue.fetch`);"
            + " its prepared search binds each keystroke's folded text into SQL compiled once (`PreparedSearch.fetch`)."
            + " In-memory filters scan every product (they also count matches for \"N items found\")."]
        report.add(prefix)

        // Three or more characters read the ranges holding their trigrams; shorter texts scan the
        // first ranges' keys, then read the ranges holding a trigram that starts with them.
        let longTexts = keystrokePrefixes.filter { $0.count >= 3 }
        let shortTexts = keystrokePrefixes.filter { $0.count < 3 }
        var contains: [WorkloadResult] = []
        var longContains = try measure(
            "Contains page (CONTAINS[cd], limit 50, 3+ characters) per keystroke", size: size, texts: longTexts,
            rounds: max(1, options.rounds / 4), anchor: "raw C API",
            engines: [engines.catalogueKit(.contains), try engines.rawCKeyRanges(texts: longTexts), try engines.grdbKeyRanges(texts: longTexts)])
        longContains.notes = [keystrokeList(longTexts)
            + " Each reads the key ranges (migration 0006) holding the text's trigrams, in name order, and the page's rows"
            + " from each range's keys until it has 50: raw C and GRDB run CatalogueKit's three statements."]
        report.add(longContains)
        contains.append(longContains)
        var shortContains = try measure(
            "Contains page (CONTAINS[cd], limit 50, 1–2 characters) per keystroke", size: size, texts: shortTexts,
            rounds: max(1, options.rounds / 4), anchor: "raw C API",
            engines: [engines.catalogueKit(.contains), try engines.rawCKeyRanges(texts: shortTexts), try engines.grdbKeyRanges(texts: shortTexts)])
        shortContains.notes = [keystrokeList(shortTexts)
            + " Each reads the keys of the first 32 key ranges in order; when its page is not full there, the ranges holding"
            + " a trigram that starts with the text (migration 0007's term table), in name order, as for longer texts:"
            + " raw C and GRDB run CatalogueKit's statements."]
        report.add(shortContains)
        contains.append(shortContains)

        var words = try measureSameSQL(
            "Words page (FTS5 word prefixes, ranked in tiers, limit 50) per keystroke", .words, texts: keystrokeWords,
            size: size, rounds: max(1, options.rounds / 4), engines: engines)
        words.notes = [keystrokeList(keystrokeWords)
            + " CatalogueKit's p50 per keystroke: " + words.keystrokeMedians(of: "CatalogueKit") + "."]
        report.add(words)
        let unranked = try measure(
            "Words page, unranked (FTS5 word prefixes, first 50 matches) per keystroke", size: size, texts: keystrokeWords,
            rounds: options.rounds, anchor: "raw C API",
            engines: [
                engines.catalogueKit("CatalogueKit", engines.unrankedWords),
                try engines.rawC(texts: keystrokeWords, engines.unrankedWords),
                try engines.grdbFTS5Pattern("GRDB FTS5Pattern", texts: keystrokeWords, engines.unrankedWords),
            ])
        report.add(unranked)
        var fuzzy = try measureSameSQL(
            "Fuzzy page (words forgiving typos, exact matches first, limit 50) per keystroke", .fuzzy, texts: keystrokeTypos,
            size: size, rounds: max(1, options.rounds / 4), engines: engines)
        fuzzy.notes = [keystrokeList(keystrokeTypos)
            + " CatalogueKit looks each word's alternatives up in the FTS5 vocabulary (remembered per connection until the "
            + "data changes); raw C and GRDB run the SQL it wrote, alternatives included, so the difference is that lookup.",
            "CatalogueKit's p50 per keystroke: " + fuzzy.keystrokeMedians(of: "CatalogueKit") + "."]
        report.add(fuzzy)

        report.add(try measure(
            "Total count for \"N items found\" (prefix)", size: size, texts: keystrokePrefixes,
            rounds: options.rounds, anchor: "raw C API",
            engines: [
                Engine(name: "CatalogueKit") { text in try engines.catalogue.fetchCount(engines.request(text, .prefix)) },
                try countEngine(engines, texts: keystrokePrefixes),
            ]))

        let (sectionResults, controllerPeak) = try SectionsWorkload(data: data, rounds: options.rounds).run()
        for result in sectionResults { report.add(result) }
        targets.size = size
        targets.prefix = prefix
        targets.longContains = contains[0]
        targets.shortContains = contains[1]
        targets.words = words
        targets.unrankedWords = unranked
        targets.fuzzy = fuzzy
        targets.sections = sectionResults
        targets.controllerPeak = controllerPeak

        if options.workloads.contains("cli") {
            let coldWorkload = ColdCLIWorkload(data: data, catalogue: options.catalogueBinary, rounds: max(3, options.rounds / 2))
            let cli = try coldWorkload.run()
            report.add(cli)
            targets.coldCLI = cli.samples(of: "catalogue search")?.median
            let wait = try coldWorkload.runUserWait()
            report.add(wait)
            targets.userWait = wait
        }

        scaling.append((size, prefix.samples(of: "CatalogueKit")!.median, words.samples(of: "CatalogueKit")!.median,
                        prefix.samples(of: "in-memory, pre-folded keys")!.median))
    }

    if !scaling.isEmpty {
        var lines = ["### Scaling (CatalogueKit p50 per keystroke)", "",
                     "| products | prefix page | words page | in-memory pre-folded filter |", "| --- | --- | --- | --- |"]
        for row in scaling {
            lines.append("| \(row.size.formatted()) | \(formatDuration(row.prefix)) | \(formatDuration(row.words)) | \(formatDuration(row.inMemory)) |")
        }
        report.addText(lines.joined(separator: "\n"))
    }
    report.addText("Peak RSS of the benchmark process: \(peakResidentBytes() / (1 << 20)) MiB.")
    if let table = targets.markdown() { report.addText(table) }

    if let output = options.output {
        let command = "swift run -c release --package-path Benchmarks CatalogueBenchmarks "
            + CommandLine.arguments.dropFirst().joined(separator: " ")
        let header = "# Benchmarks\n\nGenerated by `Benchmarks/` (see its README); every figure is measured next to its "
            + "anchors in the same process and run. p50/p99 are over every keystroke of every round.\n\n"
            + environmentDescription(command: command)
        try report.markdown(header: header).write(toFile: output, atomically: true, encoding: .utf8)
        print("wrote \(output)")
    }
} catch {
    FileHandle.standardError.write(Data("CatalogueBenchmarks: error: \(error)\n".utf8))
    exit(1)
}

/// The raw C count with the SQL CatalogueKit generates.
func countEngine(_ engines: SearchEngines, texts: [String]) throws -> Engine {
    let sql = try engines.request(texts[0], .prefix).countSQL().sql
    let statement = try engines.raw.prepare(sql)
    var arguments: [String: [CatalogueKit.DatabaseValue]] = [:]
    for text in texts { arguments[text] = try engines.request(text, .prefix).countSQL().arguments }
    return Engine(name: "raw C API") { text in
        statement.bind(arguments[text]!)
        _ = statement.step()
        return Int(statement.int64(0))
    }
}
