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
    /// Made once, so that opening a cursor asks the runtime for no type metadata.
    private let cursorType: EncodeCursor.Type = DictionaryCursor<Value>.self

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
        try run.open(cursorType, owner: self, isObject: true, source: source) { DictionaryCursor<Value>(codec: value) }
    }
    override var expectation: String { "an object" }
}

final class DictionaryFrame<Value>: ElementsFrame {
    private let finishing: DictionaryFinishing<Value>
    /// The same buffer as the base's, typed (held twice on purpose, as in ``ArrayFrame``).
    private let values: ElementBuffer<Value>

    init(opener: ValueCodec, value: ValueCodec, finishing: DictionaryFinishing<Value>) {
        let values = ElementBuffer<Value>()
        self.values = values
        self.finishing = finishing
        super.init(opener: opener, element: value, elements: values, isObject: true)
    }

    private func take() -> [String: Value] { values.takeAll { finishing.take(keys, $0, $1) } }
    override func moveValue(to target: UnsafeMutableRawPointer, mode: StoreMode) {
        ModelStorage.store(take(), at: target, mode: mode)
    }
    override func takeAny() -> Any { take() }
    override func discard() { values.discard() }
}
