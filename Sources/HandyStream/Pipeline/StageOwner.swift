/// What the builder and the path filter tell the stage that owns them and hands the tokenizer between them (the
/// ``DecodingPipeline``). Neither changes another stage's fields: they report, and the owner acts.
///
/// A class for the owner to subclass, not a protocol: the stages hold their owner unretained, as `Unmanaged`, and call
/// it without reference counting. Through an `unowned(unsafe)` protocol reference each call was wrapped in a retain and
/// a release, three times for every streamed element.
class StageOwner {
    /// The builder's root value is complete (stored, or skipped because it did not fit). Returns whether to keep
    /// reading.
    func builderCompletedRoot(_ builder: Builder) -> Bool { preconditionFailure("StageOwner: the owner's to answer") }

    /// A value matching the path starts (the filter has told the run where it sits): its events go straight to the
    /// builder from now on, until it is complete.
    func pathFilterHandsOver(_ filter: PathFilter) { preconditionFailure("StageOwner: the owner's to answer") }

    /// The value handed over is complete: events come back to the filter.
    func pathFilterTakesBack(_ filter: PathFilter) { preconditionFailure("StageOwner: the owner's to answer") }
}
