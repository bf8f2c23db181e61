import CatalogueCommands

/// `catalogue`: every command, with `serve` handed to `catalogue-server` (``ServeHandoff``), so
/// that this program links no HTTP server and starts without relocating one.
@main
enum CatalogueMain {
    static func main() async {
        #if Server
        await CatalogueCommand.main(serve: ServeHandoff.self)
        #else
        await CatalogueCommand.main(serve: nil)
        #endif
    }
}
