#if PostgreSQL
import CatalogueKit
@testable import CataloguePostgres
import Testing

/// The statements the PostgreSQL engine writes records with.
@Suite("PostgreSQL record statements")
struct PostgresRecordSQLTests {
    @Test("A bulk upsert statement: one row of parameters a record, the conflict clause, the changed rows returned")
    func batchUpsert() throws {
        let sql = PostgresRecordSQL(schema: Product.schema)
        let perRecord = PostgresRecordSQL.values(of: Product(name: "Lamp", type: "light")).count
        #expect(sql.recordsPerBatch == 500)
        let statement = sql.batchUpsert(rows: 2)
        #expect(statement.hasPrefix("INSERT INTO product ("))
        #expect(statement.contains("VALUES ($1, "))
        #expect(statement.contains("), ($\(perRecord + 1), "))
        #expect(statement.contains("$\(2 * perRecord)"))
        #expect(!statement.contains("$\(2 * perRecord + 1)"))
        #expect(statement.contains("ON CONFLICT (name, type_key) DO UPDATE SET "))
        #expect(statement.hasSuffix(" RETURNING id, (xmax = 0) AS inserted"))
    }

    @Test("A record of many columns goes fewer to a statement: never over PostgreSQL's 65,535 parameters")
    func parameterLimit() throws {
        let columns = (0..<200).map { "c\($0)" }
        let wide = PostgresRecordSQL(schema: RecordSchema(table: "wide", columns: columns, naturalKey: ["c0"]))
        #expect(wide.recordsPerBatch == 327)
        let statement = wide.batchUpsert(rows: wide.recordsPerBatch)
        #expect(statement.contains("$65400)"))
        #expect(!statement.contains("$65401"))
    }
}
#endif
