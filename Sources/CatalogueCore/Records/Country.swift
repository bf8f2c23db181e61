/// A country or territory of the catalogue (ISO 3166-1, plus Kosovo).
///
/// ```swift
/// let colombia = try catalogue.country(code: "CO")
/// colombia?.capital  // "Bogotá"
/// ```
public struct Country: Record, Codable, Hashable {
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
    public var region: String?
    public var subregion: String?
    public var population: Int64?
    public var areaKm2: Double?
    public var currencyCode: String?
    public var currencyName: String?
    /// Top-level internet domain (".ci").
    public var tld: String?
    /// International calling code as published ("225", "+1-268").
    public var callingCode: String?
    /// Language tags, comma-separated ("fr-CI").
    public var languages: String?
    /// Neighbouring countries' alpha-2 codes, comma-separated ("LR,GH,GN,ML,BF").
    public var neighbours: String?
    public var demonym: String?
    /// Flag emoji.
    public var flag: String?
    /// Other names people type ("Ivory Coast"); a name search finds the country by any of them.
    public var aliases: [String]

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

    enum CodingKeys: String, CodingKey {
        case id, code, iso3, name, capital, continent, region, subregion, population, tld, languages
        case neighbours, demonym, flag, aliases
        case numericCode = "numeric_code"
        case officialName = "official_name"
        case areaKm2 = "area_km2"
        case currencyCode = "currency_code"
        case currencyName = "currency_name"
        case callingCode = "calling_code"
    }

    public static let schema = RecordSchema(
        table: "country",
        columns: [
            "code", "iso3", "numeric_code", "name", "official_name", "capital", "continent", "region",
            "subregion", "population", "area_km2", "currency_code", "currency_name", "tld", "calling_code",
            "languages", "neighbours", "demonym", "flag", "aliases",
        ],
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
        [
            code.databaseValue, iso3.databaseValue, numericCode.databaseValue, name.databaseValue,
            officialName.databaseValue, capital.databaseValue, continent.databaseValue, region.databaseValue,
            subregion.databaseValue, population.databaseValue, areaKm2.databaseValue, currencyCode.databaseValue,
            currencyName.databaseValue, tld.databaseValue, callingCode.databaseValue, languages.databaseValue,
            neighbours.databaseValue, demonym.databaseValue, flag.databaseValue,
            .text(AliasTable.join(aliases)),
        ]
    }
}
