import Foundation

/// `Any`, filled with Foundation-style values as `JSONSerialization` makes them: `Int` (or `Double` when written with
/// a fraction or an exponent, or too large for `Int`), `String`, `Bool`, `[Any]`, `[String: Any]`, `NSNull`.
final class AnyCodec: ValueCodec, @unchecked Sendable {
    init() { super.init(valueType: Any.self, storesFinishedFrames: true) }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        ModelStorage.storeAny(NSNull(), at: target, mode: mode)
        return true
    }
    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        ModelStorage.storeAny(value, at: target, mode: mode)
        return true
    }
    override func storeNumber(
        _ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        guard let value = Self.foundationNumber(text) else { return false }
        ModelStorage.storeAny(value, at: target, mode: mode)
        return true
    }
    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        ModelStorage.storeAny(String(jsonBytes: bytes), at: target, mode: mode)
        return true
    }
    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: true) {
            DictionaryFrame<Any>(opener: self, value: self, finishing: AnyCodec.dictionaryFinishing)
        }
    }
    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: false) {
            ArrayFrame<Any>(opener: self, element: self, finishing: AnyCodec.arrayFinishing)
        }
    }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        ModelStorage.storeAny(frame.takeAny(), at: target, mode: mode)
        return true
    }
    /// Only numbers can fail to fit: `Any` holds them as `Int` or `Double`, as `JSONSerialization` does.
    override var expectation: String { "a JSON value (numbers within Double's range)" }
    override func isNil(_ source: UnsafeRawPointer) -> Bool {
        let value = ModelStorage.load(Any.self, from: source)
        return (value as? OptionalMarkerValue).map { $0.wrappedValue == nil } ?? false
    }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        try AnyWriter.write(ModelStorage.load(Any.self, from: source), to: &run)
    }

    /// Specialized here, where the element type is known.
    static let arrayFinishing = ArrayFinishing<Any>.make(specialized: true)
    static let dictionaryFinishing = DictionaryFinishing<Any>.make()

    static func foundationNumber(_ text: UnsafeRawBufferPointer) -> Any? {
        guard let decimal = DecimalText(text) else { return nil }
        if !decimal.hasFractionOrExponent, let value = decimal.integer(Int.self) { return value }
        return decimal.double(text: text)
    }
}
