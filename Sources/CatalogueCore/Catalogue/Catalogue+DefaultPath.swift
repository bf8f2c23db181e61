import Foundation

extension Catalogue {
    /// The default database path: `$CATALOGUE_DB` when set, else
    /// `$XDG_DATA_HOME/catalogue/catalogue.sqlite`, else
    /// `~/.local/share/catalogue/catalogue.sqlite`.
    ///
    /// ```swift
    /// let catalogue = try Catalogue(path: Catalogue.defaultPath())
    /// ```
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["CATALOGUE_DB"], !path.isEmpty {
            return path
        }
        return dataDirectory(environment: environment).appendingPathComponent("catalogue.sqlite").path
    }

    /// `$XDG_DATA_HOME/catalogue` or `~/.local/share/catalogue`.
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        xdgDirectory("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
    }

    /// `$XDG_STATE_HOME/catalogue` or `~/.local/state/catalogue`.
    public static func stateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        xdgDirectory("XDG_STATE_HOME", fallback: ".local/state", environment: environment)
    }

    private static func xdgDirectory(_ variable: String, fallback: String, environment: [String: String]) -> URL {
        // The XDG spec ignores relative paths in these variables.
        if let base = environment[variable], base.hasPrefix("/") {
            return URL(fileURLWithPath: base).appendingPathComponent("catalogue")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(fallback).appendingPathComponent("catalogue")
    }
}
