// HandyStream as Hummingbird's JSON coder: a `RequestContext` whose `requestDecoder` is `ModelDecoder()` decodes
// request bodies as they arrive, and whose `responseEncoder` is `ModelEncoder()` writes the responses.
//     for try await item in ModelDecoder().elements(of: Item.self, at: "items", from: request.body) { … }
// Bad input is a `DecodingError`, which `request.decode(as:context:)` answers with 400 and the error's description
// (line, column, JSON path). Hummingbird answers other errors with 500, so a body decoded here throws bad input as
// that same 400 `HTTPError`. Built only with the Hummingbird trait; without it this module only re-exports HandyStream.

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

extension ModelDecoder {
    /// The elements at `path` of a request body, each yielded once complete, in flat memory (see the generic
    /// ``elements(of:at:from:)``). A malformed or cut body ends the sequence with the 400 `HTTPError` that
    /// `request.decode(as:context:)` gives, not a 500.
    ///
    ///     for try await item in ModelDecoder().elements(of: Item.self, at: "items", from: request.body) { … }
    public func elements<T>(of type: T.Type, at path: String = "", from body: RequestBody) -> AsyncElementSequence<T> {
        forNetworkInput.elements(of: type, at: path, from: ByteBufferChunks(base: body)).mappingErrors(badRequest)
    }

    /// Decodes the value at `path` from a request body as it arrives (see the generic ``decode(_:from:at:)``); bad
    /// input is a 400 `HTTPError`, as with `request.decode(as:context:)`.
    public func decode<T>(_ type: T.Type, from body: RequestBody, at path: String = "") async throws -> T {
        do {
            return try await decodeBody(type, from: body, at: path)
        } catch {
            throw badRequest(error)
        }
    }

    /// The generic body decoding (a `RequestBody` here would call the overload above again).
    private func decodeBody<T, Body: AsyncSequence>(_ type: T.Type, from body: Body, at path: String) async throws -> T
    where Body.Element == ByteBuffer {
        try await decode(type, from: body, at: path)
    }
}

/// What Hummingbird answers for an error met decoding a request body: bad input (a `DecodingError`, or HandyStream's
/// own error for a model that is not `Decodable`) is a 400 `HTTPError` worded as by `request.decode(as:context:)`;
/// any other error (the body's own, a 413, cancellation, a model's declaration) is passed on as it is.
func badRequest(_ error: any Error) -> any Error {
    if let error = error as? JSONDecodingError {
        return HTTPError(.badRequest, message: "The given data was not valid input: \(error)")
    }
    guard let decodingError = error as? DecodingError else { return error }
    func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { key in key.intValue.map { String($0) } ?? key.stringValue }.joined(separator: ".")
    }
    // Hummingbird's own words (Request.decode(as:context:)), so that both routes answer alike.
    switch decodingError {
    case .dataCorrupted(let context):
        return HTTPError(.badRequest, message: "The given data was not valid input: \(context.debugDescription)")
    case .keyNotFound(let key, _):
        return HTTPError(.badRequest, message: "Coding key `\(path([key]))` not found.")
    case .valueNotFound(_, let context):
        return HTTPError(.badRequest, message: "Value not found for `\(path(context.codingPath))` key.")
    case .typeMismatch(let type, let context):
        return HTTPError(
            .badRequest, message: "Type mismatch for `\(path(context.codingPath))` key, expected `\(type)` type.")
    @unknown default:
        return error
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
