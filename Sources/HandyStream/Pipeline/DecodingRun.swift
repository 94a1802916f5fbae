/// What the stages of one decoding pipeline share: made and owned by the pipeline, and given to each stage when it
/// is made. It holds the options and the nesting cap, the tokenizer's position (the offset of the token being
/// handled, read in this one place), where the value being built sits (the path filter says so when it hands a
/// value on; the builder reads it), the one failure slot where a stage that stops the run (the builder, the path
/// filter) says why, the value to update in place, and what the run's `Decodable` values share. Stages hand events
/// and values on through their own interfaces; what they must all see is here, not in each other's fields.
final class DecodingRun {
    let options: DecodingOptions
    /// The nesting cap for the whole document, every container counted (skipped ones and those a path filter
    /// entered too): any cap is honoured, `.max` included (the builder's stack grows with the nesting actually met).
    let maximumDepth: Int
    /// Levels the builder may open below the value it is given: the cap less the containers around that value.
    private(set) var depthAllowance: Int
    /// The JSON path of the value being built (`$` for the whole document), kept in two parts so that streaming an
    /// element costs no string work: the string is made only when an error needs it (``valuePath``).
    private var valuePathBase = "$"
    /// Element streaming: the index of the element being built in the array at ``valuePathBase``, or -1.
    private var valueIndex = -1
    /// An existing value for the root model to be updated in place of a new one (`update(object:from:)`), until the
    /// root model takes it (``takeSeed()``).
    private var seed: Any?
    /// Whether ``seed`` holds a value: a flag, so that asking (each model that starts does) reads no `Any`.
    private(set) var hasSeed: Bool
    /// What the run's `Decodable` values share (made when the first one is met).
    private(set) var codableContext: CodableContext?
    /// The tokenizer reading the run's input, unretained: the pipeline owns it and outlives every event.
    private var tokenizer: Unmanaged<Tokenizer>?
    /// Why a stage stopped the run, when one did.
    private(set) var failure: BuildFailure?
    /// The error a value's own decoding threw (a `Decodable` value's `init(from:)`) when the value failed at the
    /// root, or as a scalar anywhere, with the document offset of the token it is about: the builder's strict error
    /// and the pipeline's missing-root error pass it on.
    var valueFailure: (error: any Error, offset: Int)?
    /// The short strings made so far, once ``shortStringsMade`` reaches ``ShortStringCache/madeBeforeTable``.
    private var shortStrings: ShortStringCache?
    private var shortStringsMade = 0

    init(options: DecodingOptions, seed: Any? = nil) {
        self.options = options
        self.seed = seed
        hasSeed = seed != nil
        maximumDepth = min(max(1, options.maximumDepth), Int.max - 1)
        depthAllowance = maximumDepth
    }

    deinit { shortStrings?.free() }

    /// A value handed on by the path filter starts: it sits at `path` (element `index` of the array there, when
    /// given), inside `outerDepth` containers that count toward the nesting cap.
    func handOver(at path: String, index: Int?, outerDepth: Int) {
        valuePathBase = path
        valueIndex = index ?? -1
        depthAllowance = maximumDepth - outerDepth
    }

    /// The next element of the array the last value handed on sat in starts: only its index is new.
    func handOverElement(_ index: Int) {
        assert(valueIndex >= 0, "DecodingRun: an element handed on without its array's path")
        valueIndex = index
    }

    /// The JSON path of the value being built: `$`, `$.data.items`, `$.data.items[3]`.
    var valuePath: String { valueIndex < 0 ? valuePathBase : valuePathBase + "[\(valueIndex)]" }

    /// The value to update, given once.
    func takeSeed() -> Any? {
        defer {
            seed = nil
            hasSeed = false
        }
        return seed
    }

    /// The ``valueFailure``, given once.
    func takeValueFailure() -> (error: any Error, offset: Int)? {
        defer { valueFailure = nil }
        return valueFailure
    }

    /// What the run's `Decodable` values share.
    var codable: CodableContext {
        if let codableContext { return codableContext }
        let context = CodableContext(options: options)
        codableContext = context
        return context
    }

    /// Makes `tokenizer` the one whose position ``offset`` reads (the pipeline calls it once, after making it).
    func attach(_ tokenizer: Tokenizer) {
        self.tokenizer = .passUnretained(tokenizer)
    }

    /// The byte offset just past the token being handled (0 before a tokenizer is attached).
    @inline(__always)
    var offset: Int { tokenizer?._withUnsafeGuaranteedRef { $0.offset } ?? 0 }

    /// Whether a string's bytes, during its event, are the document's text between its quotes, with nothing to
    /// escape but `/` (``Tokenizer/isVerbatim(_:)``); `false` when no tokenizer reads the run's input.
    @inline(__always)
    func isVerbatim(_ bytes: UnsafeRawBufferPointer) -> Bool {
        tokenizer?._withUnsafeGuaranteedRef { $0.isVerbatim(bytes) } ?? false
    }

    /// Whether a string's bytes, during its event, are the document's text between its quotes in a chunk that holds
    /// only ASCII (``Tokenizer/isVerbatimASCII(_:)``); `false` when no tokenizer reads the run's input.
    @inline(__always)
    func isKnownASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        tokenizer?._withUnsafeGuaranteedRef { $0.isVerbatimASCII(bytes) } ?? false
    }

    /// The string that `bytes` make, 1 to ``String/inlineUTF8Capacity`` of them, well-formed UTF-8 (``String/init(jsonBytes:knownASCII:)``'s
    /// precondition): from the run's ``ShortStringCache`` when it was made before.
    @inline(__always)
    func shortString(_ bytes: UnsafeRawBufferPointer) -> String {
        if let shortStrings { return shortStrings.string(bytes) }
        return shortStringBeforeTable(bytes)
    }

    /// A short string before the run has a table: counted, and the table made at the
    /// ``ShortStringCache/madeBeforeTable``-th. Both properties are only ever assigned (never passed `inout`), so
    /// that every access to them is an instant one and the compiler checks their exclusivity statically; one
    /// `inout` use put a runtime check on every look-up.
    @inline(never)
    private func shortStringBeforeTable(_ bytes: UnsafeRawBufferPointer) -> String {
        shortStringsMade &+= 1
        if shortStringsMade == ShortStringCache.madeBeforeTable { shortStrings = ShortStringCache() }
        return String(jsonBytes: bytes)
    }

    /// Stops the run with `failure` (a later one does not replace it); returns `false`, for the stage to return to
    /// the tokenizer.
    func fail(_ failure: BuildFailure) -> Bool {
        if self.failure == nil { self.failure = failure }
        return false
    }
}
