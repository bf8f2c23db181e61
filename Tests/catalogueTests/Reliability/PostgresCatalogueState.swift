#if PostgreSQL
import Foundation
import PostgresTestSupport

/// What a catalogue database on the PostgreSQL test server holds, for all-or-nothing checks:
/// how many products, and an MD5 of the text of every row of every catalogue table (product,
/// country, country_alias, catalogue_info, in key order), so equal states mean equal rows,
/// tsvector columns and ids included.
struct PostgresCatalogueState: Equatable, CustomStringConvertible {
    let products: Int
    let checksum: String

    static let query = """
        SELECT (SELECT count(*) FROM product) || ' ' || md5(
            (SELECT coalesce(string_agg(p::text, E'\\n' ORDER BY p.id), '') FROM product p) || E'\\f' ||
            (SELECT coalesce(string_agg(c::text, E'\\n' ORDER BY c.id), '') FROM country c) || E'\\f' ||
            (SELECT coalesce(string_agg(a::text, E'\\n' ORDER BY a.country_id, a.alias), '') FROM country_alias a) || E'\\f' ||
            (SELECT coalesce(string_agg(i::text, E'\\n' ORDER BY i.key), '') FROM catalogue_info i))
        """

    init(_ database: PostgresTestDatabase) throws {
        let fields = try database.psql(Self.query).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        products = fields.first.flatMap { Int($0) } ?? -1
        checksum = fields.count == 2 ? String(fields[1]) : "?"
    }

    var description: String { "\(products) products, md5 \(checksum)" }
}
#endif
