import ArgumentParser
import CatalogueKit

/// `--count`: how far `catalogue search` counts its matches for the table's last line.
enum CountOption: String, CaseIterable, ArgumentChoices {
    /// Stop at 1,000: "50 of more than 1,000 shown". A keystroke never waits for a full count.
    case capped
    /// Count every match: "50 of 1,000,000 shown".
    case exact

    /// The library's count limit for this option.
    var limit: CountLimit {
        switch self {
        case .capped: .standard
        case .exact: .exact
        }
    }
}
