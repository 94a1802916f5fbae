// Built only with the HTTP trait (`swift build --traits HTTP`): without it this module only re-exports HandyStream,
// and nothing of SwiftNIO or AsyncHTTPClient is built.

// `import HandyStreamHTTP` is enough: ModelDecoder and the rest come with it.
@_exported import HandyStream

#if HTTP
import AsyncHTTPClient
import Foundation
import HandyStream
import NIOCore

// Decoding AsyncHTTPClient responses as their bodies arrive: a separate product, so that the core pulls in no
// networking.

extension ModelDecoder {
    /// Decodes the value at `path` from a response body as it arrives, and stops reading the body once that value
    /// is complete.
    ///
    ///     let response = try await client.execute(request, timeout: .seconds(30))
    ///     let cat = try await ModelDecoder().decode(Cat.self, from: response.body, at: "data.cat")
    public func decode<T>(_ type: T.Type, from body: HTTPClientResponse.Body, at path: String = "") async throws -> T {
        let decoder = try incremental(type, at: path)
        for try await buffer in body {
            let complete = try buffer.withUnsafeReadableBytes { try decoder.feed($0) }
            if complete { break }
        }
        return try decoder.finish()
    }

    /// The elements at `path` of a response body, each yielded as soon as it is complete; the body is read no faster
    /// than the elements are taken.
    ///
    ///     for try await item in ModelDecoder().elements(of: Item.self, at: "data.items", from: response.body) { … }
    public func elements<T>(of type: T.Type, at path: String = "", from body: HTTPClientResponse.Body)
        -> AsyncElementSequence<T, ResponseChunks>
    {
        elements(of: type, at: path, from: ResponseChunks(body: body))
    }
}

/// A response body as byte chunks, each handed to the decoder where SwiftNIO received it (no copy per buffer).
public struct ResponseChunks: AsyncSequence {
    public typealias Element = ResponseChunk
    let body: HTTPClientResponse.Body

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator

        public mutating func next() async throws -> ResponseChunk? {
            guard let buffer = try await base.next() else { return nil }
            return ResponseChunk(buffer: buffer)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: body.makeAsyncIterator()) }
}

/// One buffer of a response body, read in place.
public struct ResponseChunk: ContiguousBytes {
    /// The buffer as SwiftNIO received it; its readable bytes are the chunk.
    public let buffer: ByteBuffer

    /// Calls `body` with the buffer's readable bytes, in place.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withUnsafeReadableBytes(body)
    }
}
#endif
