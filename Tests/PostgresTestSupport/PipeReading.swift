import Foundation

/// Reads a child process's standard output and standard error to their ends at the same time.
/// Read one after the other, a child that fills the second pipe (64 KiB on Linux) while the
/// first is read blocks for ever, and so does the test: LeakSanitizer's report at a child's exit
/// under `--sanitize=address` is such an output. Returns once both pipes are closed.
///
/// ```swift
/// try process.run()
/// let (output, errorOutput) = readPipesToEnd(output: outputPipe, error: errorPipe)
/// process.waitUntilExit()
/// ```
public func readPipesToEnd(output: Pipe, error: Pipe) -> (output: Data, error: Data) {
    let group = DispatchGroup()
    let errorHandle = error.fileHandleForReading
    let box = DataBox()
    group.enter()
    DispatchQueue(label: "readPipesToEnd.stderr").async {
        box.data = errorHandle.readDataToEndOfFile()
        group.leave()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    return (outputData, box.data)
}

/// Holds the bytes read on another thread; read only after the group is waited on.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
