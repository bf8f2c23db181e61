import Foundation

/// A `catalogue` process started in the background, for tests that kill it or run several at
/// once.
final class ChildProcess {
    let process = Process()
    private let output = Pipe()
    private let error = Pipe()

    /// Starts `catalogue ARGUMENTS` with `CATALOGUE_DB=database`.
    init(_ arguments: [String], database: String) throws {
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CATALOGUE_DB"] = database
        process.environment = environment
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Sends SIGKILL.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for exit; returns status, stdout and stderr.
    func wait() -> (status: Int32, output: String, error: String) {
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}

/// One value from the `sqlite3` shell.
func sqliteValue(_ database: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [database, sql]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
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
