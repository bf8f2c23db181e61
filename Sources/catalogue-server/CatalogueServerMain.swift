import CatalogueCommands

/// `catalogue-server`: `catalogue` with the HTTP server linked in, which `catalogue serve`
/// runs (``ServeHandoff``). It takes the same command lines as `catalogue`.
@main
enum CatalogueServerMain {
    static func main() async {
        #if Server
        await CatalogueCommand.main(serve: ServeCommand.self)
        #else
        await CatalogueCommand.main(serve: nil)
        #endif
    }
}
