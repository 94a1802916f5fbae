/// A `HandyJSON` model, struct or class: an object fills its properties through the type's ``FieldTable``.
final class ModelCodec<Model: HandyJSON>: ValueCodec, @unchecked Sendable {
    /// Set once while the type registry builds this codec, before the codec is published to other threads.
    var table: FieldTable!

    init() { super.init(valueType: Model.self) }

    override func openObject(_ builder: Builder) -> Frame? {
        builder.frame(openedBy: self, isObject: true) { ModelFrame<Model>(opener: self, table: table) }
    }
    override var expectation: String { "an object" }
}

/// Fills one model: `Model()`, `willStartMapping()`, each known key's value written at its property's offset,
/// `didFinishMapping()`. Unknown keys' values are skipped; `null` and values that don't fit leave the default.
final class ModelFrame<Model: HandyJSON>: Frame {
    /// Kept alive by the model's codec, which lives as long as the process.
    private let tableReference: Unmanaged<FieldTable>
    @inline(__always) private var table: FieldTable { tableReference.takeUnretainedValue() }
    private let storage = UnsafeMutablePointer<Model>.allocate(capacity: 1)
    private var isLive = false
    /// Where the properties' offsets count from: the struct itself, or the class instance.
    private var base: UnsafeMutableRawPointer
    /// The slot of the key just read, or -1 for a key the model does not have.
    private var pending = -1
    /// The slot expected next: documents tend to list keys in the order models declare them.
    private var predicted = 0
    /// The last key the model did not have, kept only to name it in error paths.
    private var unknownKey: [UInt8] = []
    /// The key being read is `unknownKey`.
    private var inUnknownKey = false

    init(opener: ValueCodec, table: FieldTable) {
        self.tableReference = .passUnretained(table)
        self.base = UnsafeMutableRawPointer(storage)
        super.init(opener: opener, isObject: true)
    }

    deinit {
        discard()
        storage.deallocate()
    }

    override func begin(_ builder: Builder) {
        if builder.seed != nil && builder.depth == 1 {
            _slowpath_beginFromSeed(builder)
        } else {
            storage.initialize(to: Model())
        }
        isLive = true
        pending = -1
        inUnknownKey = false
        predicted = 0
        base = table.isClass ? ModelStorage.objectBase(referenceAt: storage) : UnsafeMutableRawPointer(storage)
        storage.pointee.willStartMapping()
    }

    /// `update(object:from:)`: the root model starts as the caller's value. Out of line, because a generic function
    /// that mentions `Model?` asks the runtime for that type's metadata on entry, on every call.
    @inline(never)
    private func _slowpath_beginFromSeed(_ builder: Builder) {
        if let seed = builder.seed as? Model {
            storage.initialize(to: seed)
        } else {
            storage.initialize(to: Model())
        }
        builder.seed = nil
    }

    override func key(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        pending = tableReference.withInstance { $0.slotIndex(forKey: bytes, predicted: predicted) }
        predicted = pending + 1
        inUnknownKey = pending < 0
        if inUnknownKey {
            unknownKey.removeAll(keepingCapacity: true)
            unknownKey.append(contentsOf: bytes)
        }
        return true
    }

    /// Stores a scalar in the pending property; a value that doesn't fit keeps the default.
    @inline(__always)
    private func scalar(
        _ builder: Builder, _ store: (ValueCodec, UnsafeMutableRawPointer) -> Bool, found: @autoclosure () -> String
    ) -> Bool {
        guard pending >= 0 else { return true }
        let slot = table.slot(pending)
        defer { pending = -1 }
        let target = ModelStorage.field(base, offset: slot.pointee.offset)
        if slot.pointee.codecReference.withInstance({ store($0, target) }) { return true }
        return builder.fallback("expected \(slot.pointee.codec.expectation), found \(found()); the default was kept")
    }

    // `null` leaves the default, as in HandyJSON.
    override func null(_ builder: Builder) -> Bool {
        pending = -1
        return true
    }
    override func bool(_ value: Bool, _ builder: Builder) -> Bool {
        scalar(builder, { $0.storeBool(value, at: $1, mode: .assign) }, found: value ? "true" : "false")
    }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        scalar(builder, { $0.storeNumber(text, at: $1, mode: .assign) },
               found: "the number " + String(decoding: text, as: UTF8.self))
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        scalar(builder, { $0.storeString(bytes, at: $1, mode: .assign) }, found: "a string")
    }

    override func openChild(isObject: Bool, _ builder: Builder) -> Frame? {
        guard pending >= 0 else { return nil }
        let codec = table.slot(pending).pointee.codecReference
        if let child = codec.withInstance({ isObject ? $0.openObject(builder) : $0.openArray(builder) }) {
            return child
        }
        _ = builder.fallback(
            "expected \(codec.withInstance { $0.expectation }), found \(isObject ? "an object" : "an array"); "
                + "the default was kept")
        return nil
    }

    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        let slot = table.slot(pending)
        let target = ModelStorage.field(base, offset: slot.pointee.offset)
        slot.pointee.codecReference.withInstance { $0.store(finished: child, at: target, mode: .assign) }
        pending = -1
        return true
    }

    override func skipped() { pending = -1 }

    override func finish(_ builder: Builder) -> Bool {
        storage.pointee.didFinishMapping()
        return true
    }

    override func moveValue(to target: UnsafeMutableRawPointer, mode: StoreMode) {
        isLive = false
        ModelStorage.store(storage.move(), at: target, mode: mode)
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
    override func appendPosition(to path: inout String) {
        if pending >= 0 {
            path += "." + table.slot(pending).pointee.key
        } else if inUnknownKey {
            path += "." + String(decoding: unknownKey, as: UTF8.self)
        }
    }
}
