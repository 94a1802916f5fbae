// The NIO-facing piece that the HTTP, Vapor and Hummingbird integrations share: a `ByteBuffer`, or any
// `AsyncSequence` of them (a Vapor or Hummingbird request body, an AsyncHTTPClient response body), decoded in place
// as it arrives. Built only with one of those traits; without, this module only re-exports HandyStream.

@_exported import HandyStream

#if HTTP || Vapor || Hummingbird
import Foundation
import NIOCore

extension ModelDecoder {
    /// This decoder, with 8 MiB (`DecodingOptions.serverMaximumTokenLength`) as its token limit unless its options set one,
    /// so that a client can't make a server hold or scan one endless string; `Int.max` in the options lifts the limit.
    package var forNetworkInput: ModelDecoder {
        guard options.maximumTokenLength == nil else { return self }
        var options = self.options
        options.maximumTokenLength = DecodingOptions.serverMaximumTokenLength
        return ModelDecoder(options: options)
    }

    /// Decodes the value at `path` from the buffer's readable bytes, read in place. Unless the options set a token
    /// limit, a string, key or number longer than 8 MiB is refused.
    ///
    ///     let item = try ModelDecoder().decode(Item.self, from: buffer)
    public func decode<T>(_ type: T.Type, from buffer: ByteBuffer, at path: String = "") throws -> T {
        let decoder = forNetworkInput
        return try buffer.withUnsafeReadableBytes { try decoder.decode(type, from: $0, at: path) }
    }

    /// Decodes the value at `path` from a body of `ByteBuffer`s as they arrive (each read in place, none kept), and
    /// stops reading once that value is complete.
    ///
    ///     let order = try await ModelDecoder().decode(Order.self, from: request.body, at: "data.order")
    public func decode<T, Body: AsyncSequence>(_ type: T.Type, from body: Body, at path: String = "") async throws -> T
    where Body.Element == ByteBuffer {
        let decoder = try forNetworkInput.incremental(type, at: path)
        for try await buffer in body {
            let complete = try buffer.withUnsafeReadableBytes { try decoder.feed($0) }
            if complete { break }
        }
        return try decoder.finish()
    }

    /// The elements at `path` of a body of `ByteBuffer`s, each yielded once complete; the body is read no faster than
    /// they are taken, in flat memory. The token limit is as for a `ByteBuffer`.
    ///
    ///     for try await item in ModelDecoder().elements(of: Item.self, at: "items", from: request.body) { … }
    public func elements<T, Body: AsyncSequence & Sendable>(of type: T.Type, at path: String = "", from body: Body)
        -> AsyncElementSequence<T> where Body.Element == ByteBuffer
    {
        forNetworkInput.elements(of: type, at: path, from: ByteBufferChunks(base: body))
    }
}

extension IncrementalDecoder {
    /// Feeds a buffer's readable bytes, read in place; `true` once the designated value is complete.
    @discardableResult
    public func feed(_ buffer: ByteBuffer) throws -> Bool {
        try buffer.withUnsafeReadableBytes { try feed($0) }
    }
}

extension ElementDecoder {
    /// Feeds a buffer's readable bytes, read in place; returns the elements it completed.
    public func feed(_ buffer: ByteBuffer) throws -> [T] {
        try buffer.withUnsafeReadableBytes { try feed($0) }
    }
}

/// A body of `ByteBuffer`s as byte chunks, each handed to the decoder where SwiftNIO received it (no copy).
package struct ByteBufferChunks<Base: AsyncSequence>: AsyncSequence where Base.Element == ByteBuffer {
    package typealias Element = ByteBufferChunk
    let base: Base

    package init(base: Base) {
        self.base = base
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator

        package mutating func next() async throws -> ByteBufferChunk? {
            guard let buffer = try await base.next() else { return nil }
            return ByteBufferChunk(buffer: buffer)
        }
    }

    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
}

extension ByteBufferChunks: Sendable where Base: Sendable {}

/// One `ByteBuffer` of a body, read in place.
package struct ByteBufferChunk: ContiguousBytes, Sendable {
    let buffer: ByteBuffer

    /// Calls `body` with the buffer's readable bytes, in place.
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withUnsafeReadableBytes(body)
    }
}
#endif
