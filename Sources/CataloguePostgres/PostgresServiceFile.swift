#if PostgreSQL
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libpq's connection service file: named sets of connection settings, chosen with
/// `service=NAME` in the URL or with `PGSERVICE`, so that a team writes a server's host, port,
/// database and user once, as `psql "service=NAME"` reads them.
///
/// The user's file (`PGSERVICEFILE`, else `~/.pg_service.conf`) is read first; a service it
/// does not define is looked for in the system's (`PGSYSCONFDIR/pg_service.conf`, else
/// Debian's `/etc/postgresql-common/pg_service.conf`). Each file holds `[NAME]` sections of
/// `key=value` lines; lines starting with `#` are comments. The settings used are `host`,
/// `port`, `dbname`, `user`, `password`, `sslmode`, `sslrootcert`, `sslcert`, `sslkey`,
/// `connect_timeout`, `application_name`, `fallback_application_name`, `target_session_attrs`
/// and `load_balance_hosts` (`host` and `port` may list several, as in a URL); libpq's settings
/// that change nothing here (`client_encoding`, the `keepalives` ones) are skipped; any other
/// is an error naming the file, line and setting.
///
/// ```swift
/// // ~/.pg_service.conf:
/// // [catalogue]
/// // host=db.example
/// // dbname=catalogue
/// let settings = try PostgresServiceFile.settings(of: "catalogue", environment: ProcessInfo.processInfo.environment)
/// settings["host"]  // "db.example"
/// ```
enum PostgresServiceFile {
    /// The settings a service may give, as libpq names them.
    static let usedSettings: Set<String> = [
        "host", "port", "dbname", "user", "password", "sslmode", "sslrootcert", "sslcert", "sslkey",
        "connect_timeout", "application_name", "fallback_application_name", "target_session_attrs",
        "load_balance_hosts", "options",
    ]
    /// libpq's settings that change nothing for this engine, skipped.
    static var skippedSettings: Set<String> { PostgresTarget.unusedParameters }
    /// Files larger than this are not service files (libpq reads lines of up to 255 bytes).
    static let maximumSize = 1 << 20

    /// Why a service could not be read: one line.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// The files searched, in order: the user's, then the system's.
    static func paths(environment: [String: String]) -> [String] {
        var paths: [String] = []
        if let file = environment["PGSERVICEFILE"], !file.isEmpty {
            paths.append(file)
        } else if let home = PostgresClientFiles.homeDirectory(environment: environment) {
            paths.append(home + "/.pg_service.conf")
        }
        let system = environment["PGSYSCONFDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/postgresql-common"
        paths.append(system + "/pg_service.conf")
        return paths
    }

    /// The settings of the service `name`, from the first file that defines it.
    static func settings(of name: String, environment: [String: String]) throws(Failure) -> [String: String] {
        let paths = paths(environment: environment)
        for path in paths {
            guard let text = try text(at: path) else { continue }
            if let settings = try settings(of: name, in: text, path: path) { return settings }
        }
        throw Failure(description: "no service \(name) in \(paths.joined(separator: " or "))")
    }

    /// The settings of the service `name` in a file's `text`; nil when the file does not
    /// define it. Throws for a line of that service that is not a setting this engine knows.
    static func settings(of name: String, in text: String, path: String) throws(Failure) -> [String: String]? {
        var settings: [String: String]?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                // A later section of the same name is not read, as in libpq: the first wins.
                if settings != nil { break }
                guard line.hasSuffix("]") else {
                    throw Failure(description: "\(path), line \(index + 1): a section is [NAME], not \(line)")
                }
                if line.dropFirst().dropLast() == Substring(name) { settings = [:] }
                continue
            }
            guard settings != nil else { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw Failure(description: "\(path), line \(index + 1): expected key=value, not \(line)")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if Self.usedSettings.contains(key) {
                // The first line of a setting wins, as in libpq.
                if settings?[key] == nil { settings?[key] = value }
            } else if !Self.skippedSettings.contains(key) {
                let known = usedSettings.sorted().joined(separator: ", ")
                throw Failure(description: "\(path), line \(index + 1): the setting \(key) is not supported (supported: \(known))")
            }
        }
        return settings
    }

    /// The file's text; nil when there is no file there. Throws for one that cannot be read or
    /// is not a regular file of at most ``maximumSize`` bytes.
    private static func text(at path: String) throws(Failure) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= maximumSize else {
            throw Failure(description: "\(path) is not a service file (a regular file of at most 1 MiB)")
        }
        let data: Data?
        do {
            data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd()
        } catch {
            throw Failure(description: "cannot read \(path)")
        }
        // An empty file gives no data: a file with no services.
        return String(decoding: data ?? Data(), as: UTF8.self)
    }
}
#endif
