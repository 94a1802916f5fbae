/// One decoding of one value: the tokenizer (or another event source), the path filter when a path is designated,
/// and the builder with its root frame, wired together for a single document.
///
///     bytes ─▶ Tokenizer ─▶ PathFilter ─(designated value starts: hands the tokenizer over)─▶ Builder ─▶ RootFrame
final class DecodingRun<T>: Builder.Delegate {
    let root: RootFrame<T>
    let builder: Builder
    private let filter: PathFilter?
    private let stopsWhenComplete: Bool

    init(codec: ValueCodec, path: DesignatedPath, options: DecodingOptions, seed: Any? = nil) {
        root = RootFrame<T>(codec: codec)
        builder = Builder(root: root, options: options)
        builder.seed = seed
        filter = path.isEmpty ? nil : PathFilter(path: path, builder: builder)
        // A whole document is read to its end, so that anything malformed after the value is reported; a designated
        // value is all the caller wants, so reading stops as soon as it is complete.
        stopsWhenComplete = !path.isEmpty
        builder.delegate = self
    }

    func builderCompletedRoot(_ builder: Builder) -> Bool { !stopsWhenComplete }

    /// The tokenizer of the document being decoded, while ``decode(_:)`` runs.
    private var tokenizer: Tokenizer?
    var currentOffset: Int { tokenizer?.offset ?? 0 }

    /// Where the events first go.
    var sink: TokenSink { filter.map { $0 as TokenSink } ?? builder }

    /// Where decoding is, for an error found now.
    var currentPath: String {
        if let filter, filter.failure != nil || !builder.hasStarted { return filter.currentPath }
        return builder.currentPath()
    }

    /// The error that stopped a run whose source was told to stop, if it was an error.
    var failure: BuildFailure? { builder.failure ?? filter?.failure }

    /// Decodes one complete document held in memory. Returns `nil` when the value at the path does not fit `T`.
    /// - Returns: the value, and how many bytes were read (less than the input when a designated value ended early).
    func decode(_ input: UnsafeRawBufferPointer) throws(JSONDecodingError) -> (value: T?, bytesRead: Int) {
        let tokenizer = Tokenizer(sink: sink, rejectsUnpairedSurrogates: builder.options.strict)
        self.tokenizer = tokenizer
        defer { self.tokenizer = nil }
        filter?.tokenizer = tokenizer
        var outcome = tokenizer.parse(input)
        if outcome == .needsMore { outcome = tokenizer.complete() }
        switch outcome {
        case .needsMore, .complete:
            break
        case .stopped:
            if let failure {
                throw JSONDecodingError(
                    kind: failure.kind, message: failure.message, offset: tokenizer.offset, path: failure.path,
                    input: input)
            }
        case .malformed(let syntax):
            throw JSONDecodingError(syntax: syntax, path: currentPath, input: input)
        }
        return (root.take(), tokenizer.offset)
    }
}

/// The shared entry points behind ``ModelDecoder`` and the HandyJSON-compatible calls.
enum Decoding {
    /// The codec for `T`, or the declaration error that stops a throwing caller.
    static func codec<T>(
        for type: T.Type, strategy: KeyDecodingStrategy, reportProblems: Bool
    ) throws(ModelDeclarationError) -> ValueCodec {
        let (codec, problems) = TypeRegistry.codec(for: type, strategy: strategy)
        guard let codec else {
            throw ModelDeclarationError(
                typeName: "\(type)",
                problems: problems.isEmpty ? ["\(type) is not a type HandyStream can decode"] : problems)
        }
        if reportProblems && !problems.isEmpty { throw ModelDeclarationError(typeName: "\(type)", problems: problems) }
        return codec
    }

    /// Decodes `T` from a whole document in memory; throws for bad input, returns `nil` when the value doesn't fit.
    static func decode<T>(
        _ type: T.Type, from input: UnsafeRawBufferPointer, path: String, options: DecodingOptions,
        reportProblems: Bool, seed: Any? = nil
    ) throws -> T? {
        let codec = try codec(for: type, strategy: options.keyDecodingStrategy, reportProblems: reportProblems)
        let run = DecodingRun<T>(codec: codec, path: try DesignatedPath(parsing: path), options: options, seed: seed)
        return try run.decode(input).value
    }

    /// Decodes `T` from Foundation-style values (`[String: Any]`, `[Any]`), through the same builder.
    static func decode<T>(
        _ type: T.Type, fromObject object: Any, path: String, options: DecodingOptions, seed: Any? = nil
    ) throws -> T? {
        let codec = try codec(for: type, strategy: options.keyDecodingStrategy, reportProblems: false)
        let run = DecodingRun<T>(codec: codec, path: try DesignatedPath(parsing: path), options: options, seed: seed)
        guard ObjectEvents.emit(object, to: run.sink) else {
            if let failure = run.failure {
                throw JSONDecodingError(kind: failure.kind, message: failure.message, offset: 0, path: failure.path,
                                        input: nil)
            }
            return run.root.take()
        }
        return run.root.take()
    }
}
