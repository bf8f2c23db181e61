// An app that embeds CatalogueKit, made of the documentation's examples: the README's
// embedding section and the DocC catalog, verbatim in this folder's *Examples.swift files.
// It is built like an app (public API only) and run by the tests, which check that it prints
// what the examples' comments say.
import CatalogueKit
import Foundation

disableMemoryStatistics()
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-example-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

try useCities(path: directory.appendingPathComponent("cities.sqlite").path)
let seeded = try Catalogue(path: ":memory:")
try searchingExamples(catalogue: seeded)
try predicateExamples(catalogue: seeded)
try predicateLanguageExamples(catalogue: seeded)
try searchCapitals(controller: try makeController(catalogue: seeded))
try embeddingExample(path: directory.appendingPathComponent("catalogue.sqlite").path)
try suggestionsExample(catalogue: seeded)
try fallbackModesExample(catalogue: seeded)
try fuzzyExample()
try preparedSearchExample(catalogue: seeded)
// The async example on a task of its own while this thread waits: top-level code with an
// `await` would become an async main, whose top-level strings LeakSanitizer reports as leaked.
let asyncExampleDone = DispatchSemaphore(value: 0)
Task.detached { [seeded] in
    do {
        try await cancelledSearchExample(catalogue: seeded)
    } catch {
        fatalError("cancelledSearchExample: \(error)")
    }
    asyncExampleDone.signal()
}
asyncExampleDone.wait()
try firstImportExample(directory: directory)
