import Foundation

/// How an array frame makes its elements into an `[Element]` and stores it. ``make(specialized:)`` called where
/// `Element` is a concrete type gives specialized code (``KnownContainers`` does so for common element types, and a
/// model's own module for the model, through ``ContainerFinishing``); called from generic code it gives generic code,
/// which asks the runtime for `[Element]`'s metadata on every array.
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

    /// `specialized`: the caller names a concrete `Element`, so that appending is specialized code (in generic code
    /// each append would go through `Element`'s value witnesses).
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
        // Small arrays (a GeoJSON point is [x, y]; a handful of tags or ratings) are made from array literals, which
        // allocate directly: a literal's allocation is inlined where `Element` is concrete, where reserving capacity
        // goes through the standard library's `_consumeAndCreateNew` on every array.
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
        // Up to 16, specialized: reserved and appended to. `reserveCapacity` allocates in code specialized for
        // `Element`, where `Array(unsafeUninitializedCapacity:)` calls the standard library's unspecialized
        // allocation, which looks up `_ContiguousArrayStorage<Element>`'s metadata in the runtime's cache on every
        // array; past 16 elements that is less than appending one by one costs over moving them at once.
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

/// The slots of an ``ElementBuffer``, in code that is not generic: where a frame fills one per element, no code runs
/// that depends on the element type. (In a generic frame's methods, which are called through the class table and so
/// are never specialized, each element asked the runtime for the element type's layout, and the element codec's call
/// was made through a closure the compiler could not inline.)
/// Slots `0..<count` hold initialized values, one every `stride` bytes.
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

    /// Counts the value just built in ``nextSlot()``.
    @inline(__always)
    final func commit() {
        assert(count < capacity, "SlotBuffer: commit past the capacity")
        count += 1
    }

    /// Doubles the capacity, moving the values (``ElementBuffer`` knows their type).
    func grow() { preconditionFailure("SlotBuffer: grow is the typed buffer's") }

    /// Reports a value that doesn't fit `codec`, the element codec: for an optional one it becomes `nil`, counted
    /// here; otherwise it is left out. Returns whether to go on, and whether the value was kept.
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

/// A growable buffer of values built in place, one after another: what array and dictionary frames fill before
/// making their `Array` or `Dictionary` once, at the end. Values `0..<count` are initialized.
final class ElementBuffer<Element>: SlotBuffer {
    /// The first value.
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

    /// Hands the values to `body` (the first value and the count), which moves them out, leaving the buffer empty.
    @inline(__always)
    func takeAll<Result>(_ body: (UnsafeMutablePointer<Element>, Int) -> Result) -> Result {
        let taken = count
        count = 0
        return body(elements, taken)
    }

    /// Moves the values out into one array, made by `finishing`, leaving the buffer empty.
    func takeAll(_ finishing: ArrayFinishing<Element>) -> [Element] { takeAll(finishing.take) }

    /// Moves the values out one at a time, in order, handing each to `body`: no array is made and no value copied.
    /// The buffer is empty from the start (so `body` may see values completed later added to it); when `body`
    /// throws, the values not yet handed over are destroyed.
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

    /// Destroys the values left (decoding stopped early).
    func discard() {
        elements.deinitialize(count: count)
        count = 0
    }
}

/// What an array frame does with each element, in code that is not generic (see ``SlotBuffer``): each element is
/// built in place at the end of the frame's element buffer; ``ArrayFrame`` makes the `Array` once, when the array
/// ends.
class ArrayElementsFrame: Frame {
    private let elementReference: Unmanaged<ValueCodec>
    private let elements: SlotBuffer
    /// The element codec's ``ValueCodec/scalarKind``.
    private let elementKind: ScalarKind
    /// The position in the JSON array, dropped elements included, for error paths.
    private var index = 0

    fileprivate init(opener: ValueCodec, element: ValueCodec, elements: SlotBuffer) {
        elementReference = .passUnretained(element)
        elementKind = element.scalarKind
        self.elements = elements
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

    /// Counts an element the frame stored itself (a ``ScalarKind``'s).
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

    /// Reports an element that doesn't fit; for `[T?]` it becomes `nil`, otherwise it is dropped. Out of line, with
    /// the words for what was found made only here, so that storing an element keeps few registers.
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
    // Elements of a ``ScalarKind`` are converted and stored by the frame itself; through the codec otherwise, and
    // when they don't convert (the codec's route reports it).
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
        if let child = openChild(0, with: elementReference, isObject: isObject, builder) { return child }
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

/// Fills an array (``ArrayElementsFrame``), then makes the `Array` once, when the array ends. (Appending to an
/// `Array<Element>` element by element would run the standard library's unspecialized code, which asks the runtime
/// for type metadata on every call.)
final class ArrayFrame<Element>: ArrayElementsFrame {
    private let finishing: ArrayFinishing<Element>
    /// The same buffer as the base's, typed. (Held twice on purpose: casting the base's `SlotBuffer` back in this
    /// class's unspecialized methods had the runtime make the buffer type's metadata at each array.)
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
