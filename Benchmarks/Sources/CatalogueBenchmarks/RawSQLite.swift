import CSQLiteBench
import CatalogueKit

/// The raw C API anchor: the same SQL, prepared once, re-bound and stepped by hand.
final class RawSQLite {
    let handle: OpaquePointer

    init(path: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else {
            throw DatabaseError(code: .SQLITE_CANTOPEN, message: "raw open \(path)")
        }
        handle = db
        // The library's SQL checks a row's full-text match with catalogue_in_matches: the raw
        // anchor runs the same SQL, so it has the same function.
        FullTextMembership.register(on: db)
        // And the page cache of the library's connections.
        sqlite3_exec(db, "PRAGMA cache_size = -\(SQLiteEngine.defaultPageCacheKiB)", nil, nil, nil)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement
        else {
            throw DatabaseError(code: .SQLITE_ERROR, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        return RawStatement(handle: statement)
    }
}

final class RawStatement {
    let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets and binds the values.
    @inline(__always)
    func bind(_ values: [DatabaseValue]) {
        sqlite3_reset(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .text(let text): sqlite3_bind_text(handle, index, text, -1, csqlitebench_transient())
            case .integer(let integer): sqlite3_bind_int64(handle, index, integer)
            case .real(let real): sqlite3_bind_double(handle, index, real)
            case .blob(let data):
                _ = data.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), csqlitebench_transient()) }
            case .null: sqlite3_bind_null(handle, index)
            }
        }
    }

    @inline(__always)
    func step() -> Bool {
        sqlite3_step(handle) == SQLITE_ROW
    }

    @inline(__always)
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    @inline(__always)
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    @inline(__always)
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    @inline(__always)
    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }

    /// Steps every row into a `Product`: the same materialization CatalogueKit does.
    func products() -> [Product] {
        var products: [Product] = []
        while step() {
            products.append(Product(
                id: int64(0), name: string(1), type: string(2),
                year: isNull(3) ? nil : Int(int64(3)), price: isNull(4) ? nil : double(4)))
        }
        return products
    }
}
