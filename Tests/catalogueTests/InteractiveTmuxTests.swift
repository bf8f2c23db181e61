import Foundation
import PostgresTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `Tests/interactive/tmux-test.sh` against the built binary: the interactive mode in a
/// real terminal (tmux), driven by keys, checked on screen.
@Suite("catalogue interactive in a real terminal (tmux)")
struct InteractiveTmuxTests {
    /// The script, found from this file's place in the repository.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("interactive/tmux-test.sh")

    /// tmux on the PATH, if installed.
    private static var tmux: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether tmux is installed; when it is not, records an issue saying how to install it, so
    /// that a test of the interactive mode in a terminal fails rather than passing untried.
    static func tmuxIsInstalled(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard tmux == nil else { return true }
        Issue.record("""
            tmux is not installed, so the interactive mode cannot be tested in a terminal: \
            install it (apt-get install tmux; .ci/run does)
            """, sourceLocation: sourceLocation)
        return false
    }

    @Test("tmux-test.sh passes: typing, scopes, detail, browse, jumps, quitting every way, restore, resize, highlight, counts, pinned header, match modes, entities, help, TERM=dumb")
    func tmuxScript() async throws {
        try await onOwnThread {
            guard Self.tmuxIsInstalled() else { return }
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-tmux-\(UUID().uuidString).log")
            defer { try? FileManager.default.removeItem(at: log) }
            let status = try Self.run(["/bin/bash", Self.script.path, CommandRunner.executable.path], output: log.path)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let summary = text.split(separator: "\n").last.map(String.init) ?? ""
            #expect(status == 0, "tmux-test.sh failed:\n\(text)")
            #expect(summary.hasSuffix(" passed, 0 failed"), "\(summary)")
        }
    }

    /// Runs `arguments` with stdin from /dev/null and stdout and stderr to the file `output`;
    /// returns its exit status. posix_spawn and waitpid, not Foundation's Process: the script
    /// starts a tmux server that outlives it, and Process has been seen to miss the exit.
    static func run(_ arguments: [String], output: String) throws -> Int32 {
        // The types are structs in Glibc, opaque pointers in Darwin.
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // A clean signal state: the test runs on a libdispatch thread that blocks signals, and
        // a blocked mask would be inherited by bash, tmux and the program under test.
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid = pid_t()
        var environment: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { environment.forEach { free($0) } }
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, &environment)
        guard spawned == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        // WIFEXITED / WEXITSTATUS: a signal's death is reported as 128 + its number.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
