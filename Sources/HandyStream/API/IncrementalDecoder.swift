import Foundation

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

    /// Feeds the next chunk. Returns `true` once the designated value is complete: later chunks are ignored, so a
    /// caller may stop reading (close the connection, say). Without a path the whole document is the value, and `feed`
    /// returns `false` until the end, which must still be read to check it holds only white space. After bad input this
    /// and every later call throw the same error; after ``finish()``, a ``JSONDecodingError`` of kind `misuse`.
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

    var bytesFed: Int { engine.bytesFed }
    /// Bytes of the input read: where reading stopped when a designated value ended first (the rest is never read),
    /// otherwise all that was fed, counted in the UTF-8 JSON text the tokenizer reads.
    public var bytesRead: Int { engine.bytesRead }
}
