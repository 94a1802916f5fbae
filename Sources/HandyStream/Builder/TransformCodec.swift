import Foundation

/// A property read through a transform (or a `HandyJSONCustomTransformable` type): its JSON value is built as a
/// Foundation-style `Any` — for this property only, a scalar or its own subtree — and handed to the adapter.
final class TransformCodec: ValueCodec, @unchecked Sendable {
    let adapter: ValueAdapter
    private let anyCodec: AnyCodec
    private let name: String

    init(adapter: ValueAdapter, anyCodec: AnyCodec, valueType: Any.Type, name: String) {
        self.adapter = adapter
        self.anyCodec = anyCodec
        self.name = name
        super.init(valueType: valueType)
    }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        adapter.fromJSON(nil, target, mode)
    }
    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        adapter.fromJSON(value, target, mode)
    }
    override func storeNumber(_ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        guard let number = AnyCodec.foundationNumber(text) else { return false }
        return adapter.fromJSON(number, target, mode)
    }
    override func storeString(_ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        adapter.fromJSON(String(jsonBytes: bytes), target, mode)
    }
    override func openObject(_ builder: Builder) -> Frame? { anyCodec.openObject(builder) }
    override func openArray(_ builder: Builder) -> Frame? { anyCodec.openArray(builder) }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) {
        _ = adapter.fromJSON(frame.takeAny(), target, mode)
    }
    override var expectation: String { "a value \(name) accepts" }
    override func isNil(_ source: UnsafeRawPointer) -> Bool { adapter.toJSON(source) == nil }
    override func write(_ source: UnsafeRawPointer, to writer: inout JSONWriter) throws {
        guard let json = adapter.toJSON(source) else { return writer.null() }
        try AnyWriter.write(json, to: &writer)
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
