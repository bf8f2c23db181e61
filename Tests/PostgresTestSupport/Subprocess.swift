import Foundation

/// Runs a program to completion and collects what it printed: the harness's only way of running
/// `initdb`, `pg_ctl` and `psql`.
enum Subprocess {
    /// Runs `executable` with `arguments`, optionally as `user` (through `setpriv`), with `input`
    /// on its standard input. The environment is this process's without `PG*` variables (so a
    /// developer's PGHOST or PGDATABASE cannot redirect the harness), plus `environment`.
    static func run(
        _ executable: String, _ arguments: [String], as user: ServerUser? = nil, input: String? = nil,
        environment: [String: String] = [:], outputFile: URL? = nil
    ) throws -> ProgramResult {
        let process = Process()
        if let user {
            process.executableURL = URL(fileURLWithPath: user.setprivPath)
            process.arguments = user.setprivArguments + ["--", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.environment = cleanEnvironment().merging(environment) { _, new in new }
        // Another program started meanwhile (by this harness or by any test of this process)
        // must not inherit our pipes: a child holding the input pipe's write end keeps psql
        // waiting for the end of its script forever (seen: two concurrent psql runs, one waiting
        // for the other to finish, the other waiting for the first). The pipes are closed on
        // exec (the child gets its own copies as 0, 1 and 2), and this harness starts one
        // program at a time until its input is written and closed.
        spawnLock.lock()
        var spawnLocked = true
        defer { if spawnLocked { spawnLock.unlock() } }
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        // A daemon started by the program (pg_ctl's postmaster) must not hold our pipes open, so
        // such a program writes to a file instead.
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        for pipe in [inputPipe, outputPipe, errorPipe] { closeOnExec(pipe) }
        var fileHandle: FileHandle?
        if let outputFile {
            guard FileManager.default.createFile(atPath: outputFile.path, contents: nil) else {
                throw PostgresTestServerError.commandFailed(command: "create \(outputFile.path)", status: errno, output: String(cString: strerror(errno)))
            }
            let handle = try FileHandle(forWritingTo: outputFile)
            fileHandle = handle
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = outputPipe
            process.standardError = errorPipe
        }
        try process.run()
        try? fileHandle?.close()
        if let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try? inputPipe.fileHandleForWriting.close()
        }
        spawnLock.unlock()
        spawnLocked = false
        var output = Data()
        var errorOutput = Data()
        if outputFile == nil {
            (output, errorOutput) = readPipesToEnd(output: outputPipe, error: errorPipe)
        }
        process.waitUntilExit()
        if let outputFile {
            output = (try? Data(contentsOf: outputFile)) ?? Data()
        }
        return ProgramResult(
            status: process.terminationStatus,
            output: String(decoding: output, as: UTF8.self),
            errorOutput: String(decoding: errorOutput, as: UTF8.self))
    }

    /// Held while a program is started and its input written: see ``run(_:_:as:input:environment:outputFile:)``.
    private static let spawnLock = NSLock()

    /// Marks both ends of `pipe` close-on-exec in this process.
    private static func closeOnExec(_ pipe: Pipe) {
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        }
    }

    /// This process's environment without the `PG*` variables libpq and the server programs read.
    static func cleanEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
    }
}
