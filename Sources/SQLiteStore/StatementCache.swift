/// A bounded least-recently-used cache of compiled statements, keyed by SQL.
struct StatementCache {
    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0

    private struct Entry {
        let statement: Statement
        var lastUse: UInt64
    }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int {
        entries.count
    }

    mutating func statement(for sql: String) -> Statement? {
        guard let index = entries.index(forKey: sql) else { return nil }
        clock &+= 1
        entries.values[index].lastUse = clock
        return entries.values[index].statement
    }

    mutating func insert(_ statement: Statement, for sql: String) {
        if entries.count >= capacity, entries[sql] == nil,
           let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        clock &+= 1
        entries[sql] = Entry(statement: statement, lastUse: clock)
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}
