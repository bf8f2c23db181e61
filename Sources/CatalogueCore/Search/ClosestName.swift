/// The name in a short list that a mistyped one most likely meant: what "did you mean" offers in
/// a message about an unknown scope, product type or command.
///
/// Names compare folded (``Folding/fold(_:options:)``: case and diacritics ignored). The closest
/// name within ``TypoDistance``'s typos wins (at least one typo from three characters on, as
/// a mistyped name of a few letters is still worth naming), the first of the list on a tie;
/// without one, the only name that starts with what was given (two characters or more).
///
/// ```swift
/// ClosestName.closest(to: "captial", among: ["name", "capital", "any"])   // "capital"
/// ClosestName.closest(to: "inter", among: ["import", "interactive"])     // "interactive"
/// ClosestName.closest(to: "planet", among: ["name", "capital", "any"])    // nil
/// ```
package enum ClosestName {
    /// The name of `names` that `given` most likely meant, as `names` spells it; nil when none is
    /// close enough.
    package static func closest(to given: String, among names: [String]) -> String? {
        let typed = Array(Folding.fold(given).unicodeScalars)
        guard !typed.isEmpty else { return nil }
        let folded = names.map { Array(Folding.fold($0).unicodeScalars) }
        let limit = typed.count < 3 ? 0 : max(1, TypoDistance.allowedTypos(forLength: typed.count))
        var best: (index: Int, distance: Int)?
        for (index, name) in folded.enumerated() {
            guard let distance = TypoDistance.distance(typed, name, atMost: best.map { $0.distance - 1 } ?? limit) else { continue }
            best = (index, distance)
            if distance == 0 { break }
        }
        if let best {
            return names[best.index]
        }
        guard typed.count >= 2 else { return nil }
        let starting = folded.indices.filter { folded[$0].starts(with: typed) }
        return starting.count == 1 ? names[starting[0]] : nil
    }
}
