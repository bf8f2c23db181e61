#if PostgreSQL
import Foundation

/// The hosts a PostgreSQL URL names, in libpq's forms: one host, or several to try in turn
/// (`postgres://app@a.example:5432,b.example:5433/catalogue`, `?host=a.example,b.example`,
/// `PGHOST=a.example,b.example`), each a name, an address (`[::1]` in a URL's authority) or the
/// directory of a Unix-domain socket.
///
/// ```swift
/// let text = "postgres://app@a.example:5432,[::1]/catalogue"
/// let range = PostgresHostList.authorityHostsRange(of: text)!
/// PostgresHostList.authorityEntries(text[range])
/// // [Entry(host: "a.example", port: "5432"), Entry(host: "::1", port: nil)]
/// ```
enum PostgresHostList {
    /// One host of a list, and the port written with it (in a URL's authority).
    struct Entry: Sendable, Hashable {
        /// A host name, an address, or a socket directory (starting with `/`).
        var host: String
        /// The port as written after the host, if it was.
        var port: String?
    }

    /// Where the hosts part of a URL's authority is (after any `user:password@`, before the
    /// path), as written.
    static func authorityHostsRange(of text: String) -> Range<String.Index>? {
        guard let scheme = text.range(of: "://") else { return nil }
        let rest = text[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let start = authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex
        return start..<authority.endIndex
    }

    /// The entries of a URL authority's hosts (`a.example:5432,[::1]:5433,b.example`); nil when
    /// one is empty or malformed. A socket directory is percent-encoded there (`%2Ftmp`), as
    /// libpq reads it.
    static func authorityEntries(_ text: Substring) -> [Entry]? {
        var entries: [Entry] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var host: Substring
            var port: Substring?
            if part.hasPrefix("[") {
                guard let close = part.firstIndex(of: "]") else { return nil }
                host = part[part.index(after: part.startIndex)..<close]
                let after = part[part.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { return nil }
                    port = after.dropFirst()
                }
            } else if let colon = part.firstIndex(of: ":") {
                host = part[..<colon]
                port = part[part.index(after: colon)...]
            } else {
                host = part
            }
            guard let decoded = String(host).removingPercentEncoding, !decoded.isEmpty else { return nil }
            entries.append(Entry(host: decoded, port: port.map(String.init)))
        }
        return entries
    }

    /// The entries of a comma-separated list (`host=`, a service's `host`, `PGHOST`); nil when
    /// one is empty.
    static func entries(_ text: String) -> [Entry]? {
        let hosts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !hosts.contains(where: \.isEmpty) else { return nil }
        return hosts.map { Entry(host: String($0), port: nil) }
    }
}
#endif
