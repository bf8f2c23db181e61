#if Server
import Hummingbird

/// The files of the search page, embedded in the binary by `EmbedResourcesPlugin` from
/// `Sources/CatalogueServer/Page`: `index.html` is the page, every other file an asset, found by
/// its exact name only.
///
/// ```swift
/// let assets = PageAssets.embedded
/// assets.asset(named: "app.js")?.contentType   // "text/javascript; charset=utf-8"
/// assets.asset(named: "../app.js")             // nil
/// ```
struct PageAssets: Sendable {
    /// One embedded file.
    struct Asset: Sendable {
        let name: String
        let contentType: String
        let body: ByteBuffer

        /// The file as a response: its type, no caching without revalidation, no sniffing.
        func response(headers extra: HTTPFields) -> Response {
            var headers: HTTPFields = [
                .contentType: contentType,
                .contentLength: String(body.readableBytes),
                .cacheControl: "no-cache",
            ]
            headers.append(contentsOf: extra)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        }
    }

    /// `index.html`.
    let page: Asset?
    private let assets: [String: Asset]

    /// The assets' names, sorted.
    var assetNames: [String] {
        assets.keys.sorted()
    }

    init(files: [(path: String, contents: String)]) {
        var page: Asset?
        var assets: [String: Asset] = [:]
        for file in files {
            let name = String(file.path.split(separator: "/").last ?? "")
            let asset = Asset(name: name, contentType: Self.contentType(of: name), body: ByteBuffer(string: file.contents))
            if name == "index.html" { page = asset } else { assets[name] = asset }
        }
        self.page = page
        self.assets = assets
    }

    /// The set compiled into this binary.
    static let embedded = PageAssets(files: EmbeddedResources.files)

    /// The asset called exactly `name`, if any.
    func asset(named name: String) -> Asset? {
        assets[name]
    }

    /// The page loads only from this server: its own scripts (ES modules), styles, and API.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// The media type of a file, by its extension; JavaScript as `text/javascript` (ES modules).
    static func contentType(of name: String) -> String {
        let fileExtension = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch fileExtension {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
#endif
