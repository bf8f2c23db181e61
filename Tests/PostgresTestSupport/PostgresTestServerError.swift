/// Why a test server could not start, or a command on it failed.
public enum PostgresTestServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server programs or extensions are not installed (the reason ends with the
    /// `apt-get install` line).
    case notInstalled(String)
    /// Running as root, and no way to run the server as another user.
    case cannotDropRoot(String)
    /// No TCP port could be reserved.
    case noFreePort(String)
    /// A program failed: its command line, exit status and what it printed.
    case commandFailed(command: String, status: Int32, output: String)
    /// The server was stopped.
    case stopped
    /// ``PostgresTestServer/restart()`` on a server that is running.
    case alreadyRunning

    public var description: String {
        switch self {
        case .notInstalled(let reason): reason
        case .cannotDropRoot(let reason): reason
        case .noFreePort(let reason): "no free TCP port on 127.0.0.1: \(reason)"
        case .commandFailed(let command, let status, let output):
            "\(command) exited with status \(status): \(output.trimmingCharacters(in: .whitespacesAndNewlines))"
        case .stopped: "the PostgreSQL test server was stopped"
        case .alreadyRunning: "the PostgreSQL test server is running (restart it after stopImmediately())"
        }
    }
}
