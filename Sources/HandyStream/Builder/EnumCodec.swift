import Foundation

/// A `HandyJSONEnum`: decoded as its raw value, then `init(rawValue:)`; an unknown raw value does not fit.
final class EnumCodec<E: RawRepresentable>: ConvertingCodec<E.RawValue>, @unchecked Sendable {
    init(raw: ValueCodec) { super.init(inner: raw, valueType: E.self) }

    override func adopt(_ scratch: UnsafeMutableRawPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        guard let value = E(rawValue: ModelStorage.take(E.RawValue.self, from: scratch)) else { return false }
        ModelStorage.store(value, at: target, mode: mode)
        return true
    }

    override var expectation: String { "a raw value of \(E.self)" }
    /// A raw value is a scalar: its codec writes it at once, so the temporary outlives the call.
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        let rawValue = ModelStorage.load(E.self, from: source).rawValue
        try withUnsafePointer(to: rawValue) { try inner.write(UnsafeRawPointer($0), to: &run) }
    }
}
