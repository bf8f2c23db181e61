#if PostgreSQL
/// Which kind of server a connection must reach, as libpq's `target_session_attrs` says it: with
/// several hosts, they are tried in turn until one fits (a read-write primary, say, while the
/// others are standbys).
///
/// ```swift
/// let target = try PostgresTarget(url: "postgres://app@a.example,b.example/catalogue?target_session_attrs=read-write")
/// target.sessionAttributes  // .readWrite
/// target.sessionAttributes.accepts(inRecovery: false, readOnly: true)  // false: try the next host
/// ```
public enum PostgresSessionAttributes: String, Sendable, Hashable, CaseIterable {
    /// `any`: the first host that answers (the default).
    case any
    /// `read-write`: a server that takes writes by default (not a standby, and without
    /// `default_transaction_read_only`). What an import or a first open, which migrates, needs.
    case readWrite = "read-write"
    /// `read-only`: a server that refuses writes by default (a standby, or read-only by setting).
    case readOnly = "read-only"
    /// `primary`: a server that is not in recovery.
    case primary
    /// `standby`: a server in recovery (a hot standby).
    case standby
    /// `prefer-standby`: a standby when one answers, else the first host that answers.
    case preferStandby = "prefer-standby"

    /// Whether a server in this state fits (`prefer-standby`: only a standby, on the first pass).
    ///
    /// ```swift
    /// PostgresSessionAttributes.primary.accepts(inRecovery: true, readOnly: true)  // false
    /// ```
    public func accepts(inRecovery: Bool, readOnly: Bool) -> Bool {
        switch self {
        case .any: true
        case .readWrite: !inRecovery && !readOnly
        case .readOnly: inRecovery || readOnly
        case .primary: !inRecovery
        case .standby, .preferStandby: inRecovery
        }
    }

    /// What a server that does not fit is, for messages: "read-only", "a standby", "not a standby".
    func mismatch(inRecovery: Bool, readOnly: Bool) -> String {
        switch self {
        case .any: "accepted"
        case .readWrite: inRecovery ? "a standby (read-only)" : "read-only (default_transaction_read_only is on)"
        case .readOnly: "read-write"
        case .primary: "a standby"
        case .standby, .preferStandby: "not a standby"
        }
    }

    /// What this asks for, for messages: "read-write", "a standby".
    var wanted: String {
        switch self {
        case .any: "reachable"
        case .readWrite: "read-write"
        case .readOnly: "read-only"
        case .primary: "a primary"
        case .standby, .preferStandby: "a standby"
        }
    }
}
#endif
