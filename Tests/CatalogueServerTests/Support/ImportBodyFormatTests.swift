#if Server
import CatalogueCore
import Testing
@testable import CatalogueServer

/// Which format an import body is read in.
@Suite("Import body format")
struct ImportBodyFormatTests {
    @Test("Media types name formats in any case, with parameters and spaces around them", arguments: [
        ("text/csv", RecordFileFormat.csv), ("Text/CSV; charset=utf-8", .csv), ("application/csv", .csv),
        ("application/json", .json), (" application/json ;charset=UTF-8", .json), ("text/json", .json),
        ("application/x-ndjson", .ndjson), ("application/ndjson", .ndjson), ("application/jsonl", .ndjson),
        ("application/x-jsonlines", .ndjson), ("application/jsonlines", .ndjson),
    ])
    func named(_ contentType: String, _ format: RecordFileFormat) {
        #expect(ImportBodyFormat.named(byMediaType: contentType) == format)
    }

    @Test("Media types that name no format leave it to the body", arguments: [
        "application/x-www-form-urlencoded", "text/plain", "application/octet-stream", "", ";", "json", "application/json5",
        "multipart/form-data; boundary=x",
    ])
    func unnamed(_ contentType: String) {
        #expect(ImportBodyFormat.named(byMediaType: contentType) == nil)
    }

    @Test("The parameter wins, then the media type, then the body's first character")
    func precedence() throws {
        func body(_ text: String) -> ImportInput { ImportInput(text: text, name: "body") }
        #expect(try ImportBodyFormat.resolve(parameter: .csv, contentType: "application/json", body: body("[]")) == .csv)
        #expect(try ImportBodyFormat.resolve(parameter: nil, contentType: "application/json", body: body("a,b")) == .json)
        #expect(try ImportBodyFormat.resolve(parameter: nil, contentType: "text/plain", body: body(" \n[{}]")) == .json)
        #expect(try ImportBodyFormat.resolve(parameter: nil, contentType: nil, body: body("{}\n")) == .ndjson)
        #expect(try ImportBodyFormat.resolve(parameter: nil, contentType: nil, body: body("name,type\n")) == .csv)
        #expect(try ImportBodyFormat.resolve(parameter: nil, contentType: nil, body: body("")) == .csv)
    }
}
#endif
