#if PostgreSQL
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libpq's password file, `~/.pgpass` (or the file `PGPASSFILE` names), so a password need not
/// be written in a URL, where other users of the machine can read it in the process list.
///
/// Each line is `hostname:port:database:username:password`; `*` in any of the first four fields
/// matches anything, `\:` and `\\` are a colon and a backslash, lines starting with `#` are
/// comments, and the first line that matches gives the password. As in libpq, a file that its
/// group or other users can read is ignored, and so is one that is not a regular file.
///
/// ```swift
/// // ~/.pgpass: db.example:5432:*:reader:s3cret
/// PostgresPasswordFile.Lookup(hosts: ["db.example"], port: 5432, database: "catalogue", user: "reader",
///                             environment: ProcessInfo.processInfo.environment)?.password()  // "s3cret"
/// ```
enum PostgresPasswordFile {
    /// The file's path: `PGPASSFILE`, else `.pgpass` in `HOME` (else the user's home directory).
    static func path(environment: [String: String]) -> String? {
        if let file = environment["PGPASSFILE"], !file.isEmpty { return file }
        return PostgresClientFiles.homeDirectory(environment: environment).map { $0 + "/.pgpass" }
    }

    /// A connection's line of the password file, to be read again: libpq reads the file for
    /// each connection, so a password changed there (a rotated one) serves the next. The engine
    /// reads it again when the server refuses the login (see `HostProbe`).
    ///
    /// ```swift
    /// let lookup = PostgresPasswordFile.Lookup(hosts: ["db"], port: 5432, database: "c", user: "app", environment: environment)
    /// lookup?.password()  // the password of the first matching line, as the file is now
    /// ```
    struct Lookup: Sendable, Hashable {
        /// The file (`PGPASSFILE`, else `~/.pgpass`), as it was named when the lookup was made.
        let path: String
        /// The names the connection's host goes by (a Unix-domain socket's: `localhost` and
        /// its directory).
        let hosts: [String]
        let port: Int
        let database: String
        let user: String

        /// Nil when no file is named (no `PGPASSFILE` and no home directory).
        init?(hosts: [String], port: Int, database: String, user: String, environment: [String: String]) {
            guard let path = PostgresPasswordFile.path(environment: environment) else { return nil }
            self.path = path
            self.hosts = hosts
            self.port = port
            self.database = database
            self.user = user
        }

        /// The password of the first line matching the connection, if the file is there,
        /// private and has one.
        func password() -> String? {
            guard let text = privateText(at: path) else { return nil }
            let wanted = [String(port), database, user]
            for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
                let fields = PostgresPasswordFile.fields(of: line)
                guard fields.count == 5, fields[0] == "*" || hosts.contains(fields[0]) else { continue }
                if zip(fields[1...3], wanted).allSatisfy({ field, value in field == "*" || field == value }) {
                    return fields[4]
                }
            }
            return nil
        }
    }

    /// The line split at its unescaped colons, escapes removed.
    static func fields(of line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }

    /// A ``Lookup`` (or none) kept by a target without taking part in its equality: two
    /// targets that reach the same server as the same role with the same password are equal,
    /// wherever the password came from.
    struct Origin: Sendable, Hashable {
        let lookup: Lookup?

        static func == (_: Origin, _: Origin) -> Bool { true }
        func hash(into hasher: inout Hasher) {}
    }

    /// The file's text, when it is a regular file only its owner can read (at most 1 MiB).
    private static func privateText(at path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              info.st_mode & (S_IRWXG | S_IRWXO) == 0, info.st_size <= 1 << 20
        else { return nil }
        guard let data = try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
#endif
