import Foundation

// MARK: - Optional

/// `Wrapped?` and `Wrapped!`. As a property, `null` and values that don't fit leave the default; as an element of
/// a container (`[Int?]`, `[String: Int?]`), `null` is `nil`, and the frame makes a value that doesn't fit `nil`
/// instead of dropping it (see ``ValueCodec/isOptional``).
final class OptionalCodec<Wrapped>: ValueCodec, @unchecked Sendable {
    unowned(unsafe) let wrapped: ValueCodec

    init(wrapped: ValueCodec) {
        self.wrapped = wrapped
        super.init(valueType: Wrapped?.self)
    }

    /// Runs `store` into a temporary `Wrapped`, then wraps what it stored.
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

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        ModelStorage.store(Wrapped?.none, at: target, mode: mode)
        return true
    }
    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        wrapping(target, mode) { wrapped.storeBool(value, at: $0, mode: .initialize) }
    }
    override func storeNumber(_ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        wrapping(target, mode) { wrapped.storeNumber(text, at: $0, mode: .initialize) }
    }
    override func storeString(_ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        wrapping(target, mode) { wrapped.storeString(bytes, at: $0, mode: .initialize) }
    }
    override func openObject(_ builder: Builder) -> Frame? { wrapped.openObject(builder) }
    override func openArray(_ builder: Builder) -> Frame? { wrapped.openArray(builder) }
    override func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        wrapping(target, mode) { wrapped.storeReady(value, at: $0, mode: .initialize) }
    }
    override func isNil(_ source: UnsafeRawPointer) -> Bool {
        ModelStorage.load(Wrapped?.self, from: source) == nil
    }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        if isNil(source) { return run.writer.null() }
        try wrapped.write(ModelStorage.payload(ofOptionalAt: source, Wrapped.self), to: &run)
    }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        wrapping(target, mode) { scratch in wrapped.store(finished: frame, at: scratch, mode: .initialize) }
    }
    override var expectation: String { wrapped.expectation }
}

// MARK: - Arrays and sets

/// How an array frame makes its elements into an `[Element]` and stores it. ``make()`` called where `Element` is a
/// concrete type gives specialized code (``KnownContainers`` does so for common element types); called from generic
/// code it gives generic code, which asks the runtime for `[Element]`'s metadata on every array.
struct ArrayFinishing<Element>: @unchecked Sendable {
    let take: (UnsafeMutablePointer<Element>, Int) -> [Element]
    let store: (UnsafeMutablePointer<Element>, Int, UnsafeMutableRawPointer, StoreMode) -> Void

    @inline(__always)
    static func make() -> ArrayFinishing {
        ArrayFinishing(
            take: { elements, count in moveArray(elements, count) },
            store: { elements, count, target, mode in
                ModelStorage.store(moveArray(elements, count), at: target, mode: mode)
            })
    }

    @inline(__always)
    private static func moveArray(_ elements: UnsafeMutablePointer<Element>, _ count: Int) -> [Element] {
        // Small arrays (a GeoJSON point is [x, y]) are made from array literals: specialized, those allocate
        // directly, where `Array(unsafeUninitializedCapacity:)` asks the runtime for the storage class's metadata.
        switch count {
        case 0: return []
        case 1: return [elements.move()]
        case 2: return [elements.move(), (elements + 1).move()]
        case 3: return [elements.move(), (elements + 1).move(), (elements + 2).move()]
        case 4: return [elements.move(), (elements + 1).move(), (elements + 2).move(), (elements + 3).move()]
        default: break
        }
        return Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: elements, count: count)
            initialized = count
        }
    }
}

/// `[Element]`: elements that don't fit are dropped (reported to diagnostics, an error in strict mode).
final class ArrayCodec<Element>: ValueCodec, @unchecked Sendable {
    unowned(unsafe) let element: ValueCodec
    let finishing: ArrayFinishing<Element>

    init(element: ValueCodec, finishing: ArrayFinishing<Element> = .make()) {
        self.element = element
        self.finishing = finishing
        super.init(valueType: [Element].self)
    }

    override func openArray(_ builder: Builder) -> Frame? {
        builder.frame(openedBy: self, isObject: false) {
            ArrayFrame<Element>(opener: self, element: element, finishing: finishing)
        }
    }
    /// An array of ready values (`[Model]` inside a `[String: Any]`).
    override func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard let elements = value as? [Element] else { return false }
        ModelStorage.store(elements, at: target, mode: mode)
        return true
    }
    /// Made once: opening an array then asks the runtime for no type metadata.
    private let cursorType: EncodeCursor.Type = ArrayCursor<Element>.self

    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        try run.open(cursorType, owner: self, isObject: false, source: source) { ArrayCursor<Element>(codec: element) }
    }
    override var expectation: String { "an array" }
}

/// `Set<Element>`: built as an array, then made a set.
final class SetCodec<Element: Hashable>: ValueCodec, @unchecked Sendable {
    unowned(unsafe) let element: ValueCodec

    init(element: ValueCodec) {
        self.element = element
        super.init(valueType: Set<Element>.self)
    }

    override func openArray(_ builder: Builder) -> Frame? {
        builder.frame(openedBy: self, isObject: false) {
            ArrayFrame<Element>(opener: self, element: element, finishing: .make())
        }
    }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        let elements = unsafeDowncast(frame, to: ArrayFrame<Element>.self).take()
        ModelStorage.store(Set(elements), at: target, mode: mode)
        return true
    }
    /// With sorted keys, elements are written in the order of their JSON text, so that equal sets write equal text.
    /// (Each element's text is made by a run of its own: sets nest only as deep as their type says, never deeper.)
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        let elements = Array(ModelStorage.load(Set<Element>.self, from: source))
        guard run.options.sortedKeys else { return try openElements(elements, element, owner: self, on: &run) }
        var options = run.options
        options.maximumDepth -= run.writer.depth + 1
        let texts = try elements.map { value in
            var single = EncodingRun(options: options)
            try withUnsafePointer(to: value) { try single.encode(element, at: UnsafeRawPointer($0)) }
            return single.writer.bytes
        }
        try run.writer.beginArray()
        for text in texts.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            run.writer.element()
            run.writer.rawJSON(text)
        }
        run.writer.endArray()
    }
    override var expectation: String { "an array" }
}

/// A growable buffer of values built in place, one after another: what array and dictionary frames fill before
/// making their `Array` or `Dictionary` once, at the end. Values `0..<count` are initialized.
final class ElementBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private var capacity = 16
    var count = 0

    init() { base = .allocate(capacity: capacity) }

    deinit {
        discard()
        base.deallocate()
    }

    /// Where the next value is built; ``commit()`` counts it once it is there.
    @inline(__always)
    func nextSlot() -> UnsafeMutableRawPointer {
        if count == capacity { grow() }
        assert(count < capacity, "ElementBuffer: slot out of range")
        return UnsafeMutableRawPointer(base + count)
    }

    /// Counts the value just built in ``nextSlot()``.
    @inline(__always)
    func commit() {
        assert(count < capacity, "ElementBuffer: commit past the capacity")
        count += 1
    }

    @inline(never)
    private func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// Reports a value that doesn't fit `codec`, the element codec: for an optional one it becomes `nil`, counted
    /// here; otherwise it is left out. Returns whether to go on, and whether the value was kept.
    @inline(never)
    func didNotFit(
        _ codec: ValueCodec, found: String, kept: String, leftOut: String, _ builder: Builder
    ) -> (proceed: Bool, kept: Bool) {
        let optional = codec.isOptional
        let proceed = builder.fallback("expected \(codec.expectation), found \(found)" + (optional ? kept : leftOut))
        guard optional && codec.storeNull(at: nextSlot(), mode: .initialize) else { return (proceed, false) }
        commit()
        return (proceed, true)
    }

    /// Destroys the values left (decoding stopped early).
    func discard() {
        base.deinitialize(count: count)
        count = 0
    }
}

/// Fills an array: each element is built in place at the end of the frame's own element buffer, and the `Array` is
/// made once, when the array ends. (Appending to an `Array<Element>` element by element would run the standard
/// library's unspecialized code, which asks the runtime for type metadata on every call.)
final class ArrayFrame<Element>: Frame {
    private let elementReference: Unmanaged<ValueCodec>
    private let finishing: ArrayFinishing<Element>
    private let elements = ElementBuffer<Element>()
    /// The position in the JSON array, dropped elements included, for error paths.
    private var index = 0

    init(opener: ValueCodec, element: ValueCodec, finishing: ArrayFinishing<Element>) {
        elementReference = .passUnretained(element)
        self.finishing = finishing
        super.init(opener: opener, isObject: false)
    }

    /// Calls the element codec without reference counting: codecs live as long as the process.
    @inline(__always)
    private func element<Result>(_ body: (ValueCodec) -> Result) -> Result { elementReference.withInstance(body) }



    override func begin(_ builder: Builder) {
        elements.count = 0
        index = 0
    }

    /// Where the next element is built.
    @inline(__always)
    private var slot: UnsafeMutableRawPointer { elements.nextSlot() }

    @inline(__always)
    private func appended(_ stored: Bool, _ builder: Builder, found: @autoclosure () -> String) -> Bool {
        defer { index += 1 }
        if stored {
            elements.commit()
            return true
        }
        return elementDidNotFit(builder, found: found())
    }

    /// Reports an element that doesn't fit; for `[T?]` it becomes `nil`, otherwise it is dropped.
    private func elementDidNotFit(_ builder: Builder, found: String) -> Bool {
        element {
            elements.didNotFit($0, found: found, kept: "; the element became nil", leftOut: "; the element was dropped",
                               builder).proceed
        }
    }

    override func null(_ builder: Builder) -> Bool {
        appended(element { $0.storeNull(at: slot, mode: .initialize) }, builder, found: "null")
    }
    override func bool(_ value: Bool, _ builder: Builder) -> Bool {
        appended(element { $0.storeBool(value, at: slot, mode: .initialize) }, builder, found: value ? "true" : "false")
    }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        appended(element { $0.storeNumber(text, at: slot, mode: .initialize) }, builder,
                 found: "the number " + String(jsonBytes: text))
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        appended(element { $0.storeString(bytes, at: slot, mode: .initialize) }, builder, found: "a string")
    }
    override func openChild(isObject: Bool, _ builder: Builder) -> Frame? {
        if let child = element({ isObject ? $0.openObject(builder) : $0.openArray(builder) }) { return child }
        _ = elementDidNotFit(builder, found: isObject ? "an object" : "an array")
        return nil
    }
    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        appended(element { $0.store(finished: child, at: slot, mode: .initialize) }, builder,
                 found: child.isObject ? "an object" : "an array")
    }
    override func ready(_ value: Any, _ builder: Builder) -> Bool? {
        guard element({ $0.storeReady(value, at: slot, mode: .initialize) }) else { return nil }
        elements.commit()
        index += 1
        return true
    }
    override func skipped() { index += 1 }

    func take() -> [Element] {
        let taken = elements.count
        elements.count = 0
        return finishing.take(elements.base, taken)
    }
    override func moveValue(to target: UnsafeMutableRawPointer, mode: StoreMode) {
        let taken = elements.count
        elements.count = 0
        finishing.store(elements.base, taken, target, mode)
    }
    override func takeAny() -> Any { take() }
    override func discard() { elements.discard() }
    override func appendPosition(to path: inout String) { path += "[\(index)]" }
}

// MARK: - Dictionaries

/// `[String: Value]`: each key becomes a `String`; values that don't fit are left out (nil for optional values).
final class DictionaryCodec<Value>: ValueCodec, @unchecked Sendable {
    unowned(unsafe) let value: ValueCodec
    /// Made once: opening a dictionary then asks the runtime for no type metadata.
    private let cursorType: EncodeCursor.Type = DictionaryCursor<Value>.self

    init(value: ValueCodec) {
        self.value = value
        super.init(valueType: [String: Value].self)
    }

    override func openObject(_ builder: Builder) -> Frame? {
        builder.frame(openedBy: self, isObject: true) { DictionaryFrame<Value>(opener: self, value: value) }
    }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        try run.open(cursorType, owner: self, isObject: true, source: source) { DictionaryCursor<Value>(codec: value) }
    }
    override var expectation: String { "an object" }
}

/// Fills a dictionary: keys and values are collected (values built in place in the frame's buffer), and the
/// `Dictionary` is made once, when the object ends, the last of duplicate keys winning.
final class DictionaryFrame<Value>: Frame {
    private let valueReference: Unmanaged<ValueCodec>
    private var keys: [String] = []
    /// `keys.count` may be one more than the values while a value is pending.
    private let values = ElementBuffer<Value>()

    init(opener: ValueCodec, value: ValueCodec) {
        valueReference = .passUnretained(value)
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

    /// Keeps the pending key when its value was stored, forgets it otherwise.
    @inline(__always)
    private func inserted(_ stored: Bool, _ builder: Builder, found: @autoclosure () -> String) -> Bool {
        if stored {
            values.commit()
            return true
        }
        return valueDidNotFit(builder, found: found())
    }

    /// Reports a value that doesn't fit (while its key is still the current one, so that the path names it); for
    /// `[String: T?]` it becomes `nil`, otherwise the entry is left out.
    private func valueDidNotFit(_ builder: Builder, found: String) -> Bool {
        let (proceed, kept) = value {
            values.didNotFit($0, found: found, kept: "; the value became nil", leftOut: "; the entry was left out",
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
        inserted(value { $0.storeNull(at: slot, mode: .initialize) }, builder, found: "null")
    }
    override func bool(_ flag: Bool, _ builder: Builder) -> Bool {
        inserted(value { $0.storeBool(flag, at: slot, mode: .initialize) }, builder, found: flag ? "true" : "false")
    }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        inserted(value { $0.storeNumber(text, at: slot, mode: .initialize) }, builder,
                 found: "the number " + String(jsonBytes: text))
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        inserted(value { $0.storeString(bytes, at: slot, mode: .initialize) }, builder, found: "a string")
    }
    override func openChild(isObject: Bool, _ builder: Builder) -> Frame? {
        if let child = value({ isObject ? $0.openObject(builder) : $0.openArray(builder) }) { return child }
        _ = valueDidNotFit(builder, found: isObject ? "an object" : "an array")
        return nil
    }
    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        inserted(value { $0.store(finished: child, at: slot, mode: .initialize) }, builder,
                 found: child.isObject ? "an object" : "an array")
    }
    override func ready(_ ready: Any, _ builder: Builder) -> Bool? {
        guard value({ $0.storeReady(ready, at: slot, mode: .initialize) }) else { return nil }
        values.commit()
        return true
    }
    /// The key of a skipped value was already dealt with by ``openChild(isObject:_:)``.
    override func skipped() {}

    private func take() -> [String: Value] {
        let taken = values.count
        values.count = 0
        let buffer = UnsafeMutableBufferPointer(start: values.base, count: taken)
        defer { buffer.deinitialize() }
        return Dictionary(zip(keys, buffer), uniquingKeysWith: { _, last in last })
    }
    override func moveValue(to target: UnsafeMutableRawPointer, mode: StoreMode) {
        ModelStorage.store(take(), at: target, mode: mode)
    }
    override func takeAny() -> Any { take() }
    override func discard() { values.discard() }
    override func appendPosition(to path: inout String) {
        if let key = keys.last { path += "." + key }
    }
}

// MARK: - Any

/// `Any`, filled with Foundation-style values as `JSONSerialization` makes them: `Int` (or `Double` when written with
/// a fraction or an exponent, or too large for `Int`), `String`, `Bool`, `[Any]`, `[String: Any]`, `NSNull`.
final class AnyCodec: ValueCodec, @unchecked Sendable {
    init() { super.init(valueType: Any.self) }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        ModelStorage.storeAny(NSNull(), at: target, mode: mode)
        return true
    }
    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        ModelStorage.storeAny(value, at: target, mode: mode)
        return true
    }
    override func storeNumber(_ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        guard let value = Self.foundationNumber(text) else { return false }
        ModelStorage.storeAny(value, at: target, mode: mode)
        return true
    }
    override func storeString(_ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        ModelStorage.storeAny(String(jsonBytes: bytes), at: target, mode: mode)
        return true
    }
    override func openObject(_ builder: Builder) -> Frame? {
        builder.frame(openedBy: self, isObject: true) { DictionaryFrame<Any>(opener: self, value: self) }
    }
    override func openArray(_ builder: Builder) -> Frame? {
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
    static let arrayFinishing = ArrayFinishing<Any>.make()

    static func foundationNumber(_ text: UnsafeRawBufferPointer) -> Any? {
        guard let decimal = DecimalText(text) else { return nil }
        if !decimal.hasFractionOrExponent, let value = decimal.integer(Int.self) { return value }
        return decimal.double(text: text)
    }
}

// MARK: - Foundation containers

/// `NSArray`, `NSMutableArray`, `NSDictionary`, `NSMutableDictionary` properties, as HandyJSON decoded them: the
/// container's Foundation-style values (as for `Any`), made the property's class; written as those values.
final class FoundationContainerCodec<Container: NSObject>: ValueCodec, @unchecked Sendable {
    private let anyCodec: AnyCodec
    private let isArray: Bool
    private let make: (Any) -> Container?

    init(anyCodec: AnyCodec, isArray: Bool, make: @escaping (Any) -> Container?) {
        self.anyCodec = anyCodec
        self.isArray = isArray
        self.make = make
        super.init(valueType: Container.self)
    }

    override func openObject(_ builder: Builder) -> Frame? { isArray ? nil : anyCodec.openObject(builder) }
    override func openArray(_ builder: Builder) -> Frame? { isArray ? anyCodec.openArray(builder) : nil }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard let container = make(frame.takeAny()) else { return false }
        ModelStorage.store(container, at: target, mode: mode)
        return true
    }
    override func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard type(of: value) is AnyClass, let container = value as? Container else { return false }
        ModelStorage.store(container, at: target, mode: mode)
        return true
    }
    override var expectation: String { isArray ? "an array" : "an object" }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        try AnyWriter.write(ModelStorage.load(Container.self, from: source), to: &run)
    }

}

enum FoundationContainers {
    /// The codec for `NSArray`, `NSMutableArray`, `NSDictionary` or `NSMutableDictionary`; `nil` for other types.
    static func codec(for type: Any.Type, anyCodec: @autoclosure () -> AnyCodec) -> ValueCodec? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(NSArray.self):
            FoundationContainerCodec<NSArray>(anyCodec: anyCodec(), isArray: true) {
                ($0 as? [Any]).map { NSArray(array: $0) }
            }
        case ObjectIdentifier(NSMutableArray.self):
            FoundationContainerCodec<NSMutableArray>(anyCodec: anyCodec(), isArray: true) {
                ($0 as? [Any]).map { NSMutableArray(array: $0) }
            }
        case ObjectIdentifier(NSDictionary.self):
            FoundationContainerCodec<NSDictionary>(anyCodec: anyCodec(), isArray: false) {
                ($0 as? [String: Any]).map { NSDictionary(dictionary: $0) }
            }
        case ObjectIdentifier(NSMutableDictionary.self):
            FoundationContainerCodec<NSMutableDictionary>(anyCodec: anyCodec(), isArray: false) {
                ($0 as? [String: Any]).map { NSMutableDictionary(dictionary: $0) }
            }
        default: nil
        }
    }
}

// MARK: - Enums

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

    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        converting(target, mode) { raw.storeBool(value, at: $0, mode: .initialize) }
    }
    override func storeNumber(_ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        converting(target, mode) { raw.storeNumber(text, at: $0, mode: .initialize) }
    }
    override func storeString(_ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        converting(target, mode) { raw.storeString(bytes, at: $0, mode: .initialize) }
    }
    override var expectation: String { "a raw value of \(E.self)" }
    /// A raw value is a scalar: its codec writes it at once, so the temporary outlives the call.
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        let rawValue = ModelStorage.load(E.self, from: source).rawValue
        try withUnsafePointer(to: rawValue) { try raw.write(UnsafeRawPointer($0), to: &run) }
    }
}

/// Opens an array of `elements`, written with their codec, on `run`'s stack.
func openElements<Element>(_ elements: [Element], _ codec: ValueCodec, owner: ValueCodec, on run: inout EncodingRun)
    throws
{
    try run.open(ArrayCursor<Element>.self, owner: owner, isObject: false) { ArrayCursor(codec: codec) }
        .start(elements)
}
