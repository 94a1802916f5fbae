import Foundation

/// Decodes the elements of an array (or a stream of top-level values) one at a time, as their last byte arrives;
/// each element is handed over and forgotten, so memory stays flat however long the input is.
///
///     let items = try ModelDecoder().elements(of: Item.self, at: "data.items")
///     for chunk in chunks { for item in try items.feed(chunk) { handle(item) } }
///     for item in try items.finish() { handle(item) }   // and checks that the rest of the document is valid
public final class ElementDecoder<T> {
    /// What reads. The parallel readers (Parallel/) drive it directly: a span's elements are kept and taken in one
    /// move, not handed over one call each.
    let engine: DecodingPipeline<T>

    init(engine: DecodingPipeline<T>) { self.engine = engine }

    /// Feeds the next chunk and returns the elements it completed. Elements completed before bad input are returned
    /// first, and the next call, and every one after, throws the error; after ``finish()``, kind `misuse`.
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

    /// Asks for each match's normalized path, before the first chunk: ``takePaths()`` gives those of the elements
    /// returned so far, in their order.
    package func recordPaths() { engine.recordPaths() }

    package func takePaths() -> [String] { engine.takePaths() }

    /// Ends the input: returns the last elements; throws when the document is malformed or cut short. Call it once.
    public func finish() throws -> [T] {
        try engine.finish()
        return engine.takeElements()
    }

    /// Feeds the next chunk and moves each element it completed to `body`, in order (no array, no copy); elements
    /// completed before bad input come first, then the error is thrown. `forEachElement` reads with this.
    func feed(_ chunk: UnsafeRawBufferPointer, each body: (T) throws -> Void) throws {
        try handOver(after: { try engine.feed(chunk) }, to: body)
    }

    /// The same for ``finish()``: the last elements to `body`, then the error that ended the input, if any.
    func finish(each body: (T) throws -> Void) throws {
        try handOver(after: { try engine.finish() }, to: body)
    }

    private func handOver(after step: () throws -> Void, to body: (T) throws -> Void) throws {
        var failure: (any Error)?
        do { try step() } catch { failure = error }
        try engine.takeEachElement(body)
        if let failure { throw failure }
    }

    /// Ends the input: the last elements, and the error that ended it if any (those completed before it come first).
    func finishDeliveringFirst() -> (elements: [T], error: (any Error)?) {
        var failure: (any Error)?
        do { try engine.finish() } catch { failure = error }
        return (engine.takeElements(), failure)
    }
}
