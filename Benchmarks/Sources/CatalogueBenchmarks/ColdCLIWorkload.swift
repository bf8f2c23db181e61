import CatalogueKit
import Foundation

/// `catalogue search` as a user runs it: a new process, from start to exit, on a copy of the
/// products database (the first run seeds it with the countries; that run is not timed). The
/// anchor is the stock `sqlite3` shell running the same query, also from start to exit.
struct ColdCLIWorkload {
    let data: BenchmarkData
    let catalogue: String
    let rounds: Int

    func run() throws -> WorkloadResult {
        let copy = data.path + ".cli-copy"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
        try FileManager.default.copyItem(atPath: data.path, toPath: copy)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }

        let arguments = ["search", "--db", copy, "--entity", "products", "--limit", "50", "cré"]
        try Self.check(ChildProcessRun.run(catalogue, arguments))  // seeds the copy with countries

        // The same page and count in the sqlite3 shell, with the folded prefix spelled out.
        let request = CatalogueSearch.products(matching: "cré")
        var page = request
        page.fetchLimit = 50
        let sql = try literalSQL(page.selectSQL()) + ";\n" + literalSQL(request.countSQL()) + ";\n"

        var cli = Samples()
        var shell = Samples()
        var peak = (cli: 0, shell: 0)
        for _ in 0..<rounds {
            let search = try Self.check(ChildProcessRun.run(catalogue, arguments))
            cli.append(search.seconds)
            peak.cli = max(peak.cli, search.peakResidentBytes)
            let anchor = try Self.check(ChildProcessRun.run("/usr/bin/sqlite3", [copy, sql]))
            shell.append(anchor.seconds)
            peak.shell = max(peak.shell, anchor.peakResidentBytes)
        }
        var result = WorkloadResult(
            title: "Cold CLI search (`catalogue search cré --entity products`, process start to exit)", size: data.size,
            results: [("catalogue search", cli), ("sqlite3 shell, same query", shell)], anchor: "sqlite3 shell, same query")
        result.notes = ["Peak RSS: catalogue \(peak.cli / (1 << 20)) MiB, sqlite3 shell \(peak.shell / (1 << 20)) MiB."]
        return result
    }

    /// What a user waits for: `catalogue search` in every match mode, as typed, with its page and
    /// its count ("50 of more than 1,000 shown"), whole process; one row per search.
    static let userSearches: [(label: String, arguments: [String])] = [
        ("prefix `cré`", ["cré"]),
        ("contains `mug`", ["mug", "--match", "contains"]),
        ("contains `pât`", ["pât", "--match", "contains"]),
        ("contains `zzq` (no match)", ["zzq", "--match", "contains"]),
        ("contains `a`", ["a", "--match", "contains"]),
        ("contains `mo`", ["mo", "--match", "contains"]),
        ("words `c`", ["c", "--match", "words"]),
        ("words `la`", ["la", "--match", "words"]),
        ("words `lamp`", ["lamp", "--match", "words"]),
        ("terms `lamp 2001`", ["lamp", "2001", "--match", "terms"]),
        ("fuzzy `kettel`", ["kettel", "--match", "fuzzy"]),
        ("prefix `kettel` (no match: did you mean)", ["kettel"]),
    ]

    func runUserWait() throws -> WorkloadResult {
        let copy = data.path + ".wait-copy"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
        try FileManager.default.copyItem(atPath: data.path, toPath: copy)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
        let base = ["search", "--db", copy, "--entity", "products", "--limit", "50"]
        try Self.check(ChildProcessRun.run(catalogue, base + ["x"]))  // seeds the copy with countries
        var samples = Array(repeating: Samples(), count: Self.userSearches.count)
        for _ in 0..<rounds {
            for (index, search) in Self.userSearches.enumerated() {
                samples[index].append(try Self.check(ChildProcessRun.run(catalogue, base + search.arguments)).seconds)
            }
        }
        var result = WorkloadResult(
            title: "What a user waits for: page and count (`catalogue search`, default capped count, process start to exit)",
            size: data.size, results: zip(Self.userSearches, samples).map { ($0.label, $1) }, anchor: "prefix `cré`")
        result.notes = ["Each row is one search, whole process, \(rounds) runs; the count stops at 1,000 (\"50 of more than 1,000 shown\")."]
        return result
    }

    /// `run`, or an error when the program failed.
    @discardableResult
    static func check(_ run: ChildProcessRun) throws -> ChildProcessRun {
        guard run.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "a child process failed: \(run.errorOutput)"])
        }
        return run
    }

    /// The statement with its arguments written as SQL literals (for the sqlite3 shell).
    private func literalSQL(_ fragment: SQLFragment) -> String {
        var parts = fragment.sql.split(separator: "?", omittingEmptySubsequences: false).map(String.init)
        var sql = parts.removeFirst()
        for (part, value) in zip(parts, fragment.arguments) {
            switch value {
            case .text(let text): sql += "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
            case .integer(let integer): sql += String(integer)
            case .real(let real): sql += String(real)
            case .null: sql += "NULL"
            case .blob: sql += "x'FF'"
            }
            sql += part
        }
        return sql
    }
}

