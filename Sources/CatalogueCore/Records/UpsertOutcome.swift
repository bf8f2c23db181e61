/// What an upsert did.
public enum UpsertOutcome: Sendable, Hashable {
    /// A new row was inserted.
    case inserted
    /// An existing row (same natural key) had different values and was updated.
    case updated
    /// An existing row already had these values; nothing was written.
    case unchanged
}

/// How many records a batch upsert inserted, updated and left unchanged.
public struct UpsertCounts: Sendable, Hashable {
    /// Records inserted as new rows.
    public var inserted = 0
    /// Existing rows (same natural key) updated with different values.
    public var updated = 0
    /// Existing rows that already had these values: nothing written.
    public var unchanged = 0

    /// Counts with the given numbers (zero by default).
    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }

    /// Counts one outcome.
    public mutating func record(_ outcome: UpsertOutcome) {
        switch outcome {
        case .inserted: inserted += 1
        case .updated: updated += 1
        case .unchanged: unchanged += 1
        }
    }

    /// Every record counted.
    public var total: Int {
        inserted + updated + unchanged
    }
}
