/// A committed change to a catalogue: which tables, and when the engine knows them, which rows.
///
/// ```swift
/// for try await change in catalogue.changes() {
///     if change.affects(Product.self) { reloadProducts() }
/// }
/// ```
public struct DatabaseChange: Sendable, Hashable, CustomStringConvertible {
    /// Who committed it.
    public enum Origin: String, Sendable, Hashable {
        /// A write through this catalogue (this process).
        case thisCatalogue
        /// Another connection, process or machine.
        case elsewhere
    }

    /// The tables changed; nil when the engine cannot tell (anything may have changed).
    public let tables: Set<String>?
    /// The ids of the rows inserted, updated or deleted, per table, where known (a table
    /// missing here, but in ``tables``, had rows changed that are not listed).
    public let rowIDs: [String: Set<Int64>]
    /// Who committed it.
    public let origin: Origin

    /// A change to `tables` (nil: any table), with the ids of its rows where known.
    public init(tables: Set<String>?, rowIDs: [String: Set<Int64>] = [:], origin: Origin) {
        self.tables = tables
        self.rowIDs = rowIDs
        self.origin = origin
    }

    /// Whether the change may concern records of `type`.
    public func affects<R: Record>(_ type: R.Type) -> Bool {
        guard let tables else { return true }
        return tables.contains(R.schema.table) || R.schema.aliases.map { tables.contains($0.table) } ?? false
    }

    /// The ids of the records of `type` that changed, when known; nil when any may have.
    public func changedIDs<R: Record>(of type: R.Type) -> Set<Int64>? {
        guard let tables, tables.contains(R.schema.table) || !affects(type) else { return nil }
        if !affects(type) { return [] }
        if let aliases = R.schema.aliases, tables.contains(aliases.table) { return nil }
        return rowIDs[R.schema.table]
    }

    public var description: String {
        guard let tables else { return "change (\(origin.rawValue)): any table" }
        let rows = rowIDs.keys.sorted().map { "\($0) \(rowIDs[$0]!.sorted())" }
        return "change (\(origin.rawValue)): \(tables.sorted().joined(separator: ", "))"
            + (rows.isEmpty ? "" : "; rows: " + rows.joined(separator: "; "))
    }
}
