import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ModelDecoder {
    /// A push decoder for one value of type `T` at `path`, fed chunk by chunk.
    public func incremental<T>(_ type: T.Type, at path: String = "") throws -> IncrementalDecoder<T> {
        IncrementalDecoder(engine: try pipeline(type, at: path, mode: .value))
    }

    /// A push decoder for the elements of the array at `path` (`"data.items"`, or `"data.items[*]"`; `"[*]"` for a
    /// top-level array). In JSON Lines or concatenated values, the path applies to each top-level value in turn,
    /// and the empty path `""` yields each top-level value itself.
    public func elements<T>(of type: T.Type, at path: String = "") throws -> ElementDecoder<T> {
        ElementDecoder(engine: try pipeline(type, at: path, mode: .elements))
    }

    /// A push decoder for the value at `path` in each top-level value of the input: one value for a single document,
    /// one per line for JSON Lines (or per value for concatenated documents). `path` is applied to each top-level
    /// value afresh; a value without it is a `pathNotFound` error. The empty path yields each top-level value.
    ///
    ///     let ids = try ModelDecoder().values(of: Int.self, at: "user.id")   // {"user": {"id": 1}}\n{"user": …}
    public func values<T>(of type: T.Type, at path: String = "") throws -> ElementDecoder<T> {
        ElementDecoder(engine: try pipeline(type, at: path, mode: .valuePerDocument))
    }

    /// Every node `query` selects in each top-level value of `json`, in the RFC's order, each with its normalized path
    /// (RFC 9535 §2.7, `$['store']['book'][0]`). Dot paths give their matches' paths the same way.
    ///
    ///     try ModelDecoder().matches(of: "$..id", in: Data(#"{"a": [{"id": 1}]}"#.utf8))  // [("$['a'][0]['id']", 1)]
    public func matches(of query: String, in json: some ContiguousBytes) throws -> [(path: String, value: JSONValue)] {
        let decoder = try values(of: JSONValue.self, at: query)
        decoder.recordPaths()
        let values = try decoder.feed(json) + decoder.finish()
        return Array(zip(decoder.takePaths(), values))
    }

    /// The elements at `path` in an asynchronous sequence of byte chunks (`[UInt8]`, `Data`…), each yielded once
    /// complete; chunks are read no faster than elements are taken, until the task is cancelled.
    public func elements<T, Chunks: AsyncSequence & Sendable>(
        of type: T.Type, at path: String = "", from chunks: Chunks
    ) -> AsyncElementSequence<T> where Chunks.Element: ContiguousBytes {
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

    /// Calls `body` with the value at `path` in each line of a JSON Lines file (each top-level value; every match,
    /// with wildcards), in input order, as ``values(of:at:)`` reads them. With `jobs` above 1, that many threads
    /// decode spans of whole lines while this thread hands the values over: the values, their order and the first
    /// error (its line, column and path) are one thread's, and nothing after an error is handed over. A path that goes
    /// through one large array's elements (`data.items[*]`, `data.items[*].id`, `$.data.items[?@.price < 2]`) splits
    /// that array across the threads, at commas between its elements; other input that isn't one value per line is
    /// read on this thread after its first span fails.
    public func forEachValue<T>(
        of type: T.Type, at path: String = "", inFileAt file: String, jobs: Int = 1, _ body: (T) throws -> Void
    ) throws {
        try forEachValue(of: type, at: path, inFileAt: file, jobs: jobs) { value, _ in try body(value) }
    }

    /// The same for JSON Lines in memory.
    public func forEachValue<T>(
        of type: T.Type, at path: String = "", in json: some ContiguousBytes, jobs: Int = 1,
        _ body: (T) throws -> Void
    ) throws {
        try forEachValue(of: type, at: path, in: json, jobs: jobs, spanSize: Self.spanSize, body)
    }

    /// For the fuzz target: JSON Lines in memory, in spans of `spanSize` bytes.
    package func forEachValue<T>(
        of type: T.Type, at path: String, in json: some ContiguousBytes, jobs: Int, spanSize: Int,
        _ body: (T) throws -> Void
    ) throws {
        try json.withUnsafeBytes { bytes in
            try forEachValue(of: type, at: path, lines: MemoryLines(bytes, spanSize: spanSize), jobs: jobs) {
                value, _ in try body(value)
            }
        }
    }

    /// For the command-line tool: each value with its normalized path (when `paths`), and each span's size read.
    package func forEachValue<T>(
        of type: T.Type, at path: String, inFileAt file: String, jobs: Int, paths: Bool = false,
        spanSize: Int = spanSize, spanRead: (Int) -> Void = { _ in }, _ body: (T, String?) throws -> Void
    ) throws {
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else { throw JSONDecodingError.unreadable(file, code: errno) }
        defer { close(descriptor) }
        let lines = DescriptorLines(
            descriptor: descriptor, name: file, spanSize: spanSize, longestLine: Self.longestLine)
        try forEachValue(of: type, at: path, lines: lines, jobs: jobs, paths: paths, spanRead: spanRead, body)
    }

    /// Spans a worker reads at a time: large enough that handing one over costs nothing, small enough for many
    /// workers' windows to stay small.
    package static let spanSize = 1 << 20
    /// A line longer than this, read from a file, is read on the calling thread with the rest of the input.
    static let longestLine = 64 << 20

    func forEachValue<T>(
        of type: T.Type, at path: String, lines: LineSource, jobs: Int, paths: Bool = false,
        longestSpan: Int = longestLine, spanRead: (Int) -> Void = { _ in }, _ body: (T, String?) throws -> Void
    ) throws {
        func make(_ diagnostics: (@Sendable (DecodingDiagnostic) -> Void)?) throws -> ElementDecoder<T> {
            var decoder = self
            if let diagnostics { decoder.options.diagnostics = diagnostics }
            let made = try decoder.values(of: type, at: path)
            if paths { made.recordPaths() }
            return made
        }
        // A bad path is told before anything is read, and rewritten text (JSON5) can't be cut into lines.
        let resumes = try make(nil).engine.resumes
        let parallel = ParallelLines<T>(
            jobs: resumes ? jobs : 1, recordsPaths: paths, diagnostics: options.diagnostics, makeDecoder: make)
        if resumes && jobs > 1, let (place, spanPath) = try arrayPlace(path, in: lines) {
            // One array's elements, each span of them read as an array of its own: `[*]` and the rest of the path,
            // of a single document.
            parallel.makeElementsDecoder = { diagnostics in
                var decoder = self
                if let diagnostics { decoder.options.diagnostics = diagnostics }
                // Its elements are as deep as in the document.
                decoder.options.maximumDepth = max(1, decoder.options.maximumDepth - place.keys.count)
                return ElementDecoder(
                    engine: try decoder.pipeline(
                        type, at: spanPath, mode: .elements, singleDocument: true))
            }
            return try parallel.run(
                array: place, in: lines, spanSize: lines.spanSize, longestSpan: longestSpan, spanRead: spanRead, body)
        }
        try parallel.run(lines, spanRead: spanRead, body)
    }

    /// Where the array whose elements `path` goes through opens (keys, then `[*]` or `*`, then what applies to each
    /// element alone: `data.items[*].id`, `$.data.items[?@.price < 2]`), in UTF-8 input that can be read at an
    /// offset, when the array is longer than a span (shorter, it may be one of many JSON Lines); and the path each
    /// span of elements is read at, as an array of its own.
    private func arrayPlace(_ path: String, in source: LineSource) throws -> (ArrayPlace, DesignatedPath)? {
        guard !options.assumesTopLevelDictionary, let parsed = try? DesignatedPath(parsing: path) else { return nil }
        var keys: [[UInt8]] = []
        for segment in parsed.segments {
            guard case .key(let key) = segment else { break }
            keys.append(key)
        }
        // A query's tail that reads `$` leaves no segments; one that holds the array (`[-3:]`) starts at the keys,
        // as a `..` of names does (`$.data.items..email`), which gives from an array what it gives from each element.
        let namesBelow =
            keys.count == parsed.segments.count && parsed.tailStart == .descendants
            && parsed.tail[0].selectors.allSatisfy { if case .name = $0 { true } else { false } }
        if !namesBelow {
            guard keys.count < parsed.segments.count else { return nil }
            switch parsed.segments[keys.count] {
            case .everyElement, .everyChild: break
            default: return nil
            }
        }
        guard let start = try source.longArray(keys: keys)?.start else { return nil }
        return (
            ArrayPlace(start: start, keys: keys, descendants: namesBelow),
            parsed.fromSegment(keys.count, eachElement: namesBelow)
        )
    }

    /// For the command-line tool: checks a file as ``validate(fileAt:chunkSize:)`` does, the elements of its large
    /// array (longer than a span, with the most elements in the first bytes) split across `jobs` threads; the answer
    /// and the first error are one thread's.
    package func validate(fileAt file: String, jobs: Int) throws {
        guard jobs > 1 else { return try validate(fileAt: file) }
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else { throw JSONDecodingError.unreadable(file, code: errno) }
        defer { close(descriptor) }
        let source = DescriptorLines(
            descriptor: descriptor, name: file, spanSize: Self.spanSize, longestLine: Self.longestLine)
        try validate(source, jobs: jobs) { try validate(fileAt: file) }
    }

    /// `inOrder`: one thread's check of the same input, which answers for any doubt or error.
    func validate(_ source: LineSource, jobs: Int, inOrder: () throws -> Void) throws {
        func whole() throws -> ElementDecoder<Validation> {
            ElementDecoder(engine: try pipeline(Validation.self, at: "", mode: .valuePerDocument, singleDocument: true))
        }
        guard jobs > 1, try whole().engine.resumes, let (start, depth) = try source.longArray(keys: nil) else {
            return try inOrder()
        }
        let parallel = ParallelLines<Validation>(jobs: jobs, recordsPaths: false, diagnostics: nil) { _ in try whole() }
        parallel.makeElementsDecoder = { _ in
            var decoder = self
            // Its elements are as deep as in the document.
            decoder.options.maximumDepth = max(1, decoder.options.maximumDepth - (depth - 1))
            return ElementDecoder(
                engine: try decoder.pipeline(Validation.self, at: "[*]", mode: .elements, singleDocument: true))
        }
        try withoutActuallyEscaping(inOrder) { inOrder in
            try parallel.run(
                array: ArrayPlace(start: start, keys: []), in: source, spanSize: source.spanSize,
                longestSpan: Self.longestLine, confirmsPath: false, inOrder: inOrder, spanRead: { _ in }
            ) { _, _ in }
        }
    }

    /// Calls `body` with each element at `path` in a file, read in chunks: memory stays flat whatever the file's size.
    public func forEachElement<T>(
        of type: T.Type, at path: String = "", inFileAt file: String, chunkSize: Int = 1 << 16,
        _ body: (T) throws -> Void
    ) throws {
        let decoder = try elements(of: type, at: path)
        try ChunkReader.read(file: file, chunkSize: chunkSize) { chunk in
            try decoder.feed(chunk, each: body)
            return true
        }
        try decoder.finish(each: body)
    }
}
