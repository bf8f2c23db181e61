#if Server
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Gives the 400 that answers a request SwiftNIO's HTTP parser refused (a request line and
/// headers over 80 KiB, bytes that are not HTTP) a body saying why, `{"error": "…"}` as every
/// other error of the API, instead of Hummingbird's empty one.
///
/// Hummingbird answers such a request itself, before any route or middleware, with an empty
/// 400 and `Connection: close`; this handler sees the parser's error pass inbound, lets it go
/// on, and puts the reason into that answer as it goes out.
///
/// ```swift
/// HTTP1Channel.Configuration(additionalChannelHandlers: [MalformedRequestHandler()])
/// // GET /api/countries?q=<100 KB> → 400 {"error":"the request line and headers are larger than 80 KiB; …"}
/// ```
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Why the parser refused the request, until the answer's head goes out.
    private var refusal: HTTPParserError?

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError { refusal = error }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Hummingbird's answer to the refusal: 400, no body, and the connection closed.
        guard let refusal, case .head(var head) = unwrapOutboundIn(data), head.status == .badRequest,
              head.headerFields[.contentLength] == "0", head.headerFields[.connection] == "close" else {
            context.write(data, promise: promise)
            return
        }
        self.refusal = nil
        let body = ByteBuffer(string: (try? JSONBody.encode(ErrorBody(error: Self.reason(refusal)))) ?? #"{"error":"bad request"}"#)
        head.headerFields[.contentType] = JSONBody.contentType
        head.headerFields[.contentLength] = String(body.readableBytes)
        head.headerFields[.xContentTypeOptions] = "nosniff"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: promise)
    }

    /// One line for the client: what the parser refused.
    static func reason(_ error: HTTPParserError) -> String {
        switch error {
        case .headerOverflow:
            "the request line and headers are larger than 80 KiB (a search's text is at most 256 characters)"
        case .invalidURL:
            "the request's URL is malformed"
        default:
            "the request is not valid HTTP/1.1 (\(error))"
        }
    }
}
#endif
