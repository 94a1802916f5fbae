/// The object at a nested key path's first segments (`friend` in `friend.name`): written straight into the model.
final class PathCodec: ValueCodec, @unchecked Sendable {
    var table: FieldTable!

    init() { super.init(valueType: Void.self, storesFinishedFrames: true) }

    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: true) { PathFrame(opener: self, table: table) }
    }
    /// The values were written in place while the object streamed past.
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool { true }
    /// `source` is the owning model's base (a path slot's offset is 0): its properties are written as this object.
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        try table.openObject(base: source, owner: self, on: &run)
    }
    override var expectation: String { "an object" }
}

final class PathFrame: PropertyFrame {
    override func begin(_ builder: Builder) {
        // The frame that opened this one (the model's or an outer path's) owns the properties and candidates seen.
        guard let owner = builder.topPropertyFrame else {
            fatalError("PathFrame: opened by a frame without properties")
        }
        beginProperties(at: owner.propertyBase.unsafelyUnwrapped)
        bestCandidates = owner.bestCandidates
    }
}
