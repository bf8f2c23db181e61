import Foundation

/// Where the PostgreSQL server programs are: Debian's `/usr/lib/postgresql/VERSION/bin` (the
/// newest version that has them all), or the directory named by `CATALOGUE_POSTGRES_BIN`.
///
/// ```swift
/// switch PostgresBinaries.locate() {
/// case .available(let binaries): print(binaries.directory.path)  // /usr/lib/postgresql/15/bin
/// case .missing(let reason): print(reason)  // "... apt-get install postgresql postgresql-contrib"
/// }
/// ```
public struct PostgresBinaries: Sendable, Hashable {
    /// The directory holding `initdb`, `pg_ctl`, `postgres` and `psql`.
    public let directory: URL
    /// The major version, from the directory name (0 when the directory does not say).
    public let majorVersion: Int

    /// The programs a test server needs.
    public static let requiredPrograms = ["initdb", "pg_ctl", "postgres", "psql"]
    /// The extensions every test database gets (from postgresql-contrib).
    public static let requiredExtensions = ["pg_trgm", "unaccent"]
    /// What to run where they are missing.
    public static let installCommand = "apt-get install postgresql postgresql-contrib"
    /// The environment variable naming another directory of server programs.
    public static let directoryVariable = "CATALOGUE_POSTGRES_BIN"

    /// Binaries in `directory`, of PostgreSQL `majorVersion`.
    public init(directory: URL, majorVersion: Int) {
        self.directory = directory
        self.majorVersion = majorVersion
    }

    /// The path of `program` in ``directory``.
    public func path(of program: String) -> String {
        directory.appendingPathComponent(program).path
    }

    /// Whether the binaries can run a test server, and if not, why.
    public enum Availability: Sendable, Hashable {
        case available(PostgresBinaries)
        /// The reason, ending with the install command.
        case missing(String)
    }

    /// Finds the binaries: `CATALOGUE_POSTGRES_BIN` when set, else the newest version under
    /// `debianRoot`. The extensions must be installed too (checked in `pg_config --sharedir`,
    /// or Debian's `/usr/share/postgresql/VERSION`).
    public static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        debianRoot: String = "/usr/lib/postgresql"
    ) -> Availability {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let override = environment[directoryVariable], !override.isEmpty {
            candidates = [URL(fileURLWithPath: override)]
        } else {
            let versions = (try? fileManager.contentsOfDirectory(atPath: debianRoot)) ?? []
            candidates = versions
                .sorted { (Int($0) ?? 0, $0) > (Int($1) ?? 0, $1) }
                .map { URL(fileURLWithPath: debianRoot).appendingPathComponent($0).appendingPathComponent("bin") }
        }
        for directory in candidates {
            let missing = requiredPrograms.filter { !fileManager.isExecutableFile(atPath: directory.appendingPathComponent($0).path) }
            guard missing.isEmpty else { continue }
            let version = Int(directory.deletingLastPathComponent().lastPathComponent) ?? 0
            let binaries = PostgresBinaries(directory: directory, majorVersion: version)
            let absent = requiredExtensions.filter { !binaries.hasExtension($0) }
            guard absent.isEmpty else {
                return .missing("PostgreSQL in \(directory.path) lacks the extensions \(absent.joined(separator: ", ")): \(installCommand)")
            }
            return .available(binaries)
        }
        let looked = environment[directoryVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "\(debianRoot)/*/bin"
        return .missing("PostgreSQL server programs (\(requiredPrograms.joined(separator: ", "))) not found in \(looked): \(installCommand)")
    }

    /// Whether the control file of `name` is installed for this server.
    func hasExtension(_ name: String) -> Bool {
        let shareDirectories = [
            shareDirectoryFromPgConfig(),
            majorVersion > 0 ? "/usr/share/postgresql/\(majorVersion)" : nil,
            directory.deletingLastPathComponent().appendingPathComponent("share").path,
            directory.deletingLastPathComponent().appendingPathComponent("share/postgresql").path,
        ].compactMap { $0 }
        return shareDirectories.contains {
            FileManager.default.fileExists(atPath: "\($0)/extension/\(name).control")
        }
    }

    private func shareDirectoryFromPgConfig() -> String? {
        let pgConfig = path(of: "pg_config")
        guard FileManager.default.isExecutableFile(atPath: pgConfig),
              let result = try? Subprocess.run(pgConfig, ["--sharedir"]), result.status == 0
        else { return nil }
        let share = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return share.isEmpty ? nil : share
    }
}
