import CatalogueCommands

/// `catalogue-server`: `catalogue` with the HTTP server linked in, which `catalogue serve`
/// runs (``ServeCommand``). It takes the same command lines as `catalogue`.
@main
enum CatalogueServerMain {
    static func main() async {
        #if Server
        await CatalogueCommand.main(server: CatalogueHTTPServer.run)
        #else
        await CatalogueCommand.main(server: nil)
        #endif
    }
}
