// Fuzzes the NSPredicate format parser: any input either parses or throws
// PredicateFormatError; a parsed predicate compiles or throws FetchRequestError, and runs against
// a catalogue without any SQL error.
//
// Every DatabaseError is a bug. (An earlier version let SQLITE_MISMATCH and any error naming
// catalogue_fold through. Neither is legitimate: the compiler binds every value, never builds a
// LIMIT or a rowid assignment from one (the statements that can raise SQLITE_MISMATCH), and calls
// catalogue_fold, registered on every catalogue connection, with exactly its two arguments; so
// both exemptions could only hide a compiler bug, such as a wrong argument count.)
import CatalogueKit

nonisolated(unsafe) private var catalogue: Catalogue?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // The parser wants exactly one argument per placeholder: try 0, 1, … of the arguments, so
    // that a format with any number of placeholders (none included) reaches the SQL. (Passing all
    // seven every time, as an earlier version did, ran only formats with exactly seven.) The
    // arguments are rotated by the input's length so each placeholder meets every kind of value.
    let all: [any Sendable] = ["name", "Bo'g%_", 42, 2.5, ["FR", "DE"], [1, 2], "capital"]
    let rotation = size % all.count
    let arguments = Array(all[rotation...] + all[..<rotation])
    var parsed: CatalogueKit.FetchPredicate?
    for count in 0...arguments.count {
        do {
            parsed = try CatalogueKit.FetchPredicate(format: text, argumentArray: Array(arguments.prefix(count)))
            break
        } catch is PredicateFormatError {
            continue
        } catch {
            fatalError("unexpected parser error \(error) for \(String(reflecting: text))")
        }
    }
    guard let predicate = parsed else { return 0 }
    do {
        if catalogue == nil { catalogue = try Catalogue(path: ":memory:") }
        _ = try catalogue!.read { db in try db.fetch(FetchRequest<Country>(predicate: predicate, fetchLimit: 5)) }
    } catch is FetchRequestError {
        return 0
    } catch {
        fatalError("predicate \(predicate) from \(String(reflecting: text)) failed: \(error)")
    }
    return 0
}
