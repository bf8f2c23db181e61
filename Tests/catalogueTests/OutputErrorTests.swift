import Foundation
import Testing

/// A failed write to standard output is an error (issue 13, item 9): exit 1 and one line on
/// stderr; a reader that goes away (a closed pipe) ends the command quietly.
@Suite("Output errors (the built binary)")
struct OutputErrorTests {
    /// Runs `catalogue ARGUMENTS > /dev/full` through bash; returns its status and stderr.
    static func runToFullDevice(_ runner: CommandRunner, _ arguments: [String]) throws -> (status: Int32, error: String) {
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        return try FullDiskTests.bash(
            "exec '\(CommandRunner.executable.path)' \(quoted) --db '\(runner.databasePath)' > /dev/full",
            environment: ["HOME": runner.directory.path])
    }

    @Test("Every command writing to /dev/full fails with one line", arguments: [
        ["search", "co"], ["search", "co", "--format", "json"], ["browse"], ["index"], ["show", "CO"],
        ["show", "CO", "--format", "json"], ["export", "countries"],
    ])
    func fullDevice(arguments: [String]) throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        try #require(try runner.run(["search", "x"]).status == 0)
        let result = try Self.runToFullDevice(runner, arguments)
        #expect(result.status == 1, "\(arguments)")
        #expect(result.error == "catalogue: error: cannot write to standard output: No space left on device\n", "\(arguments)")
    }

    @Test("An import whose summary cannot be written says the import was committed")
    func importSummary() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let file = runner.directory.appendingPathComponent("p.csv").path
        try "name,type\nWritten,thing\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try Self.runToFullDevice(runner, ["import", "products", file])
        #expect(result.status == 1)
        #expect(result.error == "catalogue: error: cannot write to standard output: No space left on device; the import was committed\n")
        #expect(try sqliteValue(runner.databasePath, "SELECT count(*) FROM product WHERE name = 'Written'") == "1")
    }

    @Test("A closed pipe ends the command quietly")
    func closedPipe() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        // Enough rows for several writes: the reader closes the pipe after the first.
        let csv = runner.directory.appendingPathComponent("many.csv").path
        try writeProductsCSV(to: csv, count: 20_000, prefix: "Piped", type: "pipe")
        try #require(try runner.run(["import", "products", csv]).status == 0)
        let result = try FullDiskTests.bash(
            "'\(CommandRunner.executable.path)' export products --format ndjson --db '\(runner.databasePath)' | head -c 10 > /dev/null; exit ${PIPESTATUS[0]}",
            environment: ["HOME": runner.directory.path])
        #expect(result.error.isEmpty, "\(result.error)")
        #expect(result.status == 0 || result.status == 128 + SIGPIPE, "\(result.status)")
    }
}
