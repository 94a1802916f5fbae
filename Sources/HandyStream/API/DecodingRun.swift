/// What the stages of one decoding pipeline share: made and owned by the pipeline, and given to each stage when it
/// is made. It holds the options, the tokenizer's position (the offset of the token being handled, read in this one
/// place), the one failure slot where a stage that stops the run (the builder, the path filter) says why, the value
/// to update in place, and what the run's `Decodable` values share. Stages hand events and values on through their
/// own interfaces; what they must all see is here, not in each other's fields.
final class DecodingRun {
    let options: DecodingOptions
    /// An existing value for the root model to be updated in place of a new one (`update(object:from:)`), until the
    /// root model takes it (``takeSeed()``).
    private var seed: Any?
    /// What the run's `Decodable` values share (made when the first one is met).
    private(set) var codableContext: CodableContext?
    /// The tokenizer reading the run's input, unretained: the pipeline owns it and outlives every event.
    private var tokenizer: Unmanaged<Tokenizer>?
    /// Why a stage stopped the run, when one did.
    private(set) var failure: BuildFailure?

    init(options: DecodingOptions, seed: Any? = nil) {
        self.options = options
        self.seed = seed
    }

    /// Whether a value to update is waiting for the root model.
    var hasSeed: Bool { seed != nil }

    /// The value to update, given once.
    func takeSeed() -> Any? {
        defer { seed = nil }
        return seed
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

    /// Stops the run with `failure` (a later one does not replace it); returns `false`, for the stage to return to
    /// the tokenizer.
    func fail(_ failure: BuildFailure) -> Bool {
        if self.failure == nil { self.failure = failure }
        return false
    }
}
