#if Server
import CatalogueCore
import Hummingbird
import Logging

/// `POST /api/{entity}/import?format=csv|json|ndjson&onError=abort|skip`: the body imported as
/// `catalogue import` imports a file (upserts by natural key, one transaction), named `body` in
/// error lines. Without `format`, the `Content-Type` header or else the body's first character
/// says what the body is (``ImportBodyFormat``).
///
/// Checks, in order: a read-only server (no token) → 403; no or a malformed
/// `Authorization: Bearer` header → 401; a wrong token → 403 (compared in constant time); a body
/// over the limit → 413; bad parameters or, under `abort`, a bad row → 400 with nothing written.
struct ImportController<R: ServedRecord>: Sendable {
    let catalogue: Catalogue
    let cache: ResultCache
    let token: ImportToken?
    let maximumBodySize: Int
    let runner: ImportRunner
    let logger: Logger

    var endpoints: RouteCollection<BasicRequestContext> {
        RouteCollection(context: BasicRequestContext.self)
            .post(use: importBody)
    }

    /// The body of an import answer.
    struct Outcome: Encodable {
        let added: Int
        let updated: Int
        let unchanged: Int
        let skipped: Int
        let issues: [String]
    }

    /// How many skipped rows the answer lists (`skipped` counts them all): a body of millions
    /// of bad rows must not become an answer of millions of lines, held in memory until the end.
    static var maximumReportedIssues: Int { 100 }
    /// The longest line reported for one skipped row, in characters.
    static var maximumIssueLength: Int { 1_000 }

    /// `issue` as one line, cut at ``maximumIssueLength`` characters with "…".
    static func reported(_ issue: ImportIssue) -> String {
        let line = String(describing: issue)
        return line.count > maximumIssueLength ? line.prefix(maximumIssueLength - 1) + "…" : line
    }

    static var readOnlyMessage: String {
        "this server is read-only (start it with --token-file to allow imports)"
    }

    @Sendable func importBody(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try authorize(request)
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximumBodySize {
            throw tooLarge
        }
        let query = QueryString(request.uri.query)
        let format: RecordFileFormat? = try query.choice("format")
        let onError = try query.choice("onError") ?? ImportErrorPolicy.abort
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maximumBodySize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw tooLarge
        }
        let bytes = Array(buffer: body)
        let contentType = request.headers[.contentType]
        let catalogue = self.catalogue
        let counts: ImportCounts
        let issues: [String]
        // Whatever happens, totals counted before may be stale now.
        defer { cache.invalidate() }
        do {
            (counts, issues) = try await runner.run { () throws -> (ImportCounts, [String]) in
                var issues: [String] = []
                let input = ImportInput(bytes: bytes, name: "body")
                let format = try ImportBodyFormat.resolve(parameter: format, contentType: contentType, body: input)
                let counts = try catalogue.importRecords(
                    R.self, from: input, options: ImportOptions(format: format, onError: onError),
                    skipped: { issue in
                        if issues.count < Self.maximumReportedIssues { issues.append(Self.reported(issue)) }
                    })
                return (counts, issues)
            }
        } catch let issue as ImportIssue {
            // A bad row under `abort`, a bad header, broken JSON: nothing was written.
            var message = String(describing: issue)
            if let meant = issue.entityOwningUnknownColumn(importing: R.entity.entity) {
                message += " (the body holds \(meant.rawValue): POST /api/\(meant.rawValue)/import)"
            }
            throw APIError.badRequest(message)
        }
        logger.info("import", metadata: [
            "entity": "\(R.entity.plural)", "added": "\(counts.added)", "updated": "\(counts.updated)",
            "unchanged": "\(counts.unchanged)", "skipped": "\(counts.skipped)",
        ])
        return JSONBody.response(Outcome(
            added: counts.added, updated: counts.updated, unchanged: counts.unchanged, skipped: counts.skipped, issues: issues))
    }

    private var tooLarge: APIError {
        APIError(.contentTooLarge, "the body is larger than the limit of \(maximumBodySize) bytes; nothing was imported")
    }

    /// 403 without a token, 401 without a well-formed bearer header, 403 for a wrong token.
    private func authorize(_ request: Request) throws(APIError) {
        guard let token else {
            throw APIError(.forbidden, Self.readOnlyMessage)
        }
        let challenge: HTTPFields = [.wwwAuthenticate: "Bearer"]
        guard let header = request.headers[.authorization] else {
            throw APIError(.unauthorized, "imports need an 'Authorization: Bearer TOKEN' header", headers: challenge)
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError(.unauthorized, "the Authorization header must be 'Bearer TOKEN'", headers: challenge)
        }
        let presented = parts[1].drop(while: { $0 == " " })
        guard !presented.isEmpty, !presented.contains(" ") else {
            throw APIError(.unauthorized, "the Authorization header must be 'Bearer TOKEN'", headers: challenge)
        }
        guard token.matches(presented) else {
            throw APIError(.forbidden, "the import token is wrong")
        }
    }
}
#endif
