#if Server
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// The server could not listen where it was told: the port is taken, the address is not one of
/// this machine's, or the port needs privileges. Made from the error the application's start
/// throws, which names SwiftNIO's system call ("bind(descriptor:ptr:bytes:): …").
///
/// ```swift
/// do {
///     try await application.runService()
/// } catch {
///     if let failure = ListenError(error, host: "127.0.0.1", port: 8080) { print(failure) }  // cannot listen on 127.0.0.1:8080: Address already in use
/// }
/// ```
public struct ListenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the server was to listen, `host:port`.
    public let address: String
    /// The system's error number (`EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`, …).
    public let errorNumber: Int32

    /// The listening failure `error` is, or nil when it is another kind of error.
    public init?(_ error: any Error, host: String, port: Int) {
        guard let failure = error as? IOError else { return nil }
        address = "\(host):\(port)"
        errorNumber = failure.errnoCode
    }

    public var description: String {
        "cannot listen on \(address): \(String(cString: strerror(errorNumber)))"
    }
}
#endif
