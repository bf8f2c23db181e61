import Foundation

/// Crashing and restarting a test server, for tests of what survives a server that dies in the
/// middle of a write.
extension PostgresTestServer {
    /// Stops the server as a crash would: `pg_ctl stop -m immediate` (every server process quits
    /// at once, no checkpoint, open transactions are never finished), and waits until the
    /// postmaster has exited. ``restart()`` then recovers from the write-ahead log. Clients lose
    /// their connections.
    ///
    /// Nothing is lost that the server had written to the operating system (`fsync = off` only
    /// matters when the machine itself goes down); a commit acknowledged with
    /// `synchronous_commit = off` (this server's default) may be, so a test of durability sets
    /// it on first.
    public func stopImmediately() throws {
        try state.withLock { state in
            guard !state.stopped else { throw PostgresTestServerError.stopped }
        }
        let result = try Subprocess.run(
            binaries.path(of: "pg_ctl"), ["-D", dataDirectory.path, "-m", "immediate", "-w", "-t", "60", "stop"], as: user)
        guard result.status == 0 else {
            throw PostgresTestServerError.commandFailed(
                command: "pg_ctl stop -m immediate", status: result.status, output: result.errorOutput + result.output)
        }
        let postmaster = state.withLock { state -> Process? in
            defer { state.postmaster = nil }
            return state.postmaster
        }
        postmaster?.waitUntilExit()
    }

    /// Starts the server again after ``stopImmediately()``, on the same port and data directory,
    /// and returns once it accepts connections (after its crash recovery).
    ///
    /// ```swift
    /// try server.stopImmediately()   // during a write
    /// try server.restart()
    /// let count = try database.psql("SELECT count(*) FROM product")
    /// ```
    public func restart() throws {
        try state.withLock { state in
            guard !state.stopped else { throw PostgresTestServerError.stopped }
            guard state.postmaster == nil else { throw PostgresTestServerError.alreadyRunning }
        }
        let postmaster = try Self.startPostmaster(directory: directory, port: port, binaries: binaries, user: user)
        state.withLock { $0.postmaster = postmaster }
    }
}
