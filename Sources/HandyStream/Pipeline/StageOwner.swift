/// What the builder and the path filter report to the stage that owns them, the ``DecodingPipeline``, which acts. A
/// class, not a protocol: the stages hold it as `Unmanaged` and call it without reference counting.
class StageOwner {
    /// The builder's root value is complete (stored, or skipped as a misfit). Returns whether to keep reading.
    func builderCompletedRoot(_ builder: Builder) -> Bool { preconditionFailure("StageOwner: the owner's to answer") }

    /// A value matching the path starts: its events go straight to the builder until it is complete.
    func pathFilterHandsOver(_ filter: PathFilter) { preconditionFailure("StageOwner: the owner's to answer") }

    /// The value handed over is complete: events come back to the filter.
    func pathFilterTakesBack(_ filter: PathFilter) { preconditionFailure("StageOwner: the owner's to answer") }
}
