extension Country {
    /// Import columns: the country's coding keys (`code`, `iso3`, `numeric_code`, `name`, …,
    /// `aliases`); `code` and `name` are required, `id` is accepted and ignored (a country is
    /// matched by its code). In CSV, `aliases` is one field separated by `;` ("UK; Britain"); in
    /// JSON, an array of strings or such a field.
    public static let importColumns: [ImportColumn] = [ImportColumn("id", ignored: true)] + schema.columns.map {
        ImportColumn($0, required: $0 == "code" || $0 == "name")
    }

    /// Export columns: every stored column, `code` to `aliases` (no `id`: the code identifies a
    /// country).
    public static let exportColumns = schema.columns

    /// A country from an import row: `code` two capital letters, `iso3` three, `name` not empty,
    /// `population` a whole number and `area_km2` a number, both zero or more.
    ///
    /// ```swift
    /// var values = [ImportValue](repeating: .null, count: Country.importColumns.count)
    /// values[1] = .text("XK")
    /// values[4] = .text("Kosovo")
    /// let kosovo = try Country(importing: ImportRow(columns: Country.importColumns, values: values))
    /// ```
    public init(importing row: ImportRow) throws(ImportFieldError) {
        let at = Self.importIndex
        func text(_ column: String) throws(ImportFieldError) -> String? { try row.text(at: at[column]!) }
        let code = try row.requiredText(at: at["code"]!)
        guard Self.isLetterCode(code, length: 2) else {
            throw ImportFieldError(
                column: "code", reason: "not a country code (two capital letters, e.g. CO): \(ImportRow.quoted(code))")
        }
        let iso3 = try text("iso3")
        if let iso3, !Self.isLetterCode(iso3, length: 3) {
            throw ImportFieldError(
                column: "iso3", reason: "not an ISO alpha-3 code (three capital letters, e.g. COL): \(ImportRow.quoted(iso3))")
        }
        self.init(
            code: code, iso3: iso3, numericCode: try text("numeric_code"), name: try row.requiredText(at: at["name"]!),
            officialName: try text("official_name"), capital: try text("capital"), continent: try text("continent"),
            region: try text("region"), subregion: try text("subregion"),
            population: try row.integer(at: at["population"]!, in: 0...Int64.max),
            areaKm2: try row.nonNegativeNumber(at: at["area_km2"]!), currencyCode: try text("currency_code"),
            currencyName: try text("currency_name"), tld: try text("tld"), callingCode: try text("calling_code"),
            languages: try text("languages"), neighbours: try text("neighbours"), demonym: try text("demonym"),
            flag: try text("flag"), aliases: try row.list(at: at["aliases"]!))
    }

    /// Column name → its index in ``importColumns``.
    private static let importIndex = Dictionary(
        uniqueKeysWithValues: importColumns.enumerated().map { ($0.element.name, $0.offset) })

    private static func isLetterCode(_ text: String, length: Int) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }
}
