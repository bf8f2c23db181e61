/// A catalogue database could not be opened. The file is left exactly as it was.
///
/// ```swift
/// do { _ = try Catalogue(path: "notes.txt") }
/// catch let error as CatalogueError { print(error) }  // cannot open notes.txt: file is not a database
/// ```
public enum CatalogueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path is a directory.
    case isDirectory(path: String)
    /// The file exists but is empty: not a catalogue (SQLite would silently make it one).
    case emptyFile(path: String)
    /// The engine could not open or read the database (not a database, corrupt, unreadable);
    /// `reason` is the engine's message.
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .isDirectory(let path):
            "cannot open \(path): it is a directory, not a catalogue database"
        case .emptyFile(let path):
            "cannot open \(path): the file is empty, not a catalogue database (remove it to create a new catalogue there)"
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason)"
        }
    }
}
