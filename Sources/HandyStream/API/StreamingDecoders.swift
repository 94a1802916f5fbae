import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes one value from input that arrives in chunks.
///
///     let decoder = try ModelDecoder().incremental(Cat.self, at: "data.cat")
///     for try await chunk in body {
///         if try decoder.feed(chunk) { break }       // data.cat is complete: the rest need not be read
///     }
///     let cat = try decoder.finish()
public final class IncrementalDecoder<T> {
    private let engine: DecodingPipeline<T>

    init(engine: DecodingPipeline<T>) { self.engine = engine }

    /// Feeds the next chunk. Returns `true` once the designated value is complete: further chunks are not needed
    /// (and are ignored), so a caller may stop reading, for instance close the connection. Without a path the whole
    /// document is the value, and the rest of the input must still be read (to check it is only whitespace): `feed`
    /// then returns `false` until the end.
    ///
    /// After bad input, this and every later call throw the same error; after ``finish()``, a
    /// ``DecoderMisuseError``.
    @discardableResult
    public func feed(_ chunk: some ContiguousBytes) throws -> Bool {
        try chunk.withUnsafeBytes { bytes in try engine.feed(bytes) }
        return engine.isComplete && engine.stopsWhenComplete
    }

    /// Ends the input and returns the value; throws when the document is malformed or cut short, when the path is
    /// not in it, or when the value doesn't fit `T`. Call it once.
    public func finish() throws -> T {
        try engine.finish()
        return try engine.takeValue()
    }

    /// Bytes fed so far: every chunk taken, whole.
    public var bytesFed: Int { engine.bytesFed }
    /// Bytes of the input read: where reading stopped when the value ended before the input did (a designated
    /// value: the rest is never read), otherwise all that was fed. Both counts are of the UTF-8 JSON text the
    /// tokenizer reads (for UTF-16 or UTF-32 input, or JSON5, after conversion).
    public var bytesRead: Int { engine.bytesRead }
}

/// Decodes the elements of an array (or a stream of top-level values) one at a time, as their last byte arrives;
/// each element is handed over and forgotten, so memory stays flat however long the input is.
///
///     let items = try ModelDecoder().elements(of: Item.self, at: "data.items")
///     for chunk in chunks { for item in try items.feed(chunk) { handle(item) } }
///     for item in try items.finish() { handle(item) }   // and checks that the rest of the document is valid
public final class ElementDecoder<T> {
    private let engine: DecodingPipeline<T>

    init(engine: DecodingPipeline<T>) { self.engine = engine }

    /// Feeds the next chunk and returns the elements it completed. When the chunk holds bad input, the elements it
    /// completed before it are returned first, and the next call throws the error; after that every call throws the
    /// same error; after ``finish()``, a ``DecoderMisuseError``.
    public func feed(_ chunk: some ContiguousBytes) throws -> [T] {
        do {
            try chunk.withUnsafeBytes { bytes in try engine.feed(bytes) }
        } catch {
            // The pipeline keeps the error: the next call throws it.
            let completed = engine.takeElements()
            if completed.isEmpty { throw error }
            return completed
        }
        return engine.takeElements()
    }

    /// Ends the input: returns the last elements, and throws when the document is malformed or cut short. Call it
    /// once.
    public func finish() throws -> [T] {
        try engine.finish()
        return engine.takeElements()
    }

    /// Ends the input: the last elements, and the error that ended the input if any (elements completed before bad
    /// input come first, as with ``feed(_:)``).
    func finishDeliveringFirst() -> (elements: [T], error: (any Error)?) {
        do {
            try engine.finish()
            return (engine.takeElements(), nil)
        } catch {
            return (engine.takeElements(), error)
        }
    }

    /// Bytes fed so far: every chunk taken, whole.
    public var bytesFed: Int { engine.bytesFed }
    /// Bytes of the input read: where reading stopped when nothing more could match (a path at a finite index),
    /// otherwise all that was fed (in the UTF-8 JSON text the tokenizer reads, as ``IncrementalDecoder/bytesRead``).
    public var bytesRead: Int { engine.bytesRead }
}

extension ModelDecoder {
    /// A push decoder for one value of type `T` at `path`, fed chunk by chunk.
    public func incremental<T>(_ type: T.Type, at path: String = "") throws -> IncrementalDecoder<T> {
        let codec = try Decoding.rootCodec(for: type, strategy: options.keyDecodingStrategy)
        return IncrementalDecoder(
            engine: DecodingPipeline(
                codec: codec, path: try DesignatedPath(parsing: path), options: options, mode: .value))
    }

    /// A push decoder for the elements of the array at `path` (`"data.items"`, or `"data.items[*]"`; `"[*]"` for a
    /// top-level array). In JSON Lines or concatenated values, the path applies to each top-level value in turn,
    /// and the empty path `""` yields each top-level value itself.
    public func elements<T>(of type: T.Type, at path: String = "") throws -> ElementDecoder<T> {
        let codec = try Decoding.rootCodec(for: type, strategy: options.keyDecodingStrategy)
        let parsed = try DesignatedPath(parsing: path)
        // The empty path streams each top-level value; `[*]` each element of a top-level array.
        let topLevelValues = parsed.isEmpty
        return ElementDecoder(
            engine: DecodingPipeline(
                codec: codec, path: parsed, options: options, mode: topLevelValues ? .valuePerDocument : .elements))
    }

    /// A push decoder for the value at `path` in each top-level value of the input: one value for a single document,
    /// one per line for JSON Lines (or per value for concatenated documents). `path` is applied to each top-level
    /// value afresh; a value without it is a `pathNotFound` error. The empty path yields each top-level value.
    ///
    ///     let ids = try ModelDecoder().values(of: Int.self, at: "user.id")   // {"user": {"id": 1}}\n{"user": …}
    public func values<T>(of type: T.Type, at path: String = "") throws -> ElementDecoder<T> {
        let codec = try Decoding.rootCodec(for: type, strategy: options.keyDecodingStrategy)
        return ElementDecoder(
            engine: DecodingPipeline(
                codec: codec, path: try DesignatedPath(parsing: path), options: options, mode: .valuePerDocument))
    }

    /// The elements at `path` in an asynchronous sequence of byte chunks (`[UInt8]`, `Data`, `ArraySlice<UInt8>`),
    /// each yielded as soon as it is complete. The chunks are read no faster than elements are taken, and the
    /// iteration stops when its task is cancelled.
    public func elements<T, Chunks: AsyncSequence>(of type: T.Type, at path: String = "", from chunks: Chunks)
        -> AsyncElementSequence<T, Chunks> where Chunks.Element: ContiguousBytes
    {
        AsyncElementSequence(decoder: self, path: path, chunks: chunks)
    }

    /// Decodes a value from a file, read in chunks of `chunkSize` bytes through one reused buffer: the file is never
    /// loaded whole, and reading stops once the designated value is complete.
    public func decode<T>(_ type: T.Type, fromFileAt file: String, at path: String = "", chunkSize: Int = 1 << 16)
        throws -> T
    {
        let decoder = try incremental(type, at: path)
        try ChunkReader.read(file: file, chunkSize: chunkSize) { chunk in try !decoder.feed(chunk) }
        return try decoder.finish()
    }

    /// Decodes a value from an open file handle, in chunks.
    public func decode<T>(_ type: T.Type, from handle: FileHandle, at path: String = "", chunkSize: Int = 1 << 16)
        throws -> T
    {
        let decoder = try incremental(type, at: path)
        try ChunkReader.read(descriptor: handle.fileDescriptor, chunkSize: chunkSize) { chunk in
            try !decoder.feed(chunk)
        }
        return try decoder.finish()
    }

    /// Calls `body` with each element at `path` in a file, read in chunks: memory stays flat whatever the file's size.
    public func forEachElement<T>(
        of type: T.Type, at path: String = "", inFileAt file: String, chunkSize: Int = 1 << 16,
        _ body: (T) throws -> Void
    ) throws {
        let decoder = try elements(of: type, at: path)
        try ChunkReader.read(file: file, chunkSize: chunkSize) { chunk in
            for element in try decoder.feed(chunk) { try body(element) }
            return true
        }
        try Self.finish(decoder, body)
    }

    /// The last elements, each handed to `body`, then the error that ended the input if any.
    private static func finish<T>(_ decoder: ElementDecoder<T>, _ body: (T) throws -> Void) throws {
        let (elements, error) = decoder.finishDeliveringFirst()
        for element in elements { try body(element) }
        if let error { throw error }
    }

    /// The same, from an open file handle (standard input, a pipe).
    public func forEachElement<T>(
        of type: T.Type, at path: String = "", from handle: FileHandle, chunkSize: Int = 1 << 16,
        _ body: (T) throws -> Void
    ) throws {
        let decoder = try elements(of: type, at: path)
        try ChunkReader.read(descriptor: handle.fileDescriptor, chunkSize: chunkSize) { chunk in
            for element in try decoder.feed(chunk) { try body(element) }
            return true
        }
        try Self.finish(decoder, body)
    }
}

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

/// A push decoder used after it has ended: `feed` or `finish` after `finish`. A mistake in the calling code, not in
/// the input.
public struct DecoderMisuseError: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// What was done wrong: `IncrementalDecoder.finish() was called twice: the decoder has ended`.
    public var message: String
    public var description: String { message }
    /// The description, for `localizedDescription`.
    public var errorDescription: String? { message }
}

/// A file that could not be opened or read: its path and the system's reason (`Is a directory`, `No such file or
/// directory`, …).
public struct FileReadError: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// The path that could not be read.
    public var path: String
    /// The `errno` value.
    public var code: Int32
    public var description: String { "cannot read \(path): \(String(cString: strerror(code)))" }
    public var errorDescription: String? { description }

    /// An error for `path` with the system's error number `code`.
    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }
}
