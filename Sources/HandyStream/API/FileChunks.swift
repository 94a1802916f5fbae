import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Files read in async code, off the cooperative threads.

extension ModelDecoder {
    /// Decodes the value at `path` from a file, read in chunks on a thread of its own: the calling task waits without
    /// holding a thread of Swift's cooperative pool (what a server's request handlers run on).
    ///
    ///     let config = try await ModelDecoder().decode(Config.self, fileAt: "/etc/app/config.json")
    public func decode<T>(_ type: T.Type, fileAt file: String, at path: String = "", chunkSize: Int = 1 << 16)
        async throws -> T
    {
        let decoder = try incremental(type, at: path)
        for try await chunk in FileChunks(path: file, chunkSize: chunkSize) {
            if try decoder.feed(chunk) { break }
        }
        return try decoder.finish()
    }

    /// The elements at `path` of a file, each yielded as soon as it is complete; the file is read a chunk at a time,
    /// on a thread of its own, no faster than the elements are taken.
    ///
    ///     for try await item in ModelDecoder().elements(of: Item.self, at: "items", fileAt: "export.json") { … }
    public func elements<T>(of type: T.Type, at path: String = "", fileAt file: String, chunkSize: Int = 1 << 16)
        -> AsyncElementSequence<T>
    {
        elements(of: type, at: path, from: FileChunks(path: file, chunkSize: chunkSize))
    }
}

/// A file's bytes as an `AsyncSequence` of chunks, each read by a blocking `read` on a dispatch queue of its own, so
/// that no cooperative thread waits on the disk. A read error is `unreadable`.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let path: String
    let chunkSize: Int

    init(path: String, chunkSize: Int = 1 << 16) {
        self.path = path
        self.chunkSize = Swift.max(1, chunkSize)
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(file: OpenFile(path: path), chunkSize: chunkSize) }

    struct AsyncIterator: AsyncIteratorProtocol {
        let file: OpenFile
        let chunkSize: Int

        mutating func next() async throws -> [UInt8]? {
            let file = self.file
            let chunkSize = self.chunkSize
            return try await withCheckedThrowingContinuation { continuation in
                file.queue.async { continuation.resume(with: Result { try file.read(upTo: chunkSize) }) }
            }
        }
    }

    /// The descriptor, opened on the first read and closed at the end, at an error, or when the iterator goes.
    final class OpenFile: @unchecked Sendable {
        let path: String
        let queue = DispatchQueue(label: "HandyStream.FileChunks")
        private var descriptor: Int32 = -1
        private var ended = false

        init(path: String) { self.path = path }

        deinit { if descriptor >= 0 { close(descriptor) } }

        /// On `queue`: the next chunk, or `nil` at the end.
        func read(upTo count: Int) throws -> [UInt8]? {
            if ended { return nil }
            if descriptor < 0 {
                descriptor = open(path, O_RDONLY)
                guard descriptor >= 0 else {
                    ended = true
                    throw JSONDecodingError.unreadable(path, code: errno)
                }
            }
            var chunk = [UInt8](repeating: 0, count: count)
            let read: Int
            do {
                read = try chunk.withUnsafeMutableBytes {
                    try ChunkReader.readOnce(descriptor: descriptor, name: path, into: $0)
                }
            } catch {
                ended = true
                throw error
            }
            if read == 0 {
                ended = true
                close(descriptor)
                descriptor = -1
                return nil
            }
            chunk.removeLast(count - read)
            return chunk
        }
    }
}
