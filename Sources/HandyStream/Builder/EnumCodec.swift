import Foundation

/// A `HandyJSONEnum`: decoded as its raw value, then `init(rawValue:)`; an unknown raw value does not fit.
final class EnumCodec<E: RawRepresentable>: ValueCodec, @unchecked Sendable {
    unowned(unsafe) let raw: ValueCodec

    init(raw: ValueCodec) {
        self.raw = raw
        super.init(valueType: E.self)
    }

    @inline(__always)
    private func converting(
        _ target: UnsafeMutableRawPointer, _ mode: StoreMode, _ store: (UnsafeMutableRawPointer) -> Bool
    ) -> Bool {
        withUnsafeTemporaryAllocation(of: E.RawValue.self, capacity: 1) { scratch in
            let slot = UnsafeMutableRawPointer(scratch.baseAddress!)
            guard store(slot) else { return false }
            guard let value = E(rawValue: ModelStorage.take(E.RawValue.self, from: slot)) else { return false }
            ModelStorage.store(value, at: target, mode: mode)
            return true
        }
    }

    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        converting(target, mode) { raw.storeBool(value, at: $0, mode: .initialize, builder) }
    }
    override func storeNumber(
        _ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    )
        -> Bool
    {
        converting(target, mode) { raw.storeNumber(text, at: $0, mode: .initialize, builder) }
    }
    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    )
        -> Bool
    {
        converting(target, mode) { raw.storeString(bytes, at: $0, mode: .initialize, builder) }
    }
    override var expectation: String { "a raw value of \(E.self)" }
    /// A raw value is a scalar: its codec writes it at once, so the temporary outlives the call.
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        let rawValue = ModelStorage.load(E.self, from: source).rawValue
        try withUnsafePointer(to: rawValue) { try raw.write(UnsafeRawPointer($0), to: &run) }
    }
}

func openElements<Element>(_ elements: [Element], _ codec: ValueCodec, owner: ValueCodec, on run: inout EncodingRun)
    throws
{
    try run.open(ArrayCursor<Element>.self, owner: owner, isObject: false) { ArrayCursor(codec: codec) }
        .start(elements)
}
