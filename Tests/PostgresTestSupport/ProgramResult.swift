import Foundation

/// How a program run to completion ended: its exit status and what it printed.
public struct ProgramResult: Sendable {
    public let status: Int32
    public let output: String
    public let errorOutput: String

    /// The non-empty lines of standard output.
    public var lines: [String] {
        output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

/// Runs `executable` with `arguments` to completion, its standard input empty, and returns its
/// status and both outputs, read at once (``readPipesToEnd(output:error:)``), so that a large
/// output on either cannot block it. The environment is this process's without `PG*`
/// variables. The tests that check a catalogue with other programs (the sqlite3 shell,
/// sqlite-utils) run them so, as the PostgreSQL harness runs its own.
///
/// ```swift
/// let result = try runProgram("/usr/bin/sqlite3", [path, "PRAGMA integrity_check"])
/// #expect(result.status == 0, "\(result.errorOutput)")
/// ```
public func runProgram(_ executable: String, _ arguments: [String]) throws -> ProgramResult {
    try Subprocess.run(executable, arguments)
}
