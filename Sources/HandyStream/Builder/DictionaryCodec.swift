import Foundation

/// How a dictionary frame makes its `[String: Value]` (the last duplicate key wins); like ``ArrayFinishing``.
@usableFromInline
struct DictionaryFinishing<Value>: @unchecked Sendable {
    /// The keys, and as many values from the pointer on, which it moves out.
    let take: ([String], UnsafeMutablePointer<Value>, Int) -> [String: Value]

    @usableFromInline
    init(take: @escaping ([String], UnsafeMutablePointer<Value>, Int) -> [String: Value]) { self.take = take }

    @inlinable @inline(__always)
    static func make() -> DictionaryFinishing {
        DictionaryFinishing { keys, values, count in
            // A plain loop: `Dictionary(zip(…), uniquingKeysWith:)` would look up metadata per pair when unspecialized.
            var dictionary = [String: Value](minimumCapacity: count)
            for index in 0..<count { dictionary.updateValue((values + index).move(), forKey: keys[index]) }
            return dictionary
        }
    }
}

/// `[String: Value]`: each key becomes a `String`; values that don't fit are left out (nil for optional values).
final class DictionaryCodec<Value>: ValueCodec, @unchecked Sendable {
    unowned(unsafe) let value: ValueCodec
    let finishing: DictionaryFinishing<Value>
    init(value: ValueCodec, finishing: DictionaryFinishing<Value> = .make()) {
        self.value = value
        self.finishing = finishing
        super.init(valueType: [String: Value].self)
    }

    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: true) {
            DictionaryFrame<Value>(opener: self, value: value, finishing: finishing)
        }
    }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        let sortedKeys = run.options.sortedKeys
        try run.open(MembersCursor.self, owner: self, isObject: true) { MembersCursor(codec: value) }
            .start(ModelStorage.load([String: Value].self, from: source), sortedKeys: sortedKeys)
    }
    override var expectation: String { "an object" }
}

/// What a dictionary frame does with each entry, in non-generic code (see ``SlotBuffer``).
class DictionaryEntriesFrame: Frame {
    private let valueReference: Unmanaged<ValueCodec>
    fileprivate final var keys: [String] = []
    /// `keys.count` may be one more than the values while a value is pending.
    private let values: SlotBuffer

    fileprivate init(opener: ValueCodec, value: ValueCodec, values: SlotBuffer) {
        valueReference = .passUnretained(value)
        self.values = values
        super.init(opener: opener, isObject: true)
    }

    override func begin(_ builder: Builder) {
        keys.removeAll(keepingCapacity: true)
        values.count = 0
    }

    @inline(__always)
    private func value<Result>(_ body: (ValueCodec) -> Result) -> Result { valueReference.withInstance(body) }

    @inline(__always)
    private var slot: UnsafeMutableRawPointer { values.nextSlot() }

    @inline(__always)
    private func inserted(_ stored: Bool, _ builder: Builder, found: @autoclosure () -> String) -> Bool {
        if stored {
            values.commit()
            return true
        }
        return valueDidNotFit(builder, found: found())
    }

    /// Reports a misfit while its key is current (the path names it): `nil` for `[String: T?]`, else the entry goes.
    private func valueDidNotFit(_ builder: Builder, found: String) -> Bool {
        let (proceed, kept) = value {
            values.didNotFit(
                $0, found: found, kept: "; the value became nil", leftOut: "; the entry was left out",
                builder)
        }
        if !kept { keys.removeLast() }
        return proceed
    }

    override func key(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        keys.append(String(jsonBytes: bytes))
        return true
    }
    override func null(_ builder: Builder) -> Bool {
        inserted(value { $0.storeNull(at: slot, mode: .initialize, builder) }, builder, found: "null")
    }
    override func bool(_ flag: Bool, _ builder: Builder) -> Bool {
        inserted(
            value { $0.storeBool(flag, at: slot, mode: .initialize, builder) }, builder, found: flag ? "true" : "false")
    }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        inserted(
            value { $0.storeNumber(text, at: slot, mode: .initialize, builder) }, builder,
            found: "the number " + builder.options.numberText(text))
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        inserted(value { $0.storeString(bytes, at: slot, mode: .initialize, builder) }, builder, found: "a string")
    }
    override func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? {
        if let child = children.open(0, with: valueReference, isObject: isObject, builder) { return child }
        _ = valueDidNotFit(builder, found: isObject ? "an object" : "an array")
        return nil
    }
    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        inserted(
            value { $0.storeValue(finishedIn: child, at: slot, mode: .initialize) }, builder,
            found: child.found)
    }
    override func ready(_ ready: Any, _ builder: Builder) -> Bool? {
        guard value({ $0.storeReady(ready, at: slot, mode: .initialize, builder) }) else { return nil }
        values.commit()
        return true
    }
    /// The key of a skipped value was already dealt with by ``openChild(isObject:_:)``.
    override func skipped() {}
    override final func appendPosition(to path: inout String) {
        if let key = keys.last { path += "." + key }
    }
}

final class DictionaryFrame<Value>: DictionaryEntriesFrame {
    private let finishing: DictionaryFinishing<Value>
    /// The same buffer as the base's, typed (held twice on purpose, as in ``ArrayFrame``).
    private let values: ElementBuffer<Value>

    init(opener: ValueCodec, value: ValueCodec, finishing: DictionaryFinishing<Value>) {
        let values = ElementBuffer<Value>()
        self.values = values
        self.finishing = finishing
        super.init(opener: opener, value: value, values: values)
    }

    private func take() -> [String: Value] { values.takeAll { finishing.take(keys, $0, $1) } }
    override func moveValue(to target: UnsafeMutableRawPointer, mode: StoreMode) {
        ModelStorage.store(take(), at: target, mode: mode)
    }
    override func takeAny() -> Any { take() }
    override func discard() { values.discard() }
}
