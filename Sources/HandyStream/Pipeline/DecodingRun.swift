/// What the stages of one pipeline share, instead of each other's fields: options and cap, the tokenizer's position,
/// where the value being built sits, the one failure slot, the value to update, the `Decodable` context.
final class DecodingRun {
    let options: DecodingOptions
    /// The nesting cap for the whole document, every container counted; any cap, `.max` too (the stack grows as met).
    let maximumDepth: Int
    /// Levels the builder may open below the value it is given: the cap less the containers around that value.
    private(set) var depthAllowance: Int
    /// The value's JSON path in two parts, so that an element costs no string work: ``valuePath`` joins them.
    private var valuePathBase = "$"
    /// Element streaming: the index of the element being built in the array at ``valuePathBase``, or -1.
    private var valueIndex = -1
    /// The value `update(object:from:)` gives the root model in place of a new one, until taken (``takeSeed()``).
    private var seed: Any?
    /// Whether ``seed`` holds a value: a flag, so that asking (each model that starts does) reads no `Any`.
    private(set) var hasSeed: Bool
    private(set) var codableContext: CodableContext?
    /// The tokenizer reading the run's input, unretained: the pipeline owns it and outlives every event.
    private var tokenizer: Unmanaged<Tokenizer>?
    private(set) var failure: BuildFailure?
    /// The error a value's own `init(from:)` threw (at the root, or as a scalar anywhere), with its token's offset.
    var valueFailure: (error: any Error, offset: Int)?
    /// The short strings made so far, once ``shortStringsMade`` reaches ``ShortStringCache/madeBeforeTable``.
    private var shortStrings: ShortStringCache?
    private var shortStringsMade = 0

    /// A JSONPath query's matches' locations, in the order their values are delivered, when asked for.
    private(set) var locations: [[JSONPath.Step]]?
    /// Where the value the path filter handed on last sits (a query stage's candidate), when locations are recorded.
    var candidateLocation: [JSONPath.Step] = []

    var recordsLocations: Bool { locations != nil }

    func recordLocations() { locations = locations ?? [] }

    func record(_ location: [JSONPath.Step]) { locations?.append(location) }

    /// The value last recorded didn't fit and was passed over: it has no location.
    func forgetLastLocation() { if locations?.isEmpty == false { locations?.removeLast() } }

    /// The first `count` locations recorded and not yet taken (a match begun and not complete stays).
    func takeLocations(upTo count: Int) -> [[JSONPath.Step]] {
        guard var all = locations else { return [] }
        let taken = Array(all.prefix(max(0, count)))
        all.removeFirst(taken.count)
        locations = all
        return taken
    }

    init(options: DecodingOptions, seed: Any? = nil) {
        self.options = options
        self.seed = seed
        hasSeed = seed != nil
        maximumDepth = min(max(1, options.maximumDepth), Int.max - 1)
        depthAllowance = maximumDepth
    }

    deinit {
        shortStrings?.free()
        codableContext?.end()
    }

    /// A value the path filter hands on starts: at `path` (element `index` there), inside `outerDepth` containers.
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

    func takeSeed() -> Any? {
        defer {
            seed = nil
            hasSeed = false
        }
        return seed
    }

    func takeValueFailure() -> (error: any Error, offset: Int)? {
        defer { valueFailure = nil }
        return valueFailure
    }

    var codable: CodableContext {
        if let codableContext { return codableContext }
        let context = CodableContext(options: options)
        codableContext = context
        return context
    }

    func attach(_ tokenizer: Tokenizer) {
        self.tokenizer = .passUnretained(tokenizer)
    }

    /// The byte offset just past the token being handled (0 before a tokenizer is attached).
    @inline(__always)
    var offset: Int { tokenizer?._withUnsafeGuaranteedRef { $0.offset } ?? 0 }

    /// Whether a string's bytes, during its event, are verbatim document text (``Tokenizer/isVerbatim(_:)``).
    @inline(__always)
    func isVerbatim(_ bytes: UnsafeRawBufferPointer) -> Bool {
        tokenizer?._withUnsafeGuaranteedRef { $0.isVerbatim(bytes) } ?? false
    }

    /// The same, in a chunk that holds only ASCII (``Tokenizer/isVerbatimASCII(_:)``).
    @inline(__always)
    func isKnownASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        tokenizer?._withUnsafeGuaranteedRef { $0.isVerbatimASCII(bytes) } ?? false
    }

    /// The string `bytes` make (1 to ``String/inlineUTF8Capacity`` of valid UTF-8), from the run's cache once made.
    @inline(__always)
    func shortString(_ bytes: UnsafeRawBufferPointer) -> String {
        if let shortStrings { return shortStrings.string(bytes) }
        return shortStringBeforeTable(bytes)
    }

    /// Counts short strings until the table is made; both properties are only ever assigned, for static exclusivity.
    @inline(never)
    private func shortStringBeforeTable(_ bytes: UnsafeRawBufferPointer) -> String {
        shortStringsMade &+= 1
        if shortStringsMade == ShortStringCache.madeBeforeTable { shortStrings = ShortStringCache() }
        return String(jsonBytes: bytes)
    }

    /// Stops the run with `failure` (the first one stays); returns `false`, for the stage to return to the tokenizer.
    func fail(_ failure: BuildFailure) -> Bool {
        if self.failure == nil { self.failure = failure }
        return false
    }

    /// Fails for nesting past ``maximumDepth`` at `path`.
    func tooDeep(at path: String) -> Bool {
        fail(BuildFailure(kind: .tooDeep, message: "nesting deeper than \(maximumDepth) levels", path: path))
    }
}
