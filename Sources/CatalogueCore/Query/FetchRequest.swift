/// A description of which records to fetch and in what order, the counterpart of
/// `NSFetchRequest`: a predicate, sort descriptors, a limit, an offset and a batch size.
///
/// ```swift
/// var request = FetchRequest<Country>(
///     predicate: .beginsWith("name", "bo", options: .caseAndDiacriticInsensitive),
///     sortDescriptors: FetchSortDescriptor.byName)
/// request.fetchLimit = 50
/// let countries = try catalogue.fetch(request)  // Bolivia, Bosnia and Herzegovina, Botswana…
/// ```
///
/// Compiling a request produces the same SQL whatever the search text (the text is bound), so
/// running it again with new text re-binds the cached prepared statement.
public struct FetchRequest<R: Record>: Sendable, Hashable {
    /// Which records (all by default).
    public var predicate: FetchPredicate
    /// The order; rows that tie on every descriptor come in id order, on every engine. Without
    /// descriptors the order is the engine's (SQLite's is by id).
    public var sortDescriptors: [FetchSortDescriptor]
    /// At most this many records (nil: no limit).
    public var fetchLimit: Int?
    /// Skip this many records first.
    public var fetchOffset: Int
    /// How many records a ``SectionedResultsController`` loads at a time (0: its default).
    public var fetchBatchSize: Int

    /// A request for the records `predicate` matches, in the order of `sortDescriptors` (id
    /// order by default), all of them unless `fetchLimit` says otherwise.
    public init(
        predicate: FetchPredicate = .true,
        sortDescriptors: [FetchSortDescriptor] = [FetchSortDescriptor("id")],
        fetchLimit: Int? = nil,
        fetchOffset: Int = 0,
        fetchBatchSize: Int = 0
    ) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = fetchBatchSize
    }
}
