import CatalogueKit
import Foundation

/// Apple's sample approach: every product in an array, filtered in Swift per keystroke.
struct InMemoryFilter {
    let products: [Product]
    let foldedNames: [[UInt8]]

    /// Loads every product, in display order, and folds each name once.
    init(catalogue: Catalogue) throws {
        products = try catalogue.fetch(CatalogueKit.FetchRequest<Product>(sortDescriptors: FetchSortDescriptor.byName))
        foldedNames = products.map { Array(Folding.fold($0.name).utf8) }
    }

    /// Folding every name per keystroke (`range(of:options:)`, as Apple's sample does).
    var foldingEveryName: Engine {
        Engine(name: "in-memory, folding per keystroke", maxRounds: 1) { text in
            let matches = products.filter {
                $0.name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive, .anchored]) != nil
            }
            return Array(matches.prefix(50)).count + matches.count
        }
    }

    /// Pre-folded keys, compared byte-wise.
    var preFolded: Engine {
        Engine(name: "in-memory, pre-folded keys", maxRounds: 3) { text in
            let prefix = Array(Folding.fold(text).utf8)
            var count = 0
            var page: [Product] = []
            for (index, key) in foldedNames.enumerated() where key.starts(with: prefix) {
                count += 1
                if page.count < 50 { page.append(products[index]) }
            }
            return page.count + count
        }
    }
}
