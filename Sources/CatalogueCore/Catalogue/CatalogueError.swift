/// A catalogue database could not be opened or written. The file is left exactly as it was.
///
/// ```swift
/// do { _ = try Catalogue(path: "notes.txt") }
/// catch let error as CatalogueError { print(error) }  // cannot open notes.txt: file is not a database
/// ```
public enum CatalogueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path is a directory.
    case isDirectory(path: String)
    /// The path is a device, a FIFO or a socket (`kind` says which), not a file.
    case notAFile(path: String, kind: String)
    /// The file exists but is empty: not a catalogue (SQLite would silently make it one).
    case emptyFile(path: String)
    /// The engine could not open or read the database (not a database, corrupt, unreadable);
    /// `reason` is the engine's message.
    case cannotOpen(path: String, reason: String)
    /// The file is a SQLite database, but not a catalogue (it has no `catalogue_migrations`
    /// table recording the catalogue's first migration).
    case notACatalogue(path: String)
    /// A new catalogue could not be created at the path (nothing is left there).
    case cannotCreate(path: String, reason: String)
    /// The catalogue was made by an older version and needs `migration`, which a read-only open
    /// does not apply.
    case needsMigration(path: String, migration: String)
    /// `PRAGMA quick_check` found the file damaged: nothing is written to it. `detail` is the
    /// first problem it reported.
    case corrupt(path: String, detail: String)
    /// This user cannot write the file (its permissions, or `chattr +i`), so nothing can be
    /// written to it.
    case readOnly(path: String)
    /// The file changed while it was read without locks (see
    /// ``Catalogue/verifyUnchangedSinceOpened()``): what was read may be inconsistent.
    case changedWhileReading(path: String)

    public var description: String {
        switch self {
        case .isDirectory(let path):
            "cannot open \(path): it is a directory, not a catalogue database"
        case .notAFile(let path, let kind):
            "cannot open \(path): it is \(kind), not a catalogue database"
        case .emptyFile(let path):
            "cannot open \(path): the file is empty, not a catalogue database (remove it to create a new catalogue there)"
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason)"
        case .notACatalogue(let path):
            "cannot open \(path): it is a SQLite database but not a catalogue; the file is unchanged"
        case .cannotCreate(let path, let reason):
            "cannot open \(path): cannot create a new catalogue there: \(reason)"
        case .needsMigration(let path, let migration):
            "cannot read \(path): it was made by an older version and needs migration \(migration), which reading does not apply; open it for writing once (any import does) to upgrade it"
        case .corrupt(let path, let detail):
            "\(path): database disk image is malformed (\(detail)); nothing was written, the file is unchanged"
        case .readOnly(let path):
            "cannot write \(path): this user cannot write the file; it is unchanged"
        case .changedWhileReading(let path):
            "\(path) changed while it was being read (this user cannot write it, so it is read without locks); run the command again"
        }
    }
}
