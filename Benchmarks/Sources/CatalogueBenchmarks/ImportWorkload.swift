import CatalogueKit
import Foundation

/// Importing an N-row products CSV into a new catalogue: the `catalogue import` binary next to
/// the stock `sqlite3` shell loading the same file into the same schema (indexes, FTS5 and its
/// triggers included), each a separate process timed from start to exit, in the same run.
///
/// - `catalogue import products FILE`: CSV parsing, checks, folded keys, upsert by natural key,
///   one transaction.
/// - The shell: `.import` into a TEMP staging table, then one `INSERT INTO product (…) SELECT …`.
///   It cannot fold with Foundation, so its `name_key`/`type_key` are `lower(…)` (ASCII case
///   only); the triggers fill FTS5. Once with the shell's defaults, once with the 64 MiB page
///   cache `catalogue import` sets for itself.
///
/// Every run starts from a copy of the same new catalogue (migrated, seeded, in WAL mode), made
/// by the binary itself; the first-import run removes it, so that `catalogue import` creates the
/// catalogue (`Catalogue.importRecords(_:from:options:intoNewCatalogueAt:…)`).
struct ImportWorkload {
    let size: Int
    let dataDirectory: URL
    let catalogueBinary: String
    let rounds: Int

    /// The `sqlite3` shell on this machine, if any.
    static var sqliteShell: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        return (["/usr/bin/sqlite3"] + path.split(separator: ":").map { "\($0)/sqlite3" })
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The root package's release build of `catalogue`, if it was built.
    static var defaultCatalogueBinary: String {
        // Benchmarks/Sources/CatalogueBenchmarks/ImportWorkload.swift → the root package.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/release/catalogue").path
    }

    /// The report section and the import's time as a multiple of the stock shell's.
    func run() throws -> (report: String, ratioToShell: Double, seconds: Double) {
        guard FileManager.default.isExecutableFile(atPath: catalogueBinary) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey:
                "no catalogue binary at \(catalogueBinary): run `swift build -c release` in the root package, or pass --catalogue PATH"])
        }
        let csv = try Self.productsCSV(size: size, directory: dataDirectory)
        let work = dataDirectory.appendingPathComponent("import-\(size)")
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        // A new catalogue, made by the binary: the starting point of every run.
        let template = work.appendingPathComponent("template.sqlite").path
        let created = try ChildProcessRun.run(catalogueBinary, ["search", "x", "--db", template])
        guard created.status == 0 else { throw failure("catalogue search", created) }
        let seeded = try Catalogue(path: template, seed: false).rowCount()

        var engines: [(name: String, run: (String) throws -> ChildProcessRun)] = [
            ("catalogue import", { database in
                try ChildProcessRun.run(self.catalogueBinary, ["import", "products", csv, "--db", database])
            }),
            // The first import of a path: the catalogue is created by it, without a write-ahead log.
            ("catalogue import, first (no file yet)", { database in
                try FileManager.default.removeItem(atPath: database)
                return try ChildProcessRun.run(self.catalogueBinary, ["import", "products", csv, "--db", database])
            }),
        ]
        var notes: [String] = []
        if let shell = Self.sqliteShell {
            for (name, pragma) in [("sqlite3 shell, defaults", ""), ("sqlite3 shell, 64 MiB page cache", "PRAGMA cache_size = -65536;\n")] {
                let script = work.appendingPathComponent("\(name.filter(\.isLetter)).sql").path
                try (pragma + Self.shellScript(csv: csv)).write(toFile: script, atomically: true, encoding: .utf8)
                engines.append((name, { database in try ChildProcessRun.run(shell, [database], standardInput: script) }))
            }
        } else {
            notes.append("The sqlite3 shell was not found: install it (apt-get install sqlite3) for the anchor.")
        }

        var samples = Array(repeating: [ChildProcessRun](), count: engines.count)
        var ownResident = 0
        for round in 0..<rounds {
            for (index, engine) in engines.enumerated() {
                let database = work.appendingPathComponent("run-\(round)-\(index).sqlite").path
                try FileManager.default.copyItem(atPath: template, toPath: database)
                ownResident = max(ownResident, currentResidentBytes())
                let result = try engine.run(database)
                guard result.status == 0 else { throw failure(engine.name, result) }
                let rows = try Catalogue(path: database, seed: false).rowCount()
                guard rows == seeded + size else {
                    throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey:
                        "\(engine.name) left \(rows) products, expected \(seeded + size)"])
                }
                samples[index].append(result)
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            }
        }

        let median = samples.map { runs in runs.sorted { $0.seconds < $1.seconds }[runs.count / 2] }
        let anchor = zip(engines, median).first { $0.0.name == "sqlite3 shell, defaults" }?.1.seconds ?? .nan
        var lines = ["### Import of a \(size.formatted())-row products CSV (whole process, median of \(rounds))", "",
                     "| engine | wall time | rows/s | peak RSS | time vs sqlite3 shell (defaults) |", "| --- | --- | --- | --- | --- |"]
        for (engine, run) in zip(engines, median) {
            lines.append("| \(engine.name) | \(formatDuration(run.seconds)) | \(Int(Double(size) / run.seconds).formatted()) | "
                + "\(run.peakResidentBytes / (1 << 20)) MiB | \(formatRatio(run.seconds / anchor)) |")
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: csv)[.size] as? Int) ?? 0
        lines += ["", "The file: \(format1(Double(bytes) / Double(1 << 20))) MiB, generated by `ProductGenerator` (names with Latin diacritics). "
            + "Each run starts from a copy of a new catalogue (WAL mode, \(seeded) seeded products); the first import removes "
            + "it and creates the catalogue itself (schema, seed and rows in a temporary file, then linked into place). The shell's `name_key` and "
            + "`type_key` are `lower(…)`, not Foundation's folding, and it checks nothing. "
            + (ChildProcessRun.measuresOwnPeak ? "Peak RSS is each program's own (`/usr/bin/time -f %M`)."
                : "Peak RSS comes from `wait4`; the benchmark process held \(ownResident / (1 << 20)) MiB when it spawned them "
                    + "(a child cannot report less).")] + notes
        return (lines.joined(separator: "\n"), median[0].seconds / anchor, median[0].seconds)
    }

    private func failure(_ name: String, _ run: ChildProcessRun) -> Error {
        CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(name) exited with \(run.status): \(run.errorOutput)"])
    }

    /// The shell's load: staging table, `.import`, one INSERT … SELECT into the final schema.
    static func shellScript(csv: String) -> String {
        """
        CREATE TEMP TABLE staging (name TEXT, type TEXT, year TEXT, price TEXT);
        .mode csv
        .import --skip 1 '\(csv.replacingOccurrences(of: "'", with: "''"))' staging
        INSERT INTO product (name, name_key, type, type_key, year, price)
            SELECT name, lower(name), type, lower(type), CAST(NULLIF(year, '') AS INTEGER), CAST(NULLIF(price, '') AS REAL)
            FROM staging;

        """
    }

    /// `products-N-v1.csv` in the data directory: `ProductGenerator`'s products, written once,
    /// a block at a time.
    static func productsCSV(size: Int, directory: URL) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("products-\(size)-v\(BenchmarkData.generatorVersion).csv").path
        if FileManager.default.fileExists(atPath: path) { return path }
        let partial = path + ".partial"
        _ = FileManager.default.createFile(atPath: partial, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
        var generator = ProductGenerator()
        var text = "name,type,year,price\n"
        for index in 0..<size {
            let product = generator.product(index)
            text += "\(csvField(product.name)),\(csvField(product.type)),\(product.year.map(String.init) ?? ""),"
                + "\(product.price.map { String($0) } ?? "")\n"
            if text.utf8.count >= 1 << 20 {
                try handle.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension Catalogue {
    /// `SELECT count(*) FROM product`.
    fileprivate func rowCount() throws -> Int {
        try sqlite!.database.read { db in try db.scalar("SELECT count(*) FROM product") ?? 0 }
    }
}
