import CatalogueKit

/// An import refused for a column of the other entity: the issue, and what was meant.
///
/// "p.csv:1: type: unknown column; known columns: id, code, … (p.csv holds products: catalogue
/// import products p.csv)".
///
/// ```swift
/// throw WrongEntityHint(issue, importing: .countries, file: "p.csv") ?? issue
/// ```
struct WrongEntityHint: Error, CustomStringConvertible {
    let issue: ImportIssue
    let meant: CatalogueEntity
    let file: String

    /// The hint for `issue`, when its column is one of the entity other than `entity`'s.
    init?(_ issue: ImportIssue, importing entity: CatalogueEntity, file: String) {
        guard let meant = issue.entityOwningUnknownColumn(importing: entity) else { return nil }
        self.issue = issue
        self.meant = meant
        self.file = file
    }

    var description: String {
        let name = file == "-" ? "the input" : file
        return "\(issue) (\(name) holds \(meant.rawValue): catalogue import \(meant.rawValue) \(file))"
    }
}
