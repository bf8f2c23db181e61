import ArgumentParser
import Foundation
import CatalogueKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `catalogue`: the command-line face of CatalogueKit, run by two programs that differ only in
/// what `serve` does (``ServeCommand``): `catalogue` hands it to `catalogue-server`, which links
/// the HTTP server and runs it.
///
/// Async at the root so that `serve` runs its server in Swift concurrency; every other command
/// is a synchronous `ParsableCommand` and runs as it always has.
///
/// ```swift
/// @main enum Main {
///     static func main() async { await CatalogueCommand.main(server: nil) }   // catalogue's
/// }
/// ```
package struct CatalogueCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Search a catalogue of countries and products, as you type.",
        discussion: """
            The database is created and seeded on first use: --db PATH (before or \
            after the subcommand), else $CATALOGUE_DB, else \
            $XDG_DATA_HOME/catalogue/catalogue.sqlite (~/.local/share/catalogue/catalogue.sqlite).

            Examples:
              catalogue search bog --scope capital
              catalogue search united ki --match words
              catalogue --db ./catalogue.sqlite search ipad --entity products --scope device --format json
            """ + serveExample,
        version: CatalogueVersion.current,
        subcommands: subcommands
    )

    package init() {}

    /// The help's last example, `serve`'s, in a build with the Server trait (the default).
    private static var serveExample: String {
        #if Server
        "\n  catalogue serve --port 8080"
        #else
        ""
        #endif
    }

    /// Every subcommand; `serve` only in a build with the Server trait (the default).
    private static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [
            SearchCommand.self, BrowseCommand.self, IndexCommand.self, ImportCommand.self, ExportCommand.self, ShowCommand.self,
            InteractiveCommand.self, ReindexCommand.self,
        ]
        #if Server
        commands.append(ServeCommand.self)
        #endif
        return commands
    }

    /// The subcommands' names, as typed: `search`, `browse`, ….
    static var subcommandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// `command` if it is `serve`, the one async command (in a build with the Server trait).
    /// A cast to its type compares metadata; a cast to `any AsyncParsableCommand` would have the
    /// runtime scan every conformance record of the binary to learn that `search` has none
    /// (about 1 % of a cold search).
    private static func asyncCommand(_ command: any ParsableCommand) -> (any AsyncParsableCommand)? {
        #if Server
        command as? ServeCommand
        #else
        nil
        #endif
    }

    /// `--db` before the subcommand (`catalogue --db x.sqlite search bog`): parsed here and
    /// handed to the subcommand's own `--db`, which takes the same name.
    @OptionGroup var global: GlobalOptions

    /// Runs the command line, reporting errors as `catalogue: error: …` on stderr with exit code
    /// 1 for failures and 2 for usage errors. `server` is what `serve` runs in this program
    /// (`catalogue-server`'s HTTP server); nil hands `serve` to `catalogue-server`.
    ///
    /// On the main actor, as a `@main` type's own `main` is: the commands run on the main
    /// thread, which is the thread `catalogue import` takes its signals on
    /// (``InterruptSignals/install(clearsLine:message:)`` unblocks them for the calling thread only).
    @MainActor
    package static func main(server: ServeServer?) async {
        #if Server
        ServeCommand.server.withLock { $0 = server }
        #endif
        // Before any connection opens: SQLite then takes no lock to count each allocation.
        SQLiteLibrary.disableMemoryStatistics()
        do {
            if let search = SearchCommandLine.invocation(CommandLine.arguments.dropFirst()) {
                // A plain `catalogue search`, read without swift-argument-parser's start-up cost.
                try search.run()
            } else {
                var command = try parseAsRoot()
                if var asyncCommand = asyncCommand(command) {
                    try await asyncCommand.run()
                } else {
                    assert(!(command is any AsyncParsableCommand), "an async command other than serve: return it from asyncCommand(_:)")
                    try command.run()
                }
            }
            try DatabaseInUse.verifyReads()
            DatabaseInUse.close()
            try standardOutput.finish()
        } catch {
            DatabaseInUse.close()
            // What the command printed before it failed goes out first, unless it may be wrong
            // or the output itself failed.
            switch error {
            case is StandardOutputError, is ExportOutputError, CatalogueError.changedWhileReading:
                break
            default:
                try? standardOutput.finish()
            }
            Platform.exit(report(error))
        }
    }

    /// Prints what `error` means for the user and returns the exit code.
    static func report(_ error: any Error) -> Int32 {
        // An export's own writer failing is standard output failing.
        let error: any Error = (error as? ExportOutputError).map { StandardOutputError(code: $0.code) } ?? error
        let code = exitCode(for: error)
        if code == .success {
            // --help, --version
            print(fullMessage(for: error))
            return 0
        }
        if code == .validationFailure || error is SearchScopeError {
            let message = error is SearchScopeError
                ? describe(error) : UsageHint.message(for: CommandLine.arguments) ?? self.message(for: error)
            standardError("catalogue: error: \(message)")
            standardError("Run '\(helpCommand(for: CommandLine.arguments))' for usage.")
            return 2
        }
        if let cleanExit = error as? ExitCode {
            return cleanExit.rawValue
        }
        if let interrupted = error as? InterruptedAfterCommit {
            standardError("catalogue: \(interrupted)")
            return 128 + interrupted.signal
        }
        if let output = error as? StandardOutputError, output.isBrokenPipe {
            return 128 + SIGPIPE  // the reader went away: quiet, as a SIGPIPE death is
        }
        standardError("catalogue: error: \(describe(error))")
        return 1
    }

    /// "catalogue search --help" for a command line naming the subcommand search, else
    /// "catalogue --help".
    static func helpCommand(for arguments: [String]) -> String {
        let names = subcommandNames
        guard let subcommand = CommandLineWords.subcommand(in: arguments), names.contains(subcommand) else {
            return "catalogue --help"
        }
        return "catalogue \(subcommand) --help"
    }

    /// One line for an error from the library: a database error names the file and never
    /// shows SQL; control characters are escaped.
    static func describe(_ error: any Error) -> String {
        var text = (error as? DatabaseError).map(DatabaseInUse.describe) ?? String(describing: error)
        if case CatalogueError.needsMigration(let path, let migration) = error {
            // The library says "open it for writing"; here, the command that does.
            text = "cannot read \(path): it was made by an older version of catalogue and needs migration \(migration), "
                + "which reading does not apply; run catalogue reindex on it once to upgrade it (an import does too)"
        }
        return TerminalText.escaped(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}

/// Writes a line to stderr, with control characters escaped (it may quote file names and
/// values from a file).
package func standardError(_ line: String) {
    FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
}
