// HandyStream as Hummingbird's JSON coder:
//
//     import HandyStreamHummingbird
//     struct AppContext: RequestContext {
//         var requestDecoder: ModelDecoder { ModelDecoder() }   // request bodies decoded as they arrive
//         var responseEncoder: ModelEncoder { ModelEncoder() }
//         …
//     }
//
// and a request body streamed element by element, in flat memory:
//
//     for try await item in ModelDecoder().elements(of: Item.self, at: "items", from: request.body) { … }
//
// Errors: every error a `Decodable` type meets is a `DecodingError` (malformed JSON included), which Hummingbird
// answers with 400 and, for malformed JSON, the error's description (line, column and JSON path) as the message.
// Built only with the Hummingbird trait; without it this module only re-exports HandyStream.

@_exported import HandyStreamNIO

#if Hummingbird
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension ModelDecoder: RequestDecoder {
    /// Decodes the request body as it arrives, without collecting it first; a body longer than the context's
    /// `maxUploadSize` is refused with 413, as Hummingbird's own decoder refuses it.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws
        -> T
    {
        try await decode(type, from: LimitedBody(base: request.body, limit: context.maxUploadSize))
    }
}

extension ModelEncoder: ResponseEncoder {
    /// A 200 response with `value` as its JSON body.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response
    {
        let bytes = try encode(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentLength] = String(bytes.count)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// A request body that throws 413 once more than `limit` bytes arrived.
struct LimitedBody<Base: AsyncSequence>: AsyncSequence where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer
    let base: Base
    let limit: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        var received = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let buffer = try await base.next() else { return nil }
            received += buffer.readableBytes
            if received > limit { throw HTTPError(.contentTooLarge) }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), limit: limit) }
}
#endif
