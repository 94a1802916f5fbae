/// Fills one model: `Model()`, `willStartMapping()`, the properties, `didFinishMapping()`.
final class ModelFrame<Model: HandyJSON>: PropertyFrame {
    private let storage = UnsafeMutablePointer<Model>.allocate(capacity: 1)
    private var isLive = false

    override init(opener: ValueCodec, table: FieldTable) {
        super.init(opener: opener, table: table)
        if table.candidateCount > 0 { bestCandidates = .allocate(capacity: table.candidateCount) }
    }

    deinit {
        discard()
        storage.deallocate()
        bestCandidates.deallocate()
    }

    override func begin(_ builder: Builder) {
        if builder.run.hasSeed && builder.depth == 1 {
            _slowpath_beginFromSeed(builder)
        } else {
            UnsafeMutableRawPointer(storage).initializeMemory(as: Model.self, to: Model())
        }
        isLive = true
        beginProperties(
            at: withTable({ $0.isClass })
                ? ModelStorage.objectBase(referenceAt: storage) : UnsafeMutableRawPointer(storage))
        if !bestCandidates.isEmpty { bestCandidates.update(repeating: .max) }
        storage.pointee.willStartMapping()
    }

    /// `update(object:from:)`'s seed; out of line, as mentioning `Model?` costs a metadata look-up on every call.
    @inline(never)
    private func _slowpath_beginFromSeed(_ builder: Builder) {
        if let seed = builder.run.takeSeed() as? Model {
            storage.initialize(to: seed)
        } else {
            storage.initialize(to: Model())
        }
    }

    override func finish(_ builder: Builder) -> Bool {
        storage.pointee.didFinishMapping()
        return true
    }

    override func moveValue(to target: UnsafeMutableRawPointer, mode: StoreMode) {
        isLive = false
        ModelStorage.move(from: storage, to: target, mode: mode)
    }
    override func takeAny() -> Any {
        isLive = false
        return storage.move()
    }
    override func discard() {
        if isLive {
            storage.deinitialize(count: 1)
            isLive = false
        }
    }
}
