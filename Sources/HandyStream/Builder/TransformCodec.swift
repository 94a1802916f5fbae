import Foundation

/// A property read through a transform (or a `HandyJSONCustomTransformable` type): its JSON value is built as a
/// Foundation-style `Any` — for this property only, a scalar or its own subtree — and handed to the adapter.
///
/// An adapter that reads text (`specify(property:converter:)`) is given the document's own text instead: a number's
/// literal, a string's contents, `true`/`false`, or the compact JSON of an object or array.
final class TransformCodec: ValueCodec, @unchecked Sendable {
    let adapter: ValueAdapter
    /// What builds the JSON value of an object or array: Foundation values, or compact text.
    private let subtreeCodec: ValueCodec
    private let name: String

    init(adapter: ValueAdapter, anyCodec: AnyCodec, textCodec: ValueCodec, valueType: Any.Type, name: String) {
        self.adapter = adapter
        self.subtreeCodec = adapter.readsText ? textCodec : anyCodec
        self.name = name
        super.init(valueType: valueType)
    }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        adapter.readsText ? false : adapter.fromJSON(nil, target, mode)
    }
    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        adapter.fromJSON(adapter.readsText ? (value ? "true" : "false") : value, target, mode)
    }
    override func storeNumber(_ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        if adapter.readsText { return adapter.fromJSON(String(jsonBytes: text), target, mode) }
        guard let number = AnyCodec.foundationNumber(text) else { return false }
        return adapter.fromJSON(number, target, mode)
    }
    override func storeString(_ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        adapter.fromJSON(String(jsonBytes: bytes), target, mode)
    }
    override func openObject(_ builder: Builder) -> Frame? { subtreeCodec.openObject(builder) }
    override func openArray(_ builder: Builder) -> Frame? { subtreeCodec.openArray(builder) }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) {
        let value = frame.takeAny()
        _ = adapter.fromJSON(adapter.readsText ? (value as? JSONText)?.string : value, target, mode)
    }
    override var expectation: String { "a value \(name) accepts" }
    override func isNil(_ source: UnsafeRawPointer) -> Bool { adapter.toJSON(source) == nil }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        guard let json = adapter.toJSON(source) else { return run.writer.null() }
        try AnyWriter.write(json, to: &run)
    }
}

extension ValueAdapter {
    /// The adapter of a `HandyJSONCustomTransformable` type.
    static func custom<T: HandyJSONCustomTransformable>(_: T.Type) -> ValueAdapter {
        ValueAdapter(
            fromJSON: { json, target, mode in
                guard let json, let value = T._transform(from: json) else { return false }
                ModelStorage.store(value, at: target, mode: mode)
                return true
            },
            toJSON: { source in source.assumingMemoryBound(to: T.self).pointee._plainValue() })
    }
}
