/// A `HandyJSON` model, struct or class: an object fills its properties through the type's ``FieldTable``.
final class ModelCodec<Model: HandyJSON>: ValueCodec, @unchecked Sendable {
    /// Set once while the type registry builds this codec, before the codec is published to other threads.
    var table: FieldTable!

    init() {
        super.init(valueType: Model.self)
        isModel = true
    }

    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: true) { ModelFrame<Model>(opener: self, table: table) }
    }
    override var expectation: String { "an object" }
    override func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        guard let model = value as? Model else { return false }
        ModelStorage.store(model, at: target, mode: mode)
        return true
    }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        guard table.isClass else { return try table.openObject(base: source, owner: self, on: &run) }
        // An instance of a subclass is written with all its properties, as its own type's table lists them.
        let dynamicType = type(of: ModelStorage.load(Model.self, from: source))
        if ObjectIdentifier(dynamicType) != ObjectIdentifier(Model.self) {
            return try _slowpath_writeSubclass(dynamicType, source, to: &run)
        }
        try table.openObject(base: ModelStorage.objectBase(referenceAt: source), owner: self, on: &run)
    }

    @inline(never)
    private func _slowpath_writeSubclass(
        _ dynamicType: Any.Type, _ source: UnsafeRawPointer, to run: inout EncodingRun
    ) throws {
        guard let codec = TypeRegistry.codec(for: dynamicType).codec, codec !== self else {
            return try table.openObject(base: ModelStorage.objectBase(referenceAt: source), owner: self, on: &run)
        }
        try codec.write(source, to: &run)
    }
}

extension FieldTable {
    func openObject(base: UnsafeRawPointer, owner: ValueCodec, on run: inout EncodingRun) throws {
        let options = run.options
        try run.open(ObjectCursor.self, owner: owner, isObject: true) { ObjectCursor() }
            .start(self, base: base, options: options)
    }
}
