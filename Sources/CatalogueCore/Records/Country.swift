/// A country or territory of the catalogue (ISO 3166-1, plus Kosovo).
///
/// ```swift
/// let colombia = try catalogue.country(code: "CO")
/// colombia?.capital  // "Bogotá"
/// ```
public struct Country: CatalogueRecord, Hashable {
    public var id: Int64?
    /// ISO 3166-1 alpha-2 code, upper case ("CI"); the natural key.
    public var code: String
    /// ISO alpha-3 code ("CIV").
    public var iso3: String?
    /// ISO numeric code, three digits ("384").
    public var numericCode: String?
    /// The name people expect, with its diacritics ("Côte d'Ivoire").
    public var name: String
    /// The official name ("Republic of Côte d'Ivoire").
    public var officialName: String?
    /// The capital, with its diacritics ("Yamoussoukro"); nil where there is none.
    public var capital: String?
    /// Continent ("Africa").
    public var continent: String?
    /// Region ("Africa", "Americas").
    public var region: String?
    /// Subregion ("Sub-Saharan Africa").
    public var subregion: String?
    /// Number of inhabitants.
    public var population: Int64?
    /// Area in square kilometres.
    public var areaKm2: Double?
    /// ISO 4217 currency code ("XOF").
    public var currencyCode: String?
    /// Currency name ("Franc").
    public var currencyName: String?
    /// Top-level internet domain (".ci").
    public var tld: String?
    /// International calling code as published ("225", "+1-268").
    public var callingCode: String?
    /// Language tags, comma-separated ("fr-CI").
    public var languages: String?
    /// Neighbouring countries' alpha-2 codes, comma-separated ("LR,GH,GN,ML,BF").
    public var neighbours: String?
    /// What its people are called ("Ivorian").
    public var demonym: String?
    /// Flag emoji.
    public var flag: String?
    /// Other names people type ("Ivory Coast"); a name search finds the country by any of them.
    public var aliases: [String]

    /// A country with a code and a name; every other field is optional (`id` is nil until it
    /// is stored).
    public init(
        id: Int64? = nil, code: String, iso3: String? = nil, numericCode: String? = nil, name: String,
        officialName: String? = nil, capital: String? = nil, continent: String? = nil, region: String? = nil,
        subregion: String? = nil, population: Int64? = nil, areaKm2: Double? = nil, currencyCode: String? = nil,
        currencyName: String? = nil, tld: String? = nil, callingCode: String? = nil, languages: String? = nil,
        neighbours: String? = nil, demonym: String? = nil, flag: String? = nil, aliases: [String] = []
    ) {
        self.id = id
        self.code = code
        self.iso3 = iso3
        self.numericCode = numericCode
        self.name = name
        self.officialName = officialName
        self.capital = capital
        self.continent = continent
        self.region = region
        self.subregion = subregion
        self.population = population
        self.areaKm2 = areaKm2
        self.currencyCode = currencyCode
        self.currencyName = currencyName
        self.tld = tld
        self.callingCode = callingCode
        self.languages = languages
        self.neighbours = neighbours
        self.demonym = demonym
        self.flag = flag
        self.aliases = aliases
    }

    /// The countries entity: every stored field, the list (code, name, capital, continent,
    /// population, area; name, capital and population when narrow), the scopes (name and
    /// aliases; capital, ordered by capital; any, for searching only), looked up by code.
    public static let entity = EntityDescriptor<Country>(
        entity: .countries, singular: "country", plural: "countries",
        fields: [
            FieldDescriptor("code", label: "Code", \.code),
            FieldDescriptor("iso3", label: "ISO alpha-3", \.iso3),
            FieldDescriptor("numeric_code", label: "ISO numeric", \.numericCode),
            FieldDescriptor("name", label: "Name", \.name),
            FieldDescriptor("official_name", label: "Official name", \.officialName),
            FieldDescriptor("capital", label: "Capital", listWidth: 22, \.capital),
            FieldDescriptor("continent", label: "Continent", \.continent),
            FieldDescriptor("region", label: "Region", \.region),
            FieldDescriptor("subregion", label: "Subregion", \.subregion),
            FieldDescriptor("population", label: "Population", format: .grouped, listWidth: 13, \.population),
            FieldDescriptor("area_km2", label: "Area (km²)", format: .area, \.areaKm2),
            FieldDescriptor("currency_code", label: "Currency code", \.currencyCode),
            FieldDescriptor("currency_name", label: "Currency", \.currencyName),
            FieldDescriptor("tld", label: "Internet domain", \.tld),
            FieldDescriptor("calling_code", label: "Calling code", \.callingCode),
            FieldDescriptor("languages", label: "Languages", \.languages),
            FieldDescriptor("neighbours", label: "Neighbours", \.neighbours),
            FieldDescriptor("demonym", label: "Demonym", \.demonym),
            FieldDescriptor("flag", label: "Flag", \.flag),
            FieldDescriptor("aliases", label: "Also known as") { .text(AliasTable.join($0.aliases)) },
        ],
        listFields: ["code", "name", "capital", "continent", "population", "area_km2"],
        compactListFields: ["name", "capital", "population"],
        scopes: [
            SearchScope(key: CountryScope.name.rawValue, title: CountryScope.name.title, matchedFields: ["name", "aliases"]),
            SearchScope(
                key: CountryScope.capital.rawValue, title: CountryScope.capital.title, matchedFields: ["capital"],
                orderField: "capital"),
            SearchScope(
                key: CountryScope.any.rawValue, title: CountryScope.any.title, matchedFields: ["name", "aliases", "capital"],
                isBrowsable: false),
        ],
        lookup: .code(column: "code", length: 2, example: "CO"))

    public static let schema = RecordSchema(
        table: "country",
        columns: entity.columnNames,
        naturalKey: ["code"],
        foldedColumns: ["name": "name_key", "capital": "capital_key"],
        fullTextTable: "country_fts",
        fullTextColumns: ["name", "aliases", "capital"],
        aliases: AliasTable(
            table: "country_alias", recordColumn: "country_id", nameColumn: "alias", keyColumn: "alias_key",
            joinedColumn: "aliases"))

    @inlinable
    public init(row: some DatabaseRow) throws {
        id = try row.decode(at: 0)
        code = try row.decode(at: 1)
        iso3 = try row.decode(at: 2)
        numericCode = try row.decode(at: 3)
        name = try row.decode(at: 4)
        officialName = try row.decode(at: 5)
        capital = try row.decode(at: 6)
        continent = try row.decode(at: 7)
        region = try row.decode(at: 8)
        subregion = try row.decode(at: 9)
        population = try row.decode(at: 10)
        areaKm2 = try row.decode(at: 11)
        currencyCode = try row.decode(at: 12)
        currencyName = try row.decode(at: 13)
        tld = try row.decode(at: 14)
        callingCode = try row.decode(at: 15)
        languages = try row.decode(at: 16)
        neighbours = try row.decode(at: 17)
        demonym = try row.decode(at: 18)
        flag = try row.decode(at: 19)
        aliases = AliasTable.split(try row.decode(String.self, at: 20))
    }

    public var databaseValues: [DatabaseValue] {
        Self.entity.values(of: self)
    }

    /// The request for countries matching `text` in the scope with key `scope`.
    public static func searchRequest(matching text: String, scope: String?, mode: MatchMode) throws -> FetchRequest<Country> {
        CatalogueSearch.countries(matching: text, scope: try countryScope(scope), mode: mode)
    }

    public static func suggestions(for text: String, scope: String?, in db: some CatalogueReading) throws -> [String] {
        try CatalogueSearch.suggestions(for: text, scope: countryScope(scope), in: db)
    }

    /// The scope with key `key` (nil: ``CountryScope/name``).
    private static func countryScope(_ key: String?) throws -> CountryScope {
        guard let key else { return .name }
        guard let parsed = CountryScope(rawValue: key.lowercased()) else {
            throw SearchScopeError(scope: key, entity: .countries, validScopes: entity.scopes.map(\.key))
        }
        return parsed
    }
}
