import Foundation

/// A property read through a transform (or a `HandyJSONCustomTransformable` type): its JSON value is built as a
/// Foundation-style `Any` — for this property only, a scalar or its own subtree — and handed to the adapter.
///
/// An adapter that reads text (`specify(property:converter:)`) is given the document's own text instead: a number's
/// literal, a string's contents, `true`/`false`, or the compact JSON of an object or array.
///
/// Transforms and converters are objects made once, by `mapping(mapper:)`, and kept in the type's table, which every
/// thread shares; a `TransformOf` may capture state, and a subclass of a built-in transform may keep some. So every
/// call into one holds the codec's lock (recursive, so that a transform may decode with the same type), which makes
/// sharing them sound whatever they do. The lock is taken only for transformed properties, next to the `Any` each
/// of them is given; `HandyJSONCustomTransformable` types are static functions and take no lock.
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

    /// Stores the value the adapter makes of `json`, holding the lock.
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
    )
        -> Bool
    {
        if adapter.readsText { return store(builder.options.numberText(text), target, mode) }
        guard let number = AnyCodec.foundationNumber(text) else { return false }
        return store(number, target, mode)
    }
    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    )
        -> Bool
    {
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
    /// The adapter of a `HandyJSONCustomTransformable` type.
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
