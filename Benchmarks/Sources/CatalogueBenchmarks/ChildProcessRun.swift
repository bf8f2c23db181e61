import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One run of another program, timed from spawn to exit, with its peak resident set size.
///
/// Linux hands a child spawned with `posix_spawn` (a vfork) the spawning process's high-water
/// mark at `exec`, so `wait4` on it reports at least the benchmark's own size. When GNU time is
/// installed the program runs under `/usr/bin/time -f %M`, which forks from a tiny process and
/// reports the program's own peak; otherwise this process resets its high-water mark to its
/// current size first (`/proc/self/clear_refs`) and the figure is a ceiling.
struct ChildProcessRun {
    let seconds: Double
    let peakResidentBytes: Int
    let status: Int32
    /// What the program wrote on stderr.
    let errorOutput: String

    /// Runs `executable` with `arguments`, stdin from `standardInput` (a file path) or /dev/null,
    /// stdout discarded.
    static func run(_ executable: String, _ arguments: [String], standardInput: String? = nil) throws -> ChildProcessRun {
        let gnuTime = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: gnuTime) else {
            return try spawn(executable, arguments, standardInput: standardInput)
        }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("benchmark-time-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let run = try spawn(gnuTime, ["-f", "%M", "-o", report, executable] + arguments, standardInput: standardInput)
        let kib = (try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: "\n").last.flatMap { Int($0) }
        return ChildProcessRun(
            seconds: run.seconds, peakResidentBytes: kib.map { $0 * 1024 } ?? run.peakResidentBytes,
            status: run.status, errorOutput: run.errorOutput)
    }

    /// Whether peak RSS figures are the programs' own (GNU time is installed).
    static var measuresOwnPeak: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
    }

    private static func spawn(_ executable: String, _ arguments: [String], standardInput: String?) throws -> ChildProcessRun {
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent("benchmark-child-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: errorLog) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        resetPeakResidentSize()
        var pid: pid_t = 0
        let start = now()
        let code = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard code == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot run \(executable): \(String(cString: strerror(code)))"])
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let seconds = now() - start
        let exited = status & 0x7F == 0
        return ChildProcessRun(
            seconds: seconds, peakResidentBytes: Int(usage.ru_maxrss) * 1024,
            status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
            errorOutput: (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "")
    }
}

/// Resets this process's peak RSS to its current RSS (Linux 4.0+; ignored elsewhere).
func resetPeakResidentSize() {
    let descriptor = open("/proc/self/clear_refs", O_WRONLY)
    guard descriptor >= 0 else { return }
    _ = write(descriptor, "5", 1)
    close(descriptor)
}

/// This process's resident set size now, in bytes (`VmRSS`), or 0 when unknown.
func currentResidentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kib * 1024
}
