import CatalogueKit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Saves and loads the interactive mode's state of one database, as JSON under the XDG state
/// directory: `$XDG_STATE_HOME/catalogue/interactive-<hash>.json` (default
/// `~/.local/state/catalogue/`), the hash being of the database's absolute path. The file keeps
/// one state per entity and the entity used last; it is replaced atomically (written beside,
/// then renamed), so a reader never sees half a file.
///
/// ```swift
/// let store = InteractiveStateStore(databasePath: "/data/catalogue.sqlite")
/// try store.save(state.saved, entity: .countries)
/// store.load()?.entities["countries"]?.searchText  // "co"
/// ```
struct InteractiveStateStore: Sendable {
    /// The file's content.
    struct File: Codable, Equatable, Sendable {
        var version = 1
        /// The database's absolute path (two paths never share a file, even if their hashes did).
        var database: String
        /// The entity of the last session.
        var lastEntity: CatalogueEntity
        /// The saved state per entity, by its raw value.
        var entities: [String: SavedInteractiveState]
    }

    /// The database's absolute path, symbolic links resolved.
    let databasePath: String
    /// Where state files go.
    let directory: URL

    init(databasePath: String, directory: URL = Catalogue.stateDirectory()) {
        self.databasePath = Self.absolutePath(databasePath)
        self.directory = directory
    }

    /// The state file of this database.
    var fileURL: URL {
        let hash = SHA256.hexDigest(of: Array(databasePath.utf8)).prefix(16)
        return directory.appendingPathComponent("interactive-\(hash).json")
    }

    /// The saved file; nil when there is none, or it cannot be read, or it is another
    /// database's.
    func load() -> File? {
        guard let data = FileManager.default.contents(atPath: fileURL.path),
              let file = try? JSONDecoder().decode(File.self, from: data),
              file.database == databasePath, file.version == 1
        else { return nil }
        return file
    }

    /// Saves `state` as the state of `entity` (and `entity` as the last one used), keeping the
    /// other entity's state.
    func save(_ state: SavedInteractiveState, entity: CatalogueEntity) throws {
        try save([entity: state], lastEntity: entity)
    }

    /// Saves `states` (by entity) and `lastEntity` as the one used last, keeping the states of
    /// the entities not in `states`.
    func save(_ states: [CatalogueEntity: SavedInteractiveState], lastEntity: CatalogueEntity) throws {
        var file = load() ?? File(database: databasePath, lastEntity: lastEntity, entities: [:])
        file.lastEntity = lastEntity
        for (entity, state) in states {
            file.entities[entity.rawValue] = state
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try Self.createDirectory(directory.path)
        try Self.writeAtomically(encoder.encode(file), to: fileURL)
    }

    /// Creates `path` and the missing directories above it, readable by this user only, as
    /// `mkdir -p` does; throws a ``StateFileError`` naming the directory that could not be made.
    static func createDirectory(_ path: String) throws {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createDirectory(parent) }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw StateFileError(path: path, operation: "create the directory", code: errno)
        }
    }

    /// Writes `data` to a temporary file beside `url`, flushes it to disk and renames it over
    /// `url`.
    static func writeAtomically(_ data: Data, to url: URL) throws {
        let temporary = url.path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StateFileError(path: temporary, operation: "create", code: errno) }
        var failure: Int32?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == nil, rename(temporary, url.path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw StateFileError(path: url.path, operation: "write", code: failure)
        }
    }

    /// `path` made absolute, with symbolic links resolved when it exists.
    static func absolutePath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// The state file could not be written.
struct StateFileError: Error, CustomStringConvertible {
    let path: String
    let operation: String
    let code: Int32

    var description: String {
        "cannot \(operation) \(path): \(String(cString: strerror(code)))"
    }
}
