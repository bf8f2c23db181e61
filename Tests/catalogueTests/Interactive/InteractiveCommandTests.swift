import Foundation
import Testing

@Suite("catalogue interactive (the built binary, without a terminal)")
struct InteractiveCommandTests {
    @Test("Without a terminal it refuses to start: one error line, exit code 1, no database touched")
    func needsTerminal() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["interactive"])
        #expect(result.status == 1)
        #expect(result.standardError == "catalogue: error: interactive mode needs a terminal\n")
        #expect(result.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: runner.databasePath))
    }

    @Test("--help documents the keys, the quit keys, state restoration and examples")
    func help() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["interactive", "--help"])
        #expect(result.status == 0)
        for text in ["--entity", "--db", "Tab, Shift-Tab", "Ctrl-C, Ctrl-D, F10", "q quits", "Esc", "PgUp PgDn",
                     "$XDG_STATE_HOME/catalogue", "NO_COLOR", "catalogue interactive --entity products"] {
            #expect(result.standardOutput.contains(text), "\(text)")
        }
        let root = try runner.run(["--help"])
        #expect(root.standardOutput.contains("interactive"))
    }

    @Test("A bad --entity is a usage error (exit code 2)")
    func badEntity() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["interactive", "--entity", "planets"])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("catalogue: error: "))
    }
}
