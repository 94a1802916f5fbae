import Foundation

/// Elements decoded from an asynchronous sequence of chunks (``ModelDecoder/elements(of:at:from:)``, a file, a request
/// or response body), each handed over once complete; `Sendable` when its elements are.
public struct AsyncElementSequence<T>: AsyncSequence {
    public typealias Element = T

    let decoder: ModelDecoder
    let path: String
    let chunks: @Sendable () -> any ChunkIterator
    /// Turns an error met decoding into the one the caller throws (a framework's 400, say); `nil` passes it on.
    private(set) var mapError: (@Sendable (any Error) -> any Error)?

    init<Chunks: AsyncSequence & Sendable>(decoder: ModelDecoder, path: String, chunks: Chunks)
    where Chunks.Element: ContiguousBytes {
        self.decoder = decoder
        self.path = path
        self.chunks = { ChunkIteratorBox(base: chunks.makeAsyncIterator()) }
    }

    /// The same elements, with errors turned into others by `transform`.
    package func mappingErrors(_ transform: @escaping @Sendable (any Error) -> any Error) -> Self {
        var copy = self
        copy.mapError = transform
        return copy
    }

    public func makeAsyncIterator() -> AsyncIterator {
        let (decoder, path) = (decoder, path)
        return AsyncIterator(chunks: chunks(), mapError: mapError) { try decoder.elements(of: T.self, at: path) }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: any ChunkIterator
        let mapError: ((any Error) -> any Error)?
        let start: () throws -> ElementDecoder<T>
        var decoder: ElementDecoder<T>?
        var buffered: [T] = []
        var index = 0
        var ended = false
        /// The error that ended the input, thrown once the elements completed before it are handed over.
        var failure: (any Error)?

        public mutating func next() async throws -> T? {
            do {
                return try await nextElement()
            } catch {
                throw mapError?(error) ?? error
            }
        }

        private mutating func nextElement() async throws -> T? {
            while index == buffered.count {
                if let failure {
                    self.failure = nil
                    throw failure
                }
                if ended { return nil }
                try Task.checkCancellation()
                if decoder == nil { decoder = try start() }
                buffered.removeAll(keepingCapacity: true)
                index = 0
                if let elements = try await chunks.feedNext(to: decoder!) {
                    buffered = elements
                } else {
                    (buffered, failure) = decoder!.finishDeliveringFirst()
                    ended = true
                }
            }
            defer { index += 1 }
            return buffered[index]
        }
    }
}

extension AsyncElementSequence: Sendable where T: Sendable {}

/// A chunk sequence's iterator, its type hidden: each chunk is fed where it lies (a `ByteBuffer` is not copied).
protocol ChunkIterator {
    /// Feeds the next chunk to `decoder` and returns the elements it completed; `nil` at the end of the chunks.
    mutating func feedNext<T>(to decoder: ElementDecoder<T>) async throws -> [T]?
}

private struct ChunkIteratorBox<Base: AsyncIteratorProtocol>: ChunkIterator where Base.Element: ContiguousBytes {
    var base: Base

    mutating func feedNext<T>(to decoder: ElementDecoder<T>) async throws -> [T]? {
        guard let chunk = try await base.next() else { return nil }
        return try decoder.feed(chunk)
    }
}
