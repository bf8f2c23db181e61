import Foundation

/// A unique, empty directory under the system's temporary directory, removed by ``remove()``
/// (call it with `defer` right after creating the directory).
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// defer { directory.remove() }
/// let catalogue = try Catalogue(path: directory.path("catalogue.sqlite"))
/// ```
struct TemporaryDirectory {
    let url: URL

    init(function: String = #function) throws {
        let safeName = function.filter { $0.isLetter || $0.isNumber }.prefix(40)
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("CatalogueKitTests-\(safeName)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Whether `name` exists in the directory.
    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: path(name))
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
