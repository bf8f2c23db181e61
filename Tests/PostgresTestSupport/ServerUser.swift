import Foundation

/// The unprivileged user the server runs as when the tests run as root (`initdb` and `postgres`
/// refuse to run as root): the `postgres` system user when there is one, else `nobody`.
struct ServerUser: Sendable, Hashable {
    let name: String
    let uid: uid_t
    let gid: gid_t
    let setprivPath: String

    /// `setpriv` switches the user and group and drops root's supplementary groups.
    var setprivArguments: [String] {
        ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"]
    }

    /// The user to run the server as: nil when this process is not root (the server runs as us).
    static func forCurrentProcess() throws -> ServerUser? {
        guard geteuid() == 0 else { return nil }
        guard let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw PostgresTestServerError.cannotDropRoot("running as root needs setpriv (util-linux) to start PostgreSQL as an unprivileged user")
        }
        for name in ["postgres", "nobody"] {
            if let entry = getpwnam(name) {
                return ServerUser(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid, setprivPath: setpriv)
            }
        }
        throw PostgresTestServerError.cannotDropRoot("running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as")
    }
}
