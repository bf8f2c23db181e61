#if Server
import Foundation
import Hummingbird
import Testing
@testable import CatalogueServer

/// The page and its assets: exactly the embedded files, with their types; nothing else.
@Suite("Page and assets")
struct PageControllerTests {
    /// Sources/CatalogueServer/Page, next to this test file's folder.
    static let pageFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/CatalogueServer/Page")

    @Test("GET / is index.html, HTML, with a policy that loads only from this server; its query is ignored")
    func page() async throws {
        let fixture = try ServerFixture()
        let expected = try String(contentsOf: Self.pageFolder.appendingPathComponent("index.html"), encoding: .utf8)
        try await fixture.test { client in
            for uri in ["/", "/?entity=countries&q=bog&scope=capital&match=prefix&selected=CO", "/?q=%ZZ"] {
                let answer = try await client.get(uri)
                #expect(answer.status == .ok, "\(uri)")
                #expect(answer.headers[.contentType] == "text/html; charset=utf-8")
                #expect(answer.text == expected)
                #expect(answer.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
                #expect(answer.headers[.xContentTypeOptions] == "nosniff")
            }
        }
    }

    @Test("Every other file of the page folder is served under /assets with its type, byte for byte")
    func assets() async throws {
        let fixture = try ServerFixture()
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.pageFolder.path).filter { $0 != "index.html" && !$0.hasPrefix(".") }
        #expect(names.contains("app.js") && names.contains("app.css") && names.contains("api.js"))
        #expect(PageAssets.embedded.assetNames == names.sorted())
        try await fixture.test { client in
            for name in names {
                let answer = try await client.get("/assets/\(name)")
                #expect(answer.status == .ok, "\(name)")
                let type = name.hasSuffix(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8"
                #expect(answer.headers[.contentType] == type, "\(name)")
                #expect(answer.text == (try String(contentsOf: Self.pageFolder.appendingPathComponent(name), encoding: .utf8)), "\(name)")
            }
        }
    }

    @Test("Names outside the embedded set are 404s: traversal, encodings, index.html, other cases")
    func traversal() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            for uri in ["/assets/..%2Fapp.js", "/assets/..%2F..%2FPackage.swift", "/assets/%2e%2e%2fPackage.swift", "/assets/../Package.swift",
                        "/assets/app.js%00", "/assets/APP.JS", "/assets/app.js/", "/assets/", "/assets", "/assets/index.html",
                        "/assets/%2Fetc%2Fpasswd", "/../Package.swift", "/assets/app.js?x=1/../../x", "/Sources/CatalogueServer/Page/app.js",
                        "/assets/nope.js"] {
                let answer = try await client.get(uri)
                if uri == "/assets/app.js?x=1/../../x" {
                    #expect(answer.status == .ok)
                    continue
                }
                #expect(answer.status == .notFound, "\(uri)")
                #expect(answer.headers[.contentType] == "application/json; charset=utf-8", "\(uri)")
            }
        }
    }

    @Test("Content types by extension")
    func contentTypes() {
        #expect(PageAssets.contentType(of: "a.js") == "text/javascript; charset=utf-8")
        #expect(PageAssets.contentType(of: "a.css") == "text/css; charset=utf-8")
        #expect(PageAssets.contentType(of: "a.html") == "text/html; charset=utf-8")
        #expect(PageAssets.contentType(of: "a.svg") == "image/svg+xml")
        #expect(PageAssets.contentType(of: "a") == "application/octet-stream")
    }
}
#endif
