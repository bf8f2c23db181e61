import CatalogueCommands

/// `catalogue`: every command, with `serve` handed to `catalogue-server` (``ServeHandoff``), so
/// that this program links no HTTP server and starts without relocating one.
@main
enum CatalogueMain {
    static func main() async {
        await CatalogueCommand.main(server: nil)
    }
}
