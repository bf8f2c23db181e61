import CatalogueCore
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat` says about a database file: enough to tell that it changed between two moments.
/// A catalogue read as immutable (by a user who cannot write it, with no `-wal` file) takes no
/// locks, so a writer could change the file under it; comparing a snapshot taken before the
/// open with one taken after the reads tells the reader to discard what it read.
///
/// ```swift
/// let before = FileSnapshot(path)
/// // … read …
/// if FileSnapshot(path) != before { /* read again */ }
/// ```
struct FileSnapshot: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: timespec
    let changed: timespec
    /// Whether the write-ahead log existed.
    let hasWriteAheadLog: Bool

    /// The file at `path` now; nil when it cannot be read.
    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim
        changed = info.st_ctim
        hasWriteAheadLog = DatabaseFileKind.hasWriteAheadLog(path)
    }

    static func == (lhs: FileSnapshot, rhs: FileSnapshot) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
            && lhs.hasWriteAheadLog == rhs.hasWriteAheadLog
    }
}
