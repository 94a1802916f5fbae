import Foundation

/// A codec whose scalars are built by `inner` as a `Scratch` in a temporary, then converted into place by ``adopt``
/// (``OptionalCodec`` wraps it, ``EnumCodec`` makes the case of that raw value).
class ConvertingCodec<Scratch>: ValueCodec, @unchecked Sendable {
    unowned(unsafe) let inner: ValueCodec

    init(inner: ValueCodec, valueType: Any.Type, storesFinishedFrames: Bool = false) {
        self.inner = inner
        super.init(valueType: valueType, storesFinishedFrames: storesFinishedFrames)
    }

    /// Moves the `Scratch` at `scratch` out and stores it converted at `target`; `false` if it does not convert.
    func adopt(_ scratch: UnsafeMutableRawPointer, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        preconditionFailure("ConvertingCodec: adopt is the subclass's")
    }

    @inline(__always)
    final func converting(
        _ target: UnsafeMutableRawPointer, _ mode: StoreMode, _ store: (UnsafeMutableRawPointer) -> Bool
    ) -> Bool {
        withUnsafeTemporaryAllocation(of: Scratch.self, capacity: 1) { buffer in
            let scratch = UnsafeMutableRawPointer(buffer.baseAddress!)
            guard store(scratch) else { return false }
            return adopt(scratch, at: target, mode: mode)
        }
    }

    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        converting(target, mode) { inner.storeBool(value, at: $0, mode: .initialize, builder) }
    }
    override func storeNumber(
        _ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        converting(target, mode) { inner.storeNumber(text, at: $0, mode: .initialize, builder) }
    }
    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        converting(target, mode) { inner.storeString(bytes, at: $0, mode: .initialize, builder) }
    }
}

/// `Wrapped?` and `Wrapped!`. As a property, `null` and misfits leave the default; as an element (`[Int?]`), `null` is
/// `nil`, and a misfit becomes `nil` instead of being dropped (``ValueCodec/isOptional``).
final class OptionalCodec<Wrapped>: ConvertingCodec<Wrapped>, @unchecked Sendable {
    init(wrapped: ValueCodec) {
        super.init(inner: wrapped, valueType: Wrapped?.self, storesFinishedFrames: true)
    }

    override func adopt(_ scratch: UnsafeMutableRawPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        ModelStorage.store(Optional(ModelStorage.take(Wrapped.self, from: scratch)), at: target, mode: mode)
        return true
    }

    override var isOptional: Bool { true }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        ModelStorage.store(Wrapped?.none, at: target, mode: mode)
        return true
    }
    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? { inner.openObject(builder) }
    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? { inner.openArray(builder) }
    override func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        converting(target, mode) { inner.storeReady(value, at: $0, mode: .initialize, builder) }
    }
    override func isNil(_ source: UnsafeRawPointer) -> Bool {
        ModelStorage.load(Wrapped?.self, from: source) == nil
    }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        if isNil(source) { return run.writer.null() }
        try inner.write(ModelStorage.payload(ofOptionalAt: source, Wrapped.self), to: &run)
    }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        converting(target, mode) { scratch in inner.storeValue(finishedIn: frame, at: scratch, mode: .initialize) }
    }
    override var expectation: String { inner.expectation }
}
