import Foundation

/// Where the interactive mode's tests keep their catalogue files: one directory per test
/// process, removed when the process exits. The suites' shared catalogues live as long as the
/// process, so no test can remove them; before, each run left its files (and their `-wal` and
/// `-shm`) in the temporary directory.
///
/// ```swift
/// let catalogue = try Catalogue(path: InteractiveScratchFiles.path("session.sqlite"))
/// ```
enum InteractiveScratchFiles {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-interactive-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: InteractiveScratchFiles.directory) }
        return url
    }()

    /// A new path in the directory: `name` with a unique suffix before its extension.
    static func path(_ name: String) -> String {
        let base = (name as NSString).deletingPathExtension
        let pathExtension = (name as NSString).pathExtension
        return directory.appendingPathComponent("\(base)-\(UUID().uuidString).\(pathExtension)").path
    }
}
