import Foundation
import PostgresTestSupport
import Testing

/// Runs the built `catalogue` binary, as a user would, against a private database.
struct CommandRunner {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// The directory holding the test bundle and the built products.
    static let productsDirectory: URL = {
        let candidates = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for directory in candidates where FileManager.default.fileExists(atPath: directory.appendingPathComponent("catalogue").path) {
            return directory
        }
        return candidates[0]
    }()

    static var executable: URL {
        productsDirectory.appendingPathComponent("catalogue")
    }

    /// A temporary directory with the database, removed by `cleanUp()`.
    let directory: URL
    var databasePath: String { directory.appendingPathComponent("catalogue.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `catalogue ARGUMENTS` with `CATALOGUE_DB` set to this runner's database.
    func run(_ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws -> Result {
        try runProgram(Self.executable.path, arguments, environment: environment, input: input)
    }

    /// Runs the program at `path` with the environment `run` gives `catalogue`.
    func runProgram(_ path: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        environment["CATALOGUE_DB"] = environment["CATALOGUE_DB"] ?? databasePath
        environment["HOME"] = directory.path
        environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(input) }
        try standardInput.fileHandleForWriting.close()
        // Read both pipes, at once, before waiting, so a large output cannot fill a pipe and block.
        let (outputData, errorData) = readPipesToEnd(output: output, error: error)
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}

extension CommandRunner.Result {
    /// The `name` of each object of a JSON array on stdout.
    func jsonNames() throws -> [String] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [[String: Any]])
        return array.compactMap { $0["name"] as? String }
    }

    /// The `id` of each object of a JSON array on stdout.
    func jsonIDs() throws -> [Int] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [[String: Any]])
        return array.compactMap { $0["id"] as? Int }
    }
}
