import Foundation

/// How an array frame makes its `[Element]`. ``make(specialized:)`` called where `Element` is concrete
/// (``KnownContainers``, ``ContainerFinishing``) gives specialized code; from generic code, `[Element]`'s metadata is
/// looked up per array.
@usableFromInline
struct ArrayFinishing<Element>: @unchecked Sendable {
    let take: (UnsafeMutablePointer<Element>, Int) -> [Element]
    let store: (UnsafeMutablePointer<Element>, Int, UnsafeMutableRawPointer, StoreMode) -> Void

    @usableFromInline
    init(
        take: @escaping (UnsafeMutablePointer<Element>, Int) -> [Element],
        store: @escaping (UnsafeMutablePointer<Element>, Int, UnsafeMutableRawPointer, StoreMode) -> Void
    ) {
        self.take = take
        self.store = store
    }

    @inlinable @inline(__always)
    static func make(specialized: Bool = false) -> ArrayFinishing {
        ArrayFinishing(
            take: { elements, count in moveArray(elements, count, specialized: specialized) },
            store: { elements, count, target, mode in
                ModelStorage.store(moveArray(elements, count, specialized: specialized), at: target, mode: mode)
            })
    }

    @inlinable @inline(__always)
    static func moveArray(
        _ elements: UnsafeMutablePointer<Element>, _ count: Int, specialized: Bool
    ) -> [Element] {
        // Up to 8 elements (a GeoJSON point, a few tags): array literals, whose allocation is inlined where `Element`
        // is concrete, where reserving capacity calls the standard library's `_consumeAndCreateNew`.
        @inline(__always) func move(_ index: Int) -> Element { (elements + index).move() }
        switch count {
        case 0: return []
        case 1: return [move(0)]
        case 2: return [move(0), move(1)]
        case 3: return [move(0), move(1), move(2)]
        case 4: return [move(0), move(1), move(2), move(3)]
        case 5: return [move(0), move(1), move(2), move(3), move(4)]
        case 6: return [move(0), move(1), move(2), move(3), move(4), move(5)]
        case 7: return [move(0), move(1), move(2), move(3), move(4), move(5), move(6)]
        case 8: return [move(0), move(1), move(2), move(3), move(4), move(5), move(6), move(7)]
        default: break
        }
        // Up to 16, specialized: `reserveCapacity` allocates in specialized code, where the unsafe initializer below
        // looks up `_ContiguousArrayStorage<Element>`'s metadata on each array (which costs less past 16).
        if specialized && count <= 16 {
            var array: [Element] = []
            array.reserveCapacity(count)
            for index in 0..<count { array.append((elements + index).move()) }
            return array
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

    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: false) {
            ArrayFrame<Element>(opener: self, element: element, finishing: finishing)
        }
    }
    /// An array of ready values (`[Model]` inside a `[String: Any]`).
    override func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        guard let elements = value as? [Element] else { return false }
        ModelStorage.store(elements, at: target, mode: mode)
        return true
    }
    /// The array stays in the value being written, unchanged, while its elements are.
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        try run.open(ElementsCursor.self, owner: self, isObject: false) { ElementsCursor(codec: element) }
            .start(ModelStorage.elements(of: source.assumingMemoryBound(to: [Element].self)))
    }
    override var expectation: String { "an array" }
}

/// `Set<Element>`: built as an array, then made a set.
final class SetCodec<Element: Hashable>: ValueCodec, @unchecked Sendable {
    unowned(unsafe) let element: ValueCodec

    init(element: ValueCodec) {
        self.element = element
        super.init(valueType: Set<Element>.self, storesFinishedFrames: true)
    }

    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: false) {
            ArrayFrame<Element>(opener: self, element: element, finishing: .make())
        }
    }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        let elements = unsafeDowncast(frame, to: ArrayFrame<Element>.self).take()
        ModelStorage.store(Set(elements), at: target, mode: mode)
        return true
    }
    /// With sorted keys, elements go in the order of their JSON text, so that equal sets write equal text.
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

/// An ``ElementBuffer``'s slots, in non-generic code: `0..<count` hold initialized values, one every `stride` bytes.
class SlotBuffer {
    final fileprivate(set) var base: UnsafeMutableRawPointer
    final fileprivate(set) var capacity: Int
    final var count = 0
    final let stride: Int

    fileprivate init(base: UnsafeMutableRawPointer, capacity: Int, stride: Int) {
        self.base = base
        self.capacity = capacity
        self.stride = stride
    }

    /// Where the next value is built; ``commit()`` counts it once it is there.
    @inline(__always)
    final func nextSlot() -> UnsafeMutableRawPointer {
        if count == capacity { grow() }
        assert(count < capacity, "SlotBuffer: slot out of range")
        return base + count &* stride
    }

    @inline(__always)
    final func commit() {
        assert(count < capacity, "SlotBuffer: commit past the capacity")
        count += 1
    }

    func grow() { preconditionFailure("SlotBuffer: grow is the typed buffer's") }

    /// Reports a value that doesn't fit the element `codec`: `nil` for an optional one, counted here; else left out.
    @inline(never)
    final func didNotFit(
        _ codec: ValueCodec, found: String, kept: String, leftOut: String, _ builder: Builder
    ) -> (proceed: Bool, kept: Bool) {
        let optional = codec.isOptional
        let proceed = builder.fallback("expected \(codec.expectation), found \(found)", optional ? kept : leftOut)
        guard optional && codec.storeNull(at: nextSlot(), mode: .initialize, builder) else { return (proceed, false) }
        commit()
        return (proceed, true)
    }
}

/// A growable buffer of values built in place, for array and dictionary frames. Values `0..<count` are initialized.
final class ElementBuffer<Element>: SlotBuffer {
    var elements: UnsafeMutablePointer<Element> { base.assumingMemoryBound(to: Element.self) }

    /// Sixteen values to start with, or fewer of a large type: under 1 KB, a request that `malloc` serves without
    /// first merging every small block freed since (which, at the start of a decode, are the last result's).
    init() {
        let capacity = max(1, min(16, 1_000 / max(MemoryLayout<Element>.stride, 1)))
        super.init(
            base: UnsafeMutableRawPointer(UnsafeMutablePointer<Element>.allocate(capacity: capacity)),
            capacity: capacity, stride: MemoryLayout<Element>.stride)
    }

    deinit {
        discard()
        elements.deallocate()
    }

    @inline(never)
    override func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: elements, count: count)
        elements.deallocate()
        base = UnsafeMutableRawPointer(larger)
        capacity *= 2
    }

    @inline(__always)
    func takeAll<Result>(_ body: (UnsafeMutablePointer<Element>, Int) -> Result) -> Result {
        let taken = count
        count = 0
        return body(elements, taken)
    }

    func takeAll(_ finishing: ArrayFinishing<Element>) -> [Element] { takeAll(finishing.take) }

    /// Moves the values out in order to `body` (the buffer is empty from the start); if it throws, the rest are freed.
    func takeEach(_ body: (Element) throws -> Void) rethrows {
        let taken = count
        count = 0
        let first = elements
        var index = 0
        // Slots index..<taken still hold values of their own; each is moved out just before it is handed over.
        defer { (first + index).deinitialize(count: taken &- index) }
        while index < taken {
            let element = (first + index).move()
            index &+= 1
            try body(element)
        }
    }

    func discard() {
        elements.deinitialize(count: count)
        count = 0
    }
}

/// What an array frame does with each element, in non-generic code (see ``SlotBuffer``).
class ArrayElementsFrame: Frame {
    private let elementReference: Unmanaged<ValueCodec>
    private let elements: SlotBuffer
    private let elementKind: ScalarKind
    /// The position in the JSON array, dropped elements included, for error paths.
    private var index = 0

    fileprivate init(opener: ValueCodec, element: ValueCodec, elements: SlotBuffer) {
        elementReference = .passUnretained(element)
        elementKind = element.scalarKind
        self.elements = elements
        super.init(opener: opener, isObject: false)
    }

    @inline(__always)
    private func element<Result>(_ body: (ValueCodec) -> Result) -> Result { elementReference.withInstance(body) }

    override func begin(_ builder: Builder) {
        elements.count = 0
        index = 0
    }

    @inline(__always)
    private var slot: UnsafeMutableRawPointer { elements.nextSlot() }

    @inline(__always)
    private func appendedDirectly() -> Bool {
        elements.commit()
        index += 1
        return true
    }

    @inline(__always)
    private func appended(_ stored: Bool, _ builder: Builder, found: @autoclosure () -> String) -> Bool {
        defer { index += 1 }
        if stored {
            elements.commit()
            return true
        }
        return elementDidNotFit(builder, found: found)
    }

    /// Reports an element that doesn't fit (`nil` for `[T?]`, else dropped); out of line, so the stores keep registers.
    @inline(never)
    private func elementDidNotFit(_ builder: Builder, found: () -> String) -> Bool {
        element {
            elements.didNotFit(
                $0, found: found(), kept: "; the element became nil", leftOut: "; the element was dropped",
                builder
            ).proceed
        }
    }

    override func null(_ builder: Builder) -> Bool {
        appended(element { $0.storeNull(at: slot, mode: .initialize, builder) }, builder, found: "null")
    }
    // A ``ScalarKind``'s elements are stored by the frame; others, and those that don't convert, through the codec.
    override func bool(_ value: Bool, _ builder: Builder) -> Bool {
        if elementKind.storeBool(value, at: slot, mode: .initialize) { return appendedDirectly() }
        return appended(
            element { $0.storeBool(value, at: slot, mode: .initialize, builder) }, builder,
            found: value ? "true" : "false")
    }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        if elementKind.storeNumber(text, at: slot, mode: .initialize) { return appendedDirectly() }
        return appended(
            element { $0.storeNumber(text, at: slot, mode: .initialize, builder) }, builder,
            found: "the number " + builder.options.numberText(text))
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        if elementKind.storeString(bytes, in: builder.run, at: slot, mode: .initialize) { return appendedDirectly() }
        return appended(
            element { $0.storeString(bytes, at: slot, mode: .initialize, builder) }, builder, found: "a string")
    }
    override func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? {
        if let child = children.open(0, with: elementReference, isObject: isObject, builder) { return child }
        _ = elementDidNotFit(builder, found: { isObject ? "an object" : "an array" })
        return nil
    }
    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        appended(
            element { $0.storeValue(finishedIn: child, at: slot, mode: .initialize) }, builder,
            found: child.found)
    }
    override func ready(_ value: Any, _ builder: Builder) -> Bool? {
        guard element({ $0.storeReady(value, at: slot, mode: .initialize, builder) }) else { return nil }
        elements.commit()
        index += 1
        return true
    }
    override func skipped() { index += 1 }
    override final func appendPosition(to path: inout String) { path += "[\(index)]" }
}

/// Fills an array, then makes the `Array` once: appending one by one would run the standard library's generic code.
final class ArrayFrame<Element>: ArrayElementsFrame {
    private let finishing: ArrayFinishing<Element>
    /// The base's buffer, typed: held twice, since casting the `SlotBuffer` back would look up metadata on each array.
    private let elements: ElementBuffer<Element>

    init(opener: ValueCodec, element: ValueCodec, finishing: ArrayFinishing<Element>) {
        let elements = ElementBuffer<Element>()
        self.elements = elements
        self.finishing = finishing
        super.init(opener: opener, element: element, elements: elements)
    }

    func take() -> [Element] { elements.takeAll(finishing) }
    override func moveValue(to target: UnsafeMutableRawPointer, mode: StoreMode) {
        elements.takeAll { finishing.store($0, $1, target, mode) }
    }
    override func takeAny() -> Any { take() }
    override func discard() { elements.discard() }
}
