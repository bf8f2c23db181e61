import ArgumentParser
import Foundation
import CatalogueKit

#if canImport(Glibc)
import Glibc
#endif

/// `catalogue`: the command-line face of CatalogueKit.
///
/// Async at the root so that `serve` runs its server in Swift concurrency; every other command
/// is a synchronous `ParsableCommand` and runs as it always has.
@main
struct CatalogueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Search a catalogue of countries and products, as you type.",
        discussion: """
            The database is created, migrated and seeded on first use: --db PATH, else \
            $CATALOGUE_DB, else $XDG_DATA_HOME/catalogue/catalogue.sqlite \
            (~/.local/share/catalogue/catalogue.sqlite).

            Examples:
              catalogue search bog --scope capital
              catalogue search "united ki" --match words
              catalogue search ipad --entity products --scope device --format json
              catalogue serve --port 8080
            """,
        version: CatalogueVersion.current,
        subcommands: [
            SearchCommand.self, BrowseCommand.self, IndexCommand.self, ImportCommand.self, ExportCommand.self, ShowCommand.self,
            InteractiveCommand.self, ServeCommand.self,
        ]
    )

    /// Runs the command line, reporting errors as `catalogue: error: …` on stderr with exit code
    /// 1 for failures and 2 for usage errors.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            Glibc.exit(report(error))
        }
    }

    /// Prints what `error` means for the user and returns the exit code.
    static func report(_ error: any Error) -> Int32 {
        let code = exitCode(for: error)
        if code == .success {
            // --help, --version
            print(fullMessage(for: error))
            return 0
        }
        if code == .validationFailure {
            let message = self.message(for: error)
            standardError("catalogue: error: \(message)")
            standardError("Run 'catalogue --help' for usage.")
            return 2
        }
        if let cleanExit = error as? ExitCode {
            return cleanExit.rawValue
        }
        standardError("catalogue: error: \(describe(error))")
        return 1
    }

    /// One line for an error from the library.
    static func describe(_ error: any Error) -> String {
        String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Writes a line to stderr.
func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
