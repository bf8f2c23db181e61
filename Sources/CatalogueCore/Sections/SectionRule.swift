/// How a ``SectionedResultsController`` groups records into sections, and in which order the
/// sections come.
///
/// The default, ``InitialLetterSectionRule``, puts a record under the first letter of its name
/// after case and diacritic folding (A–Z), and everything else under `#`, last. An app replaces
/// it to suit its language, for example with Swedish Å, Ä and Ö as sections of their own after Z:
///
/// ```swift
/// struct SwedishSectionRule: SectionRule {
///     func sectionName(first: Unicode.Scalar?, foldedFirst: Unicode.Scalar?) -> String {
///         if let first, let letter = ["Å", "Ä", "Ö"].first(where: { $0 == String(first).uppercased() }) {
///             return letter
///         }
///         return InitialLetterSectionRule().sectionName(first: first, foldedFirst: foldedFirst)
///     }
///     var indexTitles: [String] { InitialLetterSectionRule.letters + ["Å", "Ä", "Ö", "#"] }
/// }
/// ```
public protocol SectionRule: Sendable {
    /// The section of a record whose section value starts with `first` (as stored) and whose
    /// folded value starts with `foldedFirst`; both nil for NULL or empty values.
    func sectionName(first: Unicode.Scalar?, foldedFirst: Unicode.Scalar?) -> String

    /// Every section name a full index shows, in section order (A…Z, #). Sections whose name is
    /// not listed come after these, in code point order.
    var indexTitles: [String] { get }
}

extension SectionRule {
    /// Sort key of a section name: its place in ``indexTitles``, then the name.
    func rank(of name: String) -> (Int, String) {
        (indexTitles.firstIndex(of: name) ?? indexTitles.count, name)
    }
}

/// The first letter A–Z after case and diacritic folding ("Åland Islands" under A, "Çad" under
/// C); anything else ("'s-Hertogenbosch", "1-800 Flowers", "Øresund") under `#`, which comes
/// last.
///
/// ```swift
/// let rule = InitialLetterSectionRule()
/// rule.sectionName(first: "Å", foldedFirst: "a")  // "A"
/// rule.sectionName(first: "1", foldedFirst: "1")  // "#"
/// ```
public struct InitialLetterSectionRule: SectionRule {
    /// "A" … "Z".
    public static let letters: [String] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
    /// The section of everything that does not start with a letter A–Z.
    public static let otherSection = "#"

    /// The rule: sections A to Z, then #.
    public init() {}

    public func sectionName(first: Unicode.Scalar?, foldedFirst: Unicode.Scalar?) -> String {
        guard let foldedFirst else { return Self.otherSection }
        switch foldedFirst.value {
        case 0x61...0x7A: return Self.letters[Int(foldedFirst.value - 0x61)]
        case 0x41...0x5A: return Self.letters[Int(foldedFirst.value - 0x41)]
        default: return Self.otherSection
        }
    }

    public var indexTitles: [String] {
        Self.letters + [Self.otherSection]
    }
}
