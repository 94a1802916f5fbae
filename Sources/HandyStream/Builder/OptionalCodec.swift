import Foundation

/// `Wrapped?` and `Wrapped!`. As a property, `null` and misfits leave the default; as an element (`[Int?]`), `null` is
/// `nil`, and a misfit becomes `nil` instead of being dropped (``ValueCodec/isOptional``).
final class OptionalCodec<Wrapped>: ValueCodec, @unchecked Sendable {
    unowned(unsafe) let wrapped: ValueCodec

    init(wrapped: ValueCodec) {
        self.wrapped = wrapped
        super.init(valueType: Wrapped?.self, storesFinishedFrames: true)
    }

    @inline(__always)
    private func wrapping(
        _ target: UnsafeMutableRawPointer, _ mode: StoreMode, _ store: (UnsafeMutableRawPointer) -> Bool
    ) -> Bool {
        withUnsafeTemporaryAllocation(of: Wrapped.self, capacity: 1) { scratch in
            let raw = UnsafeMutableRawPointer(scratch.baseAddress!)
            guard store(raw) else { return false }
            ModelStorage.store(Optional(ModelStorage.take(Wrapped.self, from: raw)), at: target, mode: mode)
            return true
        }
    }

    override var isOptional: Bool { true }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        ModelStorage.store(Wrapped?.none, at: target, mode: mode)
        return true
    }
    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        wrapping(target, mode) { wrapped.storeBool(value, at: $0, mode: .initialize, builder) }
    }
    override func storeNumber(
        _ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    )
        -> Bool
    {
        wrapping(target, mode) { wrapped.storeNumber(text, at: $0, mode: .initialize, builder) }
    }
    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    )
        -> Bool
    {
        wrapping(target, mode) { wrapped.storeString(bytes, at: $0, mode: .initialize, builder) }
    }
    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? { wrapped.openObject(builder) }
    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? { wrapped.openArray(builder) }
    override func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        wrapping(target, mode) { wrapped.storeReady(value, at: $0, mode: .initialize, builder) }
    }
    override func isNil(_ source: UnsafeRawPointer) -> Bool {
        ModelStorage.load(Wrapped?.self, from: source) == nil
    }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        if isNil(source) { return run.writer.null() }
        try wrapped.write(ModelStorage.payload(ofOptionalAt: source, Wrapped.self), to: &run)
    }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        wrapping(target, mode) { scratch in wrapped.storeValue(finishedIn: frame, at: scratch, mode: .initialize) }
    }
    override var expectation: String { wrapped.expectation }
}
