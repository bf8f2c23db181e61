/// A statement compiled once for every search text of one shape, with the places where a
/// text's folded form and its prefix successor are bound: a keystroke binds its text into the
/// same SQL without building or compiling a request.
///
/// The template is found by compiling the request for two sentinel texts that differ in every
/// way a compile could notice (letters, diacritics, case, length) and comparing the results:
/// the SQL must be the same, and each argument must either be the same in both (a constant:
/// the scope's type, the limit) or be exactly each sentinel's `[cd]`-folded text or that
/// text's ``FetchPredicate/prefixSuccessor(of:)``. Anything else (an argument derived from the
/// text some other way, SQL that changes with the text) leaves no template, and the search is
/// compiled per text as before.
///
/// ```swift
/// let template = try SearchTextTemplate { text in
///     try CatalogueSearch.products(matching: text).selectSQL(in: dialect)
/// }
/// template?.fragment(folded: "bog", successor: "boh")  // the SQL with "bog", "boh" bound
/// ```
struct SearchTextTemplate: Sendable, Hashable {
    /// Where one argument comes from.
    enum Slot: Sendable, Hashable {
        /// The same for every text.
        case constant(DatabaseValue)
        /// The text, trimmed and folded for `[cd]`.
        case folded
        /// The folded text's prefix successor.
        case successor
    }

    /// The SQL, the same for every text of the template's shape.
    let sql: String
    /// Each argument's source, in the order of the SQL's parameters.
    let slots: [Slot]

    /// Two texts that fold to different keys of different lengths, each with a successor and
    /// without NUL: a compile that treats them alike treats every such text alike. Private-use
    /// scalars keep them apart from any constant of a request.
    static let sentinels = ("Äq\u{E000}", "Öxz\u{E001}\u{E002}")

    /// The template of `compile`, or nil when its SQL or arguments depend on the text in
    /// another way than through its folded form and successor.
    init?(_ compile: (String) throws -> SQLFragment) throws {
        let texts = [Self.sentinels.0, Self.sentinels.1]
        let fragments = try texts.map(compile)
        guard fragments[0].sql == fragments[1].sql, fragments[0].arguments.count == fragments[1].arguments.count else {
            return nil
        }
        let keys = texts.map { Folding.fold($0) }
        let successors = keys.map { FetchPredicate.prefixSuccessor(of: $0) }
        var slots: [Slot] = []
        for (first, second) in zip(fragments[0].arguments, fragments[1].arguments) {
            if first == .text(keys[0]), second == .text(keys[1]) {
                slots.append(.folded)
            } else if let successor = successors[0], let other = successors[1],
                      first == .text(successor), second == .text(other) {
                slots.append(.successor)
            } else if first == second {
                slots.append(.constant(first))
            } else {
                return nil
            }
        }
        self.sql = fragments[0].sql
        self.slots = slots
    }

    /// What a text needs to fit a template: its key (trimmed, folded for `[cd]`) and that key's
    /// prefix successor; nil for a text of another shape (empty once trimmed, a key with NUL or
    /// without a successor), which is compiled as a request instead.
    ///
    /// ```swift
    /// SearchTextTemplate.bindings(for: " Bogó ")  // ("bogo", "bogp")
    /// ```
    static func bindings(for text: String) -> (folded: String, successor: String)? {
        let trimmed = CatalogueSearch.normalizedText(text)
        guard !trimmed.isEmpty else { return nil }
        let folded = Folding.fold(trimmed)
        guard !folded.isEmpty, !folded.utf8.contains(0),
              let successor = FetchPredicate.prefixSuccessor(of: folded) else { return nil }
        return (folded, successor)
    }

    /// The statement for a text with key `folded` and its successor.
    func fragment(folded: String, successor: String) -> SQLFragment {
        SQLFragment(sql, slots.map { slot in
            switch slot {
            case .constant(let value): value
            case .folded: .text(folded)
            case .successor: .text(successor)
            }
        })
    }
}
