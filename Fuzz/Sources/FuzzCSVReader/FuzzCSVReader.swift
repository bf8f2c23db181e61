// Fuzzes the CSV reader and the importer behind it: any bytes give records or CSVErrors (and the
// reader always advances), or an ImportEncodingError before any record for UTF-16/32 text, and importing them with `--on-error skip` gives counts or
// ImportIssues, never a database error (which would mean a bad value reached the schema).
import CatalogueKit

nonisolated(unsafe) private var catalogue: Catalogue?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let reader = try CSVReader(ImportInput(bytes: bytes, name: "fuzz.csv"), maximumFieldLength: 64, maximumFieldCount: 16)
        var previousLine = 0
        var steps = 0
        while true {
            steps += 1
            precondition(steps <= size + 2, "the CSV reader did not advance")
            do {
                guard let record = try reader.next() else { break }
                precondition(record.line >= previousLine, "line numbers went backwards")
                previousLine = record.line
            } catch let error as CSVError {
                precondition(error.line >= previousLine, "error line \(error.line) before \(previousLine)")
                previousLine = error.line
            }
        }
    } catch is ImportEncodingError {
        // UTF-16 or UTF-32 text, refused before any record; the import below must refuse it
        // too, as an ImportIssue.
    } catch {
        fatalError("CSVReader failed on \(bytes): \(error)")
    }
    do {
        if catalogue == nil { catalogue = try Catalogue(path: ":memory:") }
        let options = ImportOptions(format: .csv, onError: .skip)
        for type in [Product.self] as [any ImportableRecord.Type] {
            _ = try importAny(type, bytes: bytes, options: options)
        }
        _ = try catalogue!.importRecords(Country.self, from: ImportInput(bytes: bytes, name: "fuzz.csv"), options: options)
    } catch is ImportIssue {
        return 0
    } catch is CSVError {
        return 0
    } catch {
        fatalError("import of \(String(decoding: bytes, as: UTF8.self).debugDescription) failed: \(error)")
    }
    return 0
}

private func importAny<R: ImportableRecord>(_ type: R.Type, bytes: [UInt8], options: ImportOptions) throws -> ImportCounts {
    try catalogue!.importRecords(type, from: ImportInput(bytes: bytes, name: "fuzz.csv"), options: options)
}
