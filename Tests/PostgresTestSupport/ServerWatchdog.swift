import Foundation

/// A shell process that outlives the test process: once the owner
/// process is gone (finished, crashed or killed with SIGKILL), it stops the server the way
/// `pg_ctl stop -m fast` does (SIGINT to the postmaster, SIGQUIT if it has not stopped within
/// ten seconds) and removes the server's directory. So no server is left behind, whatever
/// happens to the tests.
enum ServerWatchdog {
    /// The script: `$1` the owner's pid, `$2` the server's directory (the data directory is
    /// `$2/data`). The postmaster is only signalled when its working directory is that data
    /// directory (pids get reused).
    static let script = #"""
        trap '' INT HUP
        owner="$1"; dir="$2"; data="$2/data"
        while kill -0 "$owner" 2>/dev/null; do sleep 0.2; done
        pid=$(head -n 1 "$data/postmaster.pid" 2>/dev/null)
        if [ -n "$pid" ] && [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$data" ]; then
            kill -INT "$pid" 2>/dev/null
            i=0
            while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
            kill -QUIT "$pid" 2>/dev/null
            while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
        fi
        rm -rf "$dir"
        """#

    /// Starts the watchdog for the server in `directory`, owned by process `owner`.
    static func start(owner: pid_t, directory: URL) throws -> Process {
        let process = Process()
        // Foundation starts it in a process group of its own, and it ignores SIGINT and SIGHUP,
        // so a Ctrl-C of the tests or a closed terminal does not end it. SIGTERM (from ``stop()``)
        // does.
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "catalogue-postgres-watchdog", String(owner), directory.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
