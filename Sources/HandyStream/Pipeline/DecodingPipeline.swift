/// The one pipeline behind every entry point, fed chunk by chunk (a whole document is one chunk): the input's encoding,
/// the text stages, the tokenizer (or another event source), the path filter when a path is designated or values are
/// streamed, and the builder.
///
///     bytes ─▶ InputEncoding ─▶ TextStages ─▶ Tokenizer ─▶ PathFilter ──(a designated value starts)──▶ Builder
///                                                 └───────────────(no path, one value)────────────────────┘
///
/// The stages report to it (``StageOwner``); it alone moves the tokenizer's sink. Its life is one state machine
/// (``State``).
final class DecodingPipeline<T>: StageOwner {
    enum Mode {
        /// One value: the document or the value at the path; with wildcards, every match, as one array's elements.
        case value
        /// Each element of the array at the path, or each match of a wildcard path, in each top-level value.
        case elements
        /// The value at the path (every match, with wildcards) in each top-level value (JSON Lines, concatenated).
        case valuePerDocument
    }

    let root: RootFrame<T>
    private let run: DecodingRun
    let builder: Builder
    private let filter: PathFilter?
    /// A JSONPath query's tail (what the path filter can't follow alone), between the path filter and the builder.
    let query: QueryStage?
    private let tokenizer: Tokenizer
    private let mode: Mode
    /// A designated value: reading stops once it is complete.
    let stopsWhenComplete: Bool
    private var lines = LineTracker()
    private(set) var isComplete = false
    private enum State {
        /// Chunks are converted, rewritten and tokenized. Next: `reading` again, `stopped`, `failed` or `finished`.
        case reading
        /// The designated value is complete, or no more matches can come: later chunks are ignored. Next: `finished`.
        case stopped
        /// Bad input, or a value that doesn't fit: every later feed and finish throws this error. Next: nothing.
        case failed(any Error)
        /// `finish()` ran: a later feed or finish is misuse. Next: nothing.
        case finished
    }
    private var state = State.reading
    /// The tokenizer stopped before the input ended (``State/stopped``, and whatever came after it).
    private var stoppedReading = false
    /// Values completed since last collected; `nil` in mode `value`, whose value stays in the root frame.
    private let completed: ElementBuffer<T>?
    /// Made when first used: its two closures are two allocations.
    private lazy var finishing = ArrayFinishing<T>.make()
    /// The values are `Decodable`: every error is a `DecodingError`, as `JSONDecoder`'s, wrapping this library's.
    private let throwsDecodingErrors: Bool
    private var encoding = InputEncoding()
    private let textStages: [any TextStage]

    /// `singleDocument`: in a streaming mode, one top-level value only (a span of an array's elements, made whole).
    init(
        codec: ValueCodec, path: DesignatedPath, options: DecodingOptions, mode: Mode, seed: Any? = nil,
        singleDocument: Bool = false
    ) {
        self.mode = mode
        throwsDecodingErrors = codec.decodesCodableValues
        textStages = Self.textStages(for: options)
        completed = mode == .value ? nil : ElementBuffer<T>()
        // The root frame stores each completed element straight into the buffer.
        root = RootFrame<T>(codec: codec, collecting: completed)
        run = DecodingRun(options: options, seed: seed)
        builder = Builder(root: root, run: run)
        query = QueryStage.make(path: path, next: builder, run: run, single: mode == .value)
        let filters = mode != .value || !path.isEmpty
        filter =
            filters
            ? PathFilter(
                path: mode == .elements ? path.streamingElements() : path, next: query ?? builder, builder: builder,
                run: run, single: mode == .value)
            : nil
        query?.filter = filter
        stopsWhenComplete = mode == .value && !path.isEmpty
        tokenizer = Tokenizer(
            sink: filter ?? query ?? builder, multipleValues: mode != .value && !singleDocument,
            rejectsUnpairedSurrogates: options.strict, maximumTokenLength: options.maximumTokenLength ?? .max)
        run.attach(tokenizer)
        super.init()
        builder.owner = .passUnretained(self)
        filter?.owner = .passUnretained(self)
    }

    private static func textStages(for options: DecodingOptions) -> [any TextStage] {
        if options.allowsJSON5 {
            return [JSON5Text(impliedObject: options.assumesTopLevelDictionary), TrailingCommas()]
        }
        let implied = options.assumesTopLevelDictionary
        return implied || options.allowsTrailingCommas ? [TrailingCommas(impliedObject: implied)] : []
    }

    // MARK: - The stages' hand-offs

    override func builderCompletedRoot(_ builder: Builder) -> Bool {
        guard mode != .value else {
            isComplete = true
            return !stopsWhenComplete
        }
        // The element is in `completed` already (the root frame collects into it), unless it didn't fit.
        if run.recordsLocations {
            if valuesMade == valuesMadeAtLastRoot { run.forgetLastLocation() }
            valuesMadeAtLastRoot = valuesMade
        }
        root.reset()
        // A query stage replays several values per candidate, and resumes the filter after the last.
        if query == nil { filter?.resume() }
        return true
    }

    override func pathFilterHandsOver(_ filter: PathFilter) {
        tokenizer.sink = query.map { .other(.passUnretained($0)) } ?? .builder(.passUnretained(builder))
    }

    override func pathFilterTakesBack(_ filter: PathFilter) {
        tokenizer.sink = .other(.passUnretained(filter))
    }

    // MARK: - Input

    /// Feeds one chunk; throws for bad input, and again on every call after it. `tracksLines`: count lines for errors
    /// in later chunks (a whole document's errors are located in it).
    func feed(_ chunk: UnsafeRawBufferPointer, tracksLines: Bool = true) throws {
        try checkState("feed(_:) was called after finish()")
        guard case .reading = state else { return }
        try convert(chunk, isLast: false, tracksLines: tracksLines)
    }

    /// Converts input to UTF-8 (``InputEncoding``) and tokenizes it; any error is the pipeline's last.
    private func convert(_ chunk: UnsafeRawBufferPointer, isLast: Bool, tracksLines: Bool) throws {
        do {
            try encoding.convert(chunk, isLast: isLast) { text in
                if textStages.isEmpty { return try tokenize(text, tracksLines: tracksLines) }
                try textStages.rewrite(text, isLast: isLast) { try tokenize($0, tracksLines: tracksLines) }
            }
        } catch {
            let thrown =
                (error as? InputEncoding.Invalid).map(encodingError)
                ?? (error as? TextStageError).map(textError) ?? error
            state = .failed(thrown)
            throw thrown
        }
    }

    private func tokenize(_ text: UnsafeRawBufferPointer, tracksLines: Bool) throws {
        // The text stages may hand over more text after the value completed within the same chunk.
        guard case .reading = state else { return }
        let start = tokenizer.bytesFed
        let outcome = tokenizer.parse(text, scansKinds: tracksLines)
        try handle(outcome, chunk: text, chunkStart: start)
        if tracksLines { lines.advance(over: text, startingAt: start, kinds: tokenizer.lastChunkKinds) }
    }

    private func encodingError(_ invalid: InputEncoding.Invalid) -> any Error {
        asThrown(
            JSONDecodingError(
                kind: .invalidUTF8, message: invalid.message, offset: tokenizer.bytesFed, path: currentPath, input: nil)
        )
    }

    /// Text that a stage before the tokenizer refuses (JSON5's grammar), at its offset in the text as given.
    private func textError(_ refused: TextStageError) -> any Error {
        var error = JSONDecodingError(
            kind: refused.truncated ? .truncated : .malformed, message: refused.message, offset: refused.offset,
            path: currentPath, input: nil)
        (error.line, error.column) = (refused.line, refused.column)
        return asThrown(error)
    }

    /// Ends the input, reporting a cut document or a missing path; `input`, the whole document, locates the error.
    func finish(input: UnsafeRawBufferPointer? = nil) throws {
        try checkState("finish() was called twice")
        guard case .reading = state else {
            state = .finished
            return
        }
        // The last bytes held back to decide or convert the encoding, or by a text stage.
        try convert(
            UnsafeRawBufferPointer(start: nil, count: 0), isLast: true, tracksLines: input == nil || !textStages.isEmpty
        )
        guard case .reading = state else {
            state = .finished
            return
        }
        let start = tokenizer.bytesFed
        // A document read through a conversion (a byte order mark, UTF-16 or UTF-32) is located in the text read.
        let input = encoding.kind == .utf8 && !encoding.droppedMark && textStages.isEmpty ? input : nil
        do {
            let outcome = tokenizer.complete()
            let chunk = input ?? UnsafeRawBufferPointer(start: nil, count: 0)
            try handle(outcome, chunk: chunk, chunkStart: input == nil ? start : 0)
            state = .finished
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Decodes one whole document in memory; `nil` when the value doesn't fit `T` (``takeValue(input:)`` says why).
    func decode(document input: UnsafeRawBufferPointer) throws -> T? {
        // Rewritten text (JSON5) is located by the lines counted in it.
        try feed(input, tracksLines: !textStages.isEmpty)
        try finish(input: input)
        return root.take()
    }

    /// Sends Foundation-style values (`[String: Any]`, `[Any]`) through the same stages, as a second event source.
    func decode(object: Any) throws -> T? {
        let sink: TokenSink = filter ?? query ?? builder
        if !ObjectEvents.emit(object, to: sink),
            let failure = run.failure
        {
            let error = JSONDecodingError(
                kind: failure.kind, message: failure.message, offset: 0, path: failure.path, input: nil)
            throw failure.underlying.map { Self.locate($0, at: error) } ?? asThrown(error)
        }
        return root.take()
    }

    private func checkState(_ misuse: String) throws {
        switch state {
        case .reading, .stopped: return
        case .failed(let error): throw error
        case .finished:
            let owner = mode == .value ? "IncrementalDecoder" : "ElementDecoder"
            throw JSONDecodingError(.misuse, "\(owner).\(misuse): the decoder has ended")
        }
    }

    /// The one place where the tokenizer's outcome becomes an error, located in `chunk`.
    private func handle(_ outcome: Tokenizer.Outcome, chunk: UnsafeRawBufferPointer, chunkStart: Int) throws {
        switch outcome {
        case .needsMore, .complete:
            return
        case .stopped:
            guard let failure = run.failure else {
                state = .stopped
                stoppedReading = true
                return
            }
            let error = located(
                failure.kind, failure.message, offset: failure.offset ?? tokenizer.offset, path: failure.path,
                chunk: chunk, chunkStart: chunkStart)
            if let underlying = failure.underlying { throw Self.locate(underlying, at: error) }
            throw asThrown(error)
        case .malformed(let syntax):
            let (kind, message) = JSONDecodingError.translate(syntax)
            throw asThrown(
                located(kind, message, offset: syntax.offset, path: currentPath, chunk: chunk, chunkStart: chunkStart))
        }
    }

    /// An error at `offset` located in `chunk`, or from the stream's bytes before it when its token began earlier.
    private func located(
        _ kind: JSONDecodingError.Kind, _ message: String, offset: Int, path: String, chunk: UnsafeRawBufferPointer,
        chunkStart: Int
    ) -> JSONDecodingError {
        if offset < chunkStart, let before = tokenizer.bytes(from: offset, upTo: chunkStart) {
            return JSONDecodingError(
                kind: kind, message: message, offset: offset, path: path, before: before, chunk: chunk,
                chunkStart: chunkStart, lines: lines)
        }
        return JSONDecodingError(
            kind: kind, message: message, offset: offset, path: path, chunk: chunk, chunkStart: chunkStart,
            lines: lines)
    }

    /// The error as thrown to the caller: for `Decodable` values a `DecodingError.dataCorrupted` at the empty coding
    /// path, as `JSONDecoder` throws for input that is not JSON, carrying `error` (line, column, offset and path).
    private func asThrown(_ error: JSONDecodingError) -> any Error {
        guard throwsDecodingErrors else { return error }
        let description =
            switch error.kind {
            case .malformed, .truncated, .invalidUTF8: "The given data was not valid JSON."
            default: error.message.prefix(1).uppercased() + error.message.dropFirst() + "."
            }
        return DecodingError.dataCorrupted(
            .init(
                codingPath: [], debugDescription: description + " (\(error))", underlyingError: error))
    }

    /// Where decoding is: the filter's position before the value, the builder's inside it.
    private var currentPath: String {
        if let filter, !filter.isPassing { return filter.currentPath }
        return builder.currentPath()
    }

    // MARK: - Output

    /// The values completed so far (the streaming modes), handed over once.
    func takeElements() -> [T] {
        valuesTaken += completed?.count ?? 0
        return completed?.takeAll(finishing) ?? []
    }

    private var valuesTaken = 0

    /// See ``PathFilter/opensEveryElement(afterKeys:)``; a query's tail holds no candidate there.
    /// Or, for a `..` of names after the keys (``DesignatedPath/fromSegment(_:eachElement:)``), the array it starts
    /// from just opened.
    func opensEveryElement(afterKeys keys: Int) -> Bool {
        if let descendants = query as? DescendantStage, filter?.passesMatch(afterKeys: keys) == true {
            return descendants.opensArrayOfNames
        }
        return query?.betweenCandidates != false && filter?.opensEveryElement(afterKeys: keys) == true
    }
    /// See ``PathFilter/topLevelElements``.
    var topLevelElements: Int { filter?.topLevelElements ?? 0 }
    /// The values completed so far in a streaming mode: taken, and waiting to be.
    var valuesMade: Int { valuesTaken + (completed?.count ?? 0) }

    /// Asks for each JSONPath match's normalized path (§2.7), before any input; ``takePaths()`` gives them.
    func recordPaths() { run.recordLocations() }

    /// The normalized paths of the matches delivered since last taken, in their order: not that of a match begun in
    /// the last chunk and not yet complete.
    func takePaths() -> [String] {
        let taken = run.takeLocations(upTo: valuesTaken - pathsTaken)
        pathsTaken += taken.count
        return taken.map(JSONPath.normalized)
    }

    private var pathsTaken = 0
    private var valuesMadeAtLastRoot = 0

    func takeEachElement(_ body: (T) throws -> Void) rethrows {
        valuesTaken += completed?.count ?? 0
        try completed?.takeEach(body)
    }

    /// One value, once complete; a misfit is an error located where the value is (in `input`, when it is whole).
    func takeValue(input: UnsafeRawBufferPointer? = nil) throws -> T {
        if let value = root.take() { return value }
        // A `Decodable` root value whose `init(from:)` failed: its own error, located.
        if let decodable = run.valueFailure {
            let error = JSONDecodingError(
                kind: .typeMismatch, message: "\(decodable.error)", offset: decodable.offset,
                path: run.valuePath, input: input)
            throw Self.locate(decodable.error, at: error)
        }
        throw asThrown(
            JSONDecodingError(
                kind: .typeMismatch, message: root.mismatch ?? "expected \(root.opener.expectation)",
                offset: root.mismatchOffset, path: run.valuePath, input: input))
    }

    /// A `Decodable` value's error with HandyStream's location added: a `DecodingError` keeps its case and coding
    /// path, its description gains the line, column, offset and JSON path, and the location becomes its underlying
    /// error (unless it has one); another error is thrown as it is.
    static func locate(_ error: any Error, at location: JSONDecodingError) -> any Error {
        guard let decodingError = error as? DecodingError else { return error }
        func position(_ location: JSONDecodingError) -> String {
            location.line > 0
                ? "line \(location.line), column \(location.column), byte \(location.offset)"
                : "byte \(location.offset)"
        }
        func located(_ context: DecodingError.Context) -> DecodingError.Context {
            var location = location
            // A number that doesn't fit is at the empty coding path, as JSONDecoder says; its place is its own.
            let number = context.underlyingError as? NumberNotRepresentable
            location.path += CodingPathNode.jsonPath(of: number?.codingPath ?? context.codingPath)
            if let number { location.message = number.description }
            let said = number.map { " \($0.description)" } ?? ""
            return DecodingError.Context(
                codingPath: context.codingPath,
                debugDescription: context.debugDescription + "\(said) (\(position(location)), at \(location.path))",
                underlyingError: number == nil ? context.underlyingError ?? location : location)
        }
        switch decodingError {
        case .typeMismatch(let type, let context): return DecodingError.typeMismatch(type, located(context))
        case .valueNotFound(let type, let context): return DecodingError.valueNotFound(type, located(context))
        case .keyNotFound(let key, let context): return DecodingError.keyNotFound(key, located(context))
        case .dataCorrupted(let context): return DecodingError.dataCorrupted(located(context))
        @unknown default: return decodingError
        }
    }

    /// Reads UTF-8 input from its middle: the first chunk starts at `offset`, at the start of a line after `newlines`
    /// line feeds, between two top-level values. Errors are then located as one reading from the start locates them.
    func resume(atOffset offset: Int, newlines: Int) {
        precondition(bytesFed == 0 && textStages.isEmpty, "DecodingPipeline: resumed after reading, or rewriting")
        encoding.assumeUTF8()
        tokenizer.start(atOffset: offset)
        lines = LineTracker(newlines: newlines)
    }

    var resumes: Bool { textStages.isEmpty }
    /// The line feeds in the chunks fed so far (after those given to ``resume(atOffset:newlines:)``).
    var lineFeeds: Int { lines.newlines }

    var bytesFed: Int { tokenizer.bytesFed }
    /// Bytes the tokenizer read: less than was fed when a designated value ended early.
    var bytesRead: Int {
        // A token held back for the next chunk was read: only a stop leaves input unread.
        stoppedReading ? tokenizer.offset : tokenizer.bytesFed
    }
}
