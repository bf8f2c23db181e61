#if Server
import CatalogueCore
import Dispatch
import Hummingbird
import Logging

/// `GET /api/{entity}/export?format=csv|json|ndjson`: every record, as `catalogue export` writes
/// it (every column, id order, one consistent snapshot), streamed as a download
/// (`Content-Disposition: attachment; filename="products.csv"`). CSV by default.
///
/// Reads need no token, as searches do. An export holds a read transaction until its last byte
/// is sent, so one runs at a time (another gets a 503 with `Retry-After`), and a client that
/// reads nothing for 30 s, or less than 1 MiB in 30 s, is cut off.
struct ExportController<R: ServedRecord>: Sendable {
    let catalogue: Catalogue
    /// One export at a time: each holds a read transaction while it streams.
    let exports: SlotLimit
    /// The least a client must read (``ServerOptions/exportPace``).
    let pace: ExportStream.MinimumPace
    let logger: Logger

    var endpoints: RouteCollection<BasicRequestContext> {
        RouteCollection(context: BasicRequestContext.self)
            .get(use: export)
    }

    @Sendable func export(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let format: RecordFileFormat = try QueryString(request.uri.query).choice("format") ?? .csv
        guard let slot = exports.take() else {
            throw APIError(.serviceUnavailable, "another export is running; try again when it has finished", headers: [.retryAfter: "5"])
        }
        let catalogue = self.catalogue
        let logger = self.logger
        let stream = ExportStream(pace: pace)
        DispatchQueue.global().async {
            defer { withExtendedLifetime(slot) {} }
            let output = ExportOutput(sink: stream.send)
            do {
                let count = try catalogue.read { db in try RecordExporter<R>(format: format).export(from: db, to: output) }
                try output.flush()
                logger.info("export", metadata: ["entity": "\(R.entity.plural)", "format": "\(format.rawValue)", "records": "\(count)"])
                stream.finish()
            } catch {
                logger.notice("export stopped", metadata: ["entity": "\(R.entity.plural)", "reason": "\(error)"])
                stream.abort()
            }
        }
        let body = ResponseBody { writer in
            do {
                for await block in stream.blocks {
                    try await writer.write(ByteBuffer(bytes: block))
                    stream.delivered(byteCount: block.count)
                }
            } catch {
                stream.cancel()
                throw error
            }
            // Cut short: the connection is closed without the body's end, never a file that
            // looks whole and is not.
            if stream.wasAborted { throw ExportStream.Stop.cancelled }
            try await writer.finish(nil)
        }
        let filename = "\(R.entity.plural).\(format.rawValue)"
        return Response(status: .ok, headers: [
            .contentType: Self.contentType(format),
            .contentDisposition: "attachment; filename=\"\(filename)\"",
        ], body: body)
    }

    /// The media type of an export in `format`, with its charset.
    static func contentType(_ format: RecordFileFormat) -> String {
        switch format {
        case .csv: "text/csv; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        case .ndjson: "application/x-ndjson; charset=utf-8"
        }
    }
}
#endif
