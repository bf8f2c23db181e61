import CatalogueKit

/// Deterministic products: names of 1–3 words drawn from lists with Latin diacritics, 8 types,
/// years and prices. The same seed gives the same products on every machine.
struct ProductGenerator {
    static let firstWords = [
        "Amber", "Ångström", "Atlas", "Bélier", "Boréal", "Brio", "Café", "Cascade", "Château", "Citrus",
        "Crème", "Crystal", "Délice", "Dune", "Éclair", "Echo", "Émeraude", "Fjord", "Flamenco", "Forêt",
        "Garçon", "Glacier", "Harbor", "Héritage", "Iris", "Île", "Jade", "Jalapeño", "Kölsch", "Kiwi",
        "Lagoon", "Lumière", "Maçon", "Mistral", "Montréal", "Naïve", "Nordic", "Océan", "Olive", "Opéra",
        "Pâtisserie", "Piñata", "Prairie", "Quartz", "Québec", "Rêve", "Riviera", "Saffron", "Señor", "Smörgås",
        "Solstice", "Tempête", "Tundra", "Über", "Umbra", "Vérité", "Velvet", "Wünder", "Willow", "Zéphyr",
    ]
    static let secondWords = [
        "mug", "lamp", "chair", "kettle", "vase", "scarf", "watch", "bowl", "candle", "blanket", "phone",
        "tablet", "speaker", "camera", "bouquet", "wreath", "frame", "basket", "journal", "pen", "clock",
        "tray", "board", "plate", "glass", "bottle", "cushion", "rug", "mirror", "box",
    ]
    static let thirdWords = ["mini", "pro", "max", "duo", "set", "XL", "lite", "plus", "édition", "noir", "deluxe", "classic"]
    static let types = ["device", "desktop", "portable", "birthdays", "weddings", "funerals", "kitchen", "garden"]

    private var state: UInt64

    init(seed: UInt64 = 0x5EED_CA7A_1061_0E00) {
        state = seed
    }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[Int(next() % UInt64(items.count))]
    }

    /// The `index`-th product of a run: names are unique (a serial number breaks ties).
    mutating func product(_ index: Int) -> Product {
        let words = 1 + Int(next() % 3)
        var name = pick(Self.firstWords)
        if words >= 2 { name += " " + pick(Self.secondWords) }
        if words >= 3 { name += " " + pick(Self.thirdWords) }
        name += " \(index)"
        let year = 1980 + Int(next() % 46)
        let price = Double(500 + next() % 300_000) / 100
        return Product(name: name, type: pick(Self.types), year: year, price: price)
    }

    /// `count` products.
    static func products(count: Int) -> [Product] {
        var generator = ProductGenerator()
        return (0..<count).map { generator.product($0) }
    }
}
