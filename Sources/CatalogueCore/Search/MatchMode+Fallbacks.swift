extension MatchMode {
    /// The modes to try, in this order, when a search in this mode found nothing, so that a
    /// search field can say "found when matching words" rather than "No items found": after
    /// ``prefix``, ``words`` (the start of any word: `salvador` finds El Salvador), then
    /// ``contains``; after ``words``, ``contains`` (`ettle` inside kettle). None after
    /// ``contains``, ``terms`` or ``fuzzy``: text searched so was meant to be found inside
    /// words, as terms or with typos, and "did you mean"
    /// (`CatalogueSearch.suggestions(for:scope:in:limit:)`) is what follows.
    ///
    /// ``contains`` is left out for text shorter than 3 characters, folded: a trigram index
    /// answers 3 or more, while shorter text is looked for in every key, which at a million rows
    /// costs more than the search that found nothing.
    ///
    /// ```swift
    /// MatchMode.prefix.fallbacks(for: "salvador")   // [.words, .contains]
    /// MatchMode.prefix.fallbacks(for: "sa")         // [.words]
    /// MatchMode.contains.fallbacks(for: "salvador") // []
    /// ```
    public func fallbacks(for text: String) -> [MatchMode] {
        let modes: [MatchMode] = switch self {
        case .prefix: [.words, .contains]
        case .words: [.contains]
        case .contains, .terms, .fuzzy: []
        }
        guard modes.contains(.contains) else { return modes }
        let folded = Folding.fold(CatalogueSearch.normalizedText(text))
        return folded.unicodeScalars.count >= Self.shortestTrigramText ? modes : modes.filter { $0 != .contains }
    }

    /// The first of ``fallbacks(for:)`` that finds `text`, by the counts `count` gives (in the
    /// scope searched, capped or exact as the caller counts), with its count; nil when none
    /// finds it. The CLI, the interactive mode and `catalogue serve`'s page name it under "No
    /// items found".
    ///
    /// ```swift
    /// let found = try catalogue.read { db in
    ///     try MatchMode.prefix.firstFallback(for: "salvador") { mode in
    ///         try db.fetchCount(CatalogueSearch.countries(matching: "salvador", mode: mode))
    ///     }
    /// }
    /// // (mode: .words, count: 1): El Salvador
    /// ```
    public func firstFallback(
        for text: String, counting count: (MatchMode) throws -> Int
    ) rethrows -> (mode: MatchMode, count: Int)? {
        for mode in fallbacks(for: text) {
            let found = try count(mode)
            if found > 0 { return (mode, found) }
        }
        return nil
    }

    /// The shortest folded text that holds a trigram: a contains search for it looks its
    /// candidates up in the trigram index; a shorter one reads keys in order.
    package static let shortestTrigramText = 3
}
