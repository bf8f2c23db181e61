// Fuzzes the NSPredicate format parser: any input either parses or throws
// PredicateFormatError; a parsed predicate compiles or throws FetchRequestError, and runs against
// a catalogue without an SQL error.
import CatalogueKit

nonisolated(unsafe) private var catalogue: Catalogue?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let arguments: [any Sendable] = ["name", "Bo'g%_", 42, 2.5, ["FR", "DE"], [1, 2], "capital"]
    let predicate: CatalogueKit.FetchPredicate
    do {
        predicate = try CatalogueKit.FetchPredicate(format: text, argumentArray: arguments)
    } catch is PredicateFormatError {
        return 0
    } catch {
        fatalError("unexpected parser error \(error) for \(String(reflecting: text))")
    }
    do {
        if catalogue == nil { catalogue = try Catalogue(path: ":memory:") }
        _ = try catalogue!.read { db in try db.fetch(FetchRequest<Country>(predicate: predicate, fetchLimit: 5)) }
    } catch is FetchRequestError {
        return 0
    } catch let error as DatabaseError where error.resultCode == .SQLITE_MISMATCH || error.message.contains("catalogue_fold") {
        return 0
    } catch {
        fatalError("predicate \(predicate) from \(String(reflecting: text)) failed: \(error)")
    }
    return 0
}
