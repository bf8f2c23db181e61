#if PostgreSQL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where libpq's per-user files are (`~/.pgpass`, `~/.pg_service.conf`): the home directory.
///
/// ```swift
/// PostgresClientFiles.homeDirectory(environment: ["HOME": "/home/ana"])  // "/home/ana"
/// ```
enum PostgresClientFiles {
    /// `HOME`, else the user's home directory from the password database, as libpq finds it.
    static func homeDirectory(environment: [String: String]) -> String? {
        if let home = environment["HOME"], !home.isEmpty { return home }
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
#endif
