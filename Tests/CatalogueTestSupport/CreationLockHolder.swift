import CatalogueKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds the exclusive `flock` on the temporary file in which the catalogue at a path is built
/// (`.NAME.creating`), as another process's creation or first import does, until ``release()``.
/// Call it after the wait the test checks: Swift may end an object's life after its last use,
/// and the lock with it.
///
/// ```swift
/// let holder = try CreationLockHolder(catalogueAt: path)
/// // … an open of `path` now waits …
/// holder.release()
/// ```
public final class CreationLockHolder {
    /// The temporary file whose lock is held.
    public let temporaryPath: String
    private var descriptor: Int32

    public init(catalogueAt path: String) throws {
        temporaryPath = Catalogue.firstImportTemporaryPath(for: path)
        descriptor = open(temporaryPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
    }

    /// Lets go of the lock, as a creation that ends does.
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit {
        release()
    }
}
