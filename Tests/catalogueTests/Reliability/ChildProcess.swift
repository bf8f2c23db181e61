import Foundation
import PostgresTestSupport

/// A `catalogue` process started in the background, for tests that kill it or run several at
/// once.
final class ChildProcess {
    let process = Process()
    private let output = Pipe()
    private let error = Pipe()
    /// When the process was started.
    let started: Date

    /// Starts `catalogue ARGUMENTS` with `CATALOGUE_DB=database`.
    init(_ arguments: [String], database: String, environment extra: [String: String] = [:]) throws {
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["CATALOGUE_DB"] = database
        process.environment = environment
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        started = Date()
    }

    /// Waits until the process exits or `seconds` pass, whichever comes first (polling every
    /// 10 ms); returns whether it is still running.
    func isRunning(after seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return true }
            Thread.sleep(forTimeInterval: min(left, 0.01))
        }
        return false
    }

    /// Sends `signal` (SIGKILL by default).
    func kill(_ signal: Int32 = SIGKILL) {
        Foundation.kill(process.processIdentifier, signal)
    }

    /// How a child ended.
    struct Outcome {
        let status: Int32
        /// Whether a signal ended it (then `status` is the signal's number).
        let killedBySignal: Bool
        let output: String
        let error: String
    }

    /// Waits for exit; returns status, stdout and stderr.
    func wait() -> (status: Int32, output: String, error: String) {
        let outcome = waitForOutcome()
        return (outcome.status, outcome.output, outcome.error)
    }

    /// Waits for exit; returns how the process ended, with its output.
    func waitForOutcome() -> Outcome {
        let (outputData, errorData) = readPipesToEnd(output: output, error: error)
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal,
            output: String(decoding: outputData, as: UTF8.self), error: String(decoding: errorData, as: UTF8.self))
    }
}

/// The `sqlite3` shell failed: its exit status and what it wrote on stderr.
struct SQLiteShellError: Error, CustomStringConvertible {
    let status: Int32
    let message: String
    let sql: String

    var description: String { "sqlite3 exited with \(status) (\(message.trimmingCharacters(in: .whitespacesAndNewlines))) for \(sql.prefix(200))" }
}

/// One value from the `sqlite3` shell. Throws ``SQLiteShellError`` when sqlite3 exits non-zero
/// or writes anything on stderr, so a failing query never yields "" (which would compare equal
/// to another failing query's "").
func sqliteValue(_ database: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = ["-bail", database, sql]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let (data, errorData) = readPipesToEnd(output: output, error: error)
    process.waitUntilExit()
    let message = String(decoding: errorData, as: UTF8.self)
    guard process.terminationStatus == 0, message.isEmpty else {
        throw SQLiteShellError(status: process.terminationStatus, message: message, sql: sql)
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A checksum of every row of every catalogue table (product, country, country_alias,
/// catalogue_info), from the `sqlite3` shell: equal checksums mean equal rows.
func catalogueChecksum(_ database: String) throws -> String {
    try sqliteValue(database, "SELECT hex(sha3_query('SELECT * FROM product ORDER BY id; "
        + "SELECT * FROM country ORDER BY id; SELECT * FROM country_alias ORDER BY country_id, alias; "
        + "SELECT * FROM catalogue_info ORDER BY key'))")
}

/// A products CSV of `count` rows named "<prefix> <n>" of type `type`.
func writeProductsCSV(to path: String, count: Int, prefix: String, type: String) throws {
    var text = "name,type,year,price\n"
    text.reserveCapacity(count * 40)
    for index in 0..<count {
        text += "\(prefix) \(index),\(type),\(1990 + index % 30),\(Double(index % 1000) + 0.5)\n"
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

/// A `sqlite3` shell that holds the write lock of a database (an open `BEGIN IMMEDIATE`
/// transaction) until ``commit()``: another writer must wait for it.
final class WriteLockHolder {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    /// Starts the shell and returns once it holds the lock.
    init(_ database: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-bail", database]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        try send(".timeout 10000\nBEGIN IMMEDIATE;\nINSERT OR REPLACE INTO catalogue_info VALUES ('lock holder', 'x');\nSELECT 'locked';\n")
        var seen = ""
        while !seen.contains("locked") {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw SQLiteShellError(status: -1, message: seen, sql: "BEGIN IMMEDIATE") }
            seen += String(decoding: data, as: UTF8.self)
        }
    }

    /// Commits (so the lock holder's row lands) and waits for the shell to exit.
    func commit() throws {
        try send("COMMIT;\n.quit\n")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func send(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
