import CatalogueCore
import SQLiteStore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a database path names, found with `stat` before SQLite is asked to open it: SQLite
/// would make a new database of a missing or empty file, and block on a FIFO.
///
/// ```swift
/// DatabaseFileKind.at("/dev/null")          // .special("a character device")
/// DatabaseFileKind.at("/tmp/new.sqlite")    // .missing
/// ```
enum DatabaseFileKind: Equatable {
    /// Nothing is there (or a symbolic link that points nowhere).
    case missing
    /// A directory.
    case directory
    /// A device, a FIFO or a socket, described ("a character device", "a FIFO").
    case special(String)
    /// A regular file of zero bytes.
    case empty
    /// A regular file with content.
    case regular

    /// The kind of what `path` names (following symbolic links).
    static func at(_ path: String) -> DatabaseFileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return info.st_size == 0 ? .empty : .regular
        case S_IFCHR: return .special("a character device")
        case S_IFBLK: return .special("a block device")
        case S_IFIFO: return .special("a FIFO (named pipe)")
        case S_IFSOCK: return .special("a socket")
        default: return .special("not a regular file")
        }
    }

    /// Whether this process may write the file at `path` (`access(W_OK)`, which also says no
    /// for a file marked immutable with `chattr +i`, even to root).
    static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }

    /// Whether SQLite's write-ahead log of the database at `path` exists.
    static func hasWriteAheadLog(_ path: String) -> Bool {
        access(path + "-wal", F_OK) == 0
    }
}
