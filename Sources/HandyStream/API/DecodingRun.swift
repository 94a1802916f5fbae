/// What the stages of one decoding pipeline share: made and owned by the pipeline, and given to each stage when it
/// is made. It holds the tokenizer's position (the offset of the token being handled, read in this one place) and
/// the one failure slot where a stage that stops the run (the builder, the path filter) says why. Stages hand events
/// and values on through their own interfaces; what they must all see is here, not in each other's fields.
final class DecodingRun {
    let options: DecodingOptions
    /// The tokenizer reading the run's input, unretained: the pipeline owns it and outlives every event.
    private var tokenizer: Unmanaged<Tokenizer>?
    /// Why a stage stopped the run, when one did.
    private(set) var failure: BuildFailure?

    init(options: DecodingOptions) {
        self.options = options
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
