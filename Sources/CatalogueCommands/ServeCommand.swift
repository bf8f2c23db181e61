#if Server
import ArgumentParser

/// `catalogue serve`, in both programs: the program's own server when it has one
/// (`catalogue-server`), else the hand-over to `catalogue-server` (``ServeHandoff``), after the
/// options (``ServeOptions``) are checked in either.
package struct ServeCommand: AsyncParsableCommand {
    package static let configuration = ServeOptions.configuration

    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: ServeOptions

    package init() {}

    /// This program's server, set by its `main` (``CatalogueCommand/main(server:)``); nil in
    /// `catalogue`, which links none.
    static let server = CommandState<ServeServer?>(nil)

    package func run() async throws {
        if let server = Self.server.withLock({ $0 }) {
            try await server(global, options)
        } else {
            try ServeHandoff.run()
        }
    }
}
#endif
