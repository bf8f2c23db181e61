extension Product {
    /// Import columns: `name` and `type` (required), `year`, `price`, and `id`, which is accepted
    /// and ignored: a product is matched by its natural key (name and type), because ids are
    /// local to one database.
    public static let importColumns = [
        ImportColumn("id", ignored: true),
        ImportColumn("name", required: true),
        ImportColumn("type", required: true),
        ImportColumn("year"),
        ImportColumn("price"),
    ]

    /// Export columns: `id`, `name`, `type`, `year`, `price`.
    public static let exportColumns = ["id"] + schema.columns

    /// A product from an import row: name and type not empty, year a whole number from 0 to 9999,
    /// price a number zero or more.
    ///
    /// ```swift
    /// let row = ImportRow(columns: Product.importColumns,
    ///                     values: [.null, .text("Brio"), .text("device"), .text("2020"), .text("99.5")])
    /// let product = try Product(importing: row)  // Brio, device, 2020, 99.5
    /// ```
    public init(importing row: ImportRow) throws(ImportFieldError) {
        self.init(
            name: try row.requiredText(at: 1),
            type: try row.requiredText(at: 2),
            year: try row.integer(at: 3, in: 0...9999).map { Int($0) },
            price: try row.nonNegativeNumber(at: 4))
    }
}
