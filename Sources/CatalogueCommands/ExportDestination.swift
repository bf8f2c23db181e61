import CatalogueKit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file `catalogue export ENTITY FILE` writes, all or nothing: the rows go to a temporary
/// file beside it (`.NAME.exporting-XXXXXX`), which replaces FILE only once every row is
/// written and on disk. An export that fails or is interrupted leaves FILE as it was and no
/// temporary file behind.
///
/// A replaced file keeps its permissions; a new one gets the umask's. A symbolic link is
/// followed, so its target is replaced, as `cp` would write it. What is not a regular file (a
/// terminal, `/dev/null`, a named pipe) is written directly, as a shell's `>` would. The
/// catalogue's own database file is refused.
///
/// ```swift
/// let destination = try ExportDestination(path: "countries.json", databasePath: "catalogue.sqlite")
/// let count = try catalogue.exportRecords(Country.self, format: .json, to: destination.output)
/// try destination.commit()
/// ```
final class ExportDestination {
    /// The path as given, for messages.
    let path: String
    /// Where the rows go.
    let output: ExportOutput
    private let descriptor: Int32
    /// The file renamed over the destination by ``commit()``; nil when writing directly.
    private let temporary: (path: String, destination: String)?
    private var finished = false

    /// Opens the temporary file for `path` (or `path` itself when it is not a regular file).
    ///
    /// Throws ``ExportDestinationError`` when `path` is a directory, the database at
    /// `databasePath` (or one of its companion files), or cannot be written.
    init(path: String, databasePath: String?) throws {
        self.path = path
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists, let databasePath, Self.isDatabase(info, databasePath) {
            throw ExportDestinationError(path: path, reason: "it is the catalogue's database; export to another file")
        }
        if exists, (info.st_mode & S_IFMT) == S_IFDIR {
            throw ExportDestinationError(path: path, reason: "it is a directory; name a file in it")
        }
        if exists, (info.st_mode & S_IFMT) != S_IFREG {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw ExportDestinationError(path: path, code: errno) }
            self.descriptor = descriptor
            temporary = nil
        } else {
            // Replace a link's target, not the link.
            let destination = exists ? Self.resolvingLinks(path) : path
            let url = URL(fileURLWithPath: destination)
            var template = Array(url.deletingLastPathComponent().appendingPathComponent(
                "." + url.lastPathComponent + ".exporting-XXXXXX").path.utf8CString)
            // Created and registered for removal under held signals: a signal in between would
            // leave the file behind.
            let (descriptor, temporaryPath) = try InterruptSignals.holding { () throws -> (Int32, String) in
                let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                guard descriptor >= 0 else { throw ExportDestinationError(path: path, code: errno) }
                let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                InterruptSignals.removeOnInterrupt(temporaryPath)
                return (descriptor, temporaryPath)
            }
            // mkstemp makes the file 0600: give it the mode the destination has, or would get.
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, exists ? info.st_mode & 0o7777 : 0o666 & ~mask)
            self.descriptor = descriptor
            temporary = (temporaryPath, destination)
        }
        output = ExportOutput(descriptor: descriptor)
    }

    deinit {
        if !finished { abandon() }
    }

    /// Flushes the rows, puts them on disk and renames the temporary file over the destination.
    /// From here on an interrupting signal waits until the command has reported
    /// (``InterruptSignals/committing()``).
    func commit() throws {
        do {
            try output.flush()
        } catch let error as ExportOutputError {
            throw ExportDestinationError(path: path, code: error.code)
        }
        guard let temporary else {
            finished = true
            close(descriptor)
            return
        }
        guard fsync(descriptor) == 0 else { throw ExportDestinationError(path: path, code: errno) }
        InterruptSignals.committing()
        guard rename(temporary.path, temporary.destination) == 0 else { throw ExportDestinationError(path: path, code: errno) }
        finished = true
        close(descriptor)
    }

    /// Closes and removes the temporary file; the destination stays as it was.
    func abandon() {
        finished = true
        close(descriptor)
        if let temporary { unlink(temporary.path) }
    }

    /// `path` with its symbolic links followed (as given when they cannot be).
    private static func resolvingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `info` is the database file at `databasePath` or one of SQLite's files beside it.
    private static func isDatabase(_ info: stat, _ databasePath: String) -> Bool {
        ["", "-wal", "-shm", "-journal"].contains { suffix in
            var database = stat()
            return stat(databasePath + suffix, &database) == 0 && database.st_dev == info.st_dev && database.st_ino == info.st_ino
        }
    }
}

/// `catalogue export ENTITY FILE` cannot write FILE.
struct ExportDestinationError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, code: Int32) {
        self.init(path: path, reason: String(cString: strerror(code)))
    }

    var description: String {
        "cannot write \(path): \(reason)"
    }
}
