import Foundation

/// Elements decoded from an asynchronous sequence of chunks; see ``ModelDecoder/elements(of:at:from:)``.
public struct AsyncElementSequence<T, Chunks: AsyncSequence>: AsyncSequence where Chunks.Element: ContiguousBytes {
    public typealias Element = T

    let decoder: ModelDecoder
    let path: String
    let chunks: Chunks

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), start: { try decoder.elements(of: T.self, at: path) })
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: Chunks.AsyncIterator
        let start: () throws -> ElementDecoder<T>
        var decoder: ElementDecoder<T>?
        var buffered: [T] = []
        var index = 0
        var ended = false
        /// The error that ended the input, thrown once the elements completed before it are handed over.
        var failure: (any Error)?

        init(chunks: Chunks.AsyncIterator, start: @escaping () throws -> ElementDecoder<T>) {
            self.chunks = chunks
            self.start = start
        }

        public mutating func next() async throws -> T? {
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
                if let chunk = try await chunks.next() {
                    buffered = try decoder!.feed(chunk)
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

/// The sequence can be handed to another task when its elements and its chunks can.
extension AsyncElementSequence: Sendable where T: Sendable, Chunks: Sendable {}
