import Foundation

/// A property read through a transform (or a `HandyJSONCustomTransformable` type): its JSON value is built as a
/// Foundation-style `Any` and handed to the adapter; one that reads text (`specify(property:converter:)`) gets the
/// document's text instead. Transforms are made once by `mapping(mapper:)`, shared by every thread, and may keep state:
/// each call into one holds the codec's recursive lock (a transform may decode the same type).
final class TransformCodec: ValueCodec, @unchecked Sendable {
    private let adapter: ValueAdapter
    /// What builds the JSON value of an object or array: Foundation values, or compact text.
    private let subtreeCodec: ValueCodec
    private let name: String
    private let lock: NSRecursiveLock?

    init(adapter: ValueAdapter, anyCodec: AnyCodec, textCodec: ValueCodec, valueType: Any.Type, name: String) {
        self.adapter = adapter
        self.subtreeCodec = adapter.readsText ? textCodec : anyCodec
        self.name = name
        lock = adapter.callsSharedObject ? NSRecursiveLock() : nil
        super.init(valueType: valueType, storesFinishedFrames: true)
        isTransform = true
    }

    private func store(_ json: Any?, _ target: UnsafeMutableRawPointer, _ mode: StoreMode) -> Bool {
        lock?.lock()
        defer { lock?.unlock() }
        return adapter.fromJSON(json, target, mode)
    }

    /// The JSON value the adapter makes of the property at `source`, holding the lock.
    func json(_ source: UnsafeRawPointer) -> Any? {
        lock?.lock()
        defer { lock?.unlock() }
        return adapter.toJSON(source)
    }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        adapter.readsText ? false : store(nil, target, mode)
    }
    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        store(adapter.readsText ? (value ? "true" : "false") : value, target, mode)
    }
    override func storeNumber(
        _ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        if adapter.readsText { return store(builder.options.numberText(text), target, mode) }
        guard let number = AnyCodec.foundationNumber(text) else { return false }
        return store(number, target, mode)
    }
    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        store(String(jsonBytes: bytes), target, mode)
    }
    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? { subtreeCodec.openObject(builder) }
    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? { subtreeCodec.openArray(builder) }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        let value = frame.takeAny()
        return store(adapter.readsText ? (value as? JSONText)?.string as Any? : value, target, mode)
    }
    override var expectation: String { "a value \(name) accepts" }
    override func isNil(_ source: UnsafeRawPointer) -> Bool { json(source) == nil }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        guard let json = json(source) else { return run.writer.null() }
        try AnyWriter.write(json, to: &run)
    }
}

extension ValueAdapter {
    static func custom<T: HandyJSONCustomTransformable>(_: T.Type) -> ValueAdapter {
        ValueAdapter(
            callsSharedObject: false,
            fromJSON: { json, target, mode in
                guard let json, let value = T._transform(from: json) else { return false }
                ModelStorage.store(value, at: target, mode: mode)
                return true
            },
            toJSON: { source in ModelStorage.load(T.self, from: source)._plainValue() })
    }
}
