/// `InlineArray<count, Element>`: elements held in the value itself, so `[x, y]` as an `InlineArray<2, Double>` costs
/// no allocation. Only an array of exactly `count` elements that all fit `Element` fits the type (there is no length
/// to shorten it to, no element to leave out); a property otherwise keeps its default.
final class InlineArrayCodec: ValueCodec, @unchecked Sendable {
    unowned(unsafe) let element: ValueCodec
    let count: Int
    let elementStride: Int
    /// The operations that need the concrete type: moving a finished value out, destroying elements.
    let operations: any InlineArrayMarker.Type
    /// No references, nothing to destroy (`InlineArray<2, Double>`): moved as bytes, without generic calls.
    let isTrivial: Bool
    let valueSize: Int
    let valueAlignment: Int

    /// `nil` when the elements are not laid out one every stride (every `InlineArray` is, but this checks).
    init?(_ type: any InlineArrayMarker.Type, element: ValueCodec) {
        guard type.isLaidOutByStride else { return nil }
        self.element = element
        count = type.elementCount
        elementStride = type.elementStride
        operations = type
        isTrivial = type.isTrivial
        valueSize = type.valueSize
        valueAlignment = type.valueAlignment
        super.init(valueType: type, storesFinishedFrames: true)
    }

    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: false) { InlineArrayFrame(codec: self) }
    }
    @inline(__always)
    func moveValue(from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer, mode: StoreMode) {
        if isTrivial {
            // Nothing to destroy at `target` (assign) or at `source` (take): the bytes are the value.
            target.copyMemory(from: source, byteCount: valueSize)
        } else {
            operations.moveValue(from: source, to: target, mode: mode)
        }
    }
    @inline(__always)
    func destroyElements(_ elements: UnsafeMutableRawPointer, count: Int) {
        if !isTrivial && count > 0 { operations.destroyElements(elements, count: count) }
    }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        unsafeDowncast(frame, to: InlineArrayFrame.self).moveValue(ifComplete: target, mode: mode)
    }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        try run.open(ElementsCursor.self, owner: self, isObject: false) { ElementsCursor(codec: element) }
            .start(ModelStorage.ElementRun(base: source, count: count, stride: elementStride))
    }
    override var expectation: String {
        "an array of exactly \(count) element\(count == 1 ? "" : "s") of type \(element.valueType)"
    }
}

/// Fills an `InlineArray` in storage of its own; the value is handed over only when every element fitted.
final class InlineArrayFrame: Frame {
    private let codec: Unmanaged<InlineArrayCodec>
    /// The element codec and the codec's numbers, held here so that an element costs no reference counting.
    private let element: Unmanaged<ValueCodec>
    private let count: Int
    private let elementStride: Int
    /// One value of the inline array's type: `filled` elements initialized, one every stride.
    private let storage: UnsafeMutableRawPointer
    private var filled = 0
    /// The position in the JSON array, for error paths and for telling a too-long array.
    private var index = 0
    private var misfit: String?

    init(codec: InlineArrayCodec) {
        self.codec = .passUnretained(codec)
        element = .passUnretained(codec.element)
        count = codec.count
        elementStride = codec.elementStride
        storage = .allocate(byteCount: max(codec.valueSize, 1), alignment: codec.valueAlignment)
        super.init(opener: codec, isObject: false)
    }

    deinit {
        discard()
        storage.deallocate()
    }

    override func begin(_ builder: Builder) {
        discard()
        index = 0
        // Assigned only when set: releasing the old value is a runtime call even when there is none.
        if misfit != nil { misfit = nil }
    }

    /// Where element `index` is built; `nil` past the last one or after a misfit (the rest are read and left).
    private var slot: UnsafeMutableRawPointer? {
        guard misfit == nil, index < count else { return nil }
        assert(filled == index, "InlineArrayFrame: elements filled out of order")
        return storage + index &* elementStride
    }

    /// Builds element `index` with `body` when there is a slot for it, and counts it; the container's end decides.
    @inline(__always)
    private func build(
        _ body: (ValueCodec, UnsafeMutableRawPointer) -> Bool, found: @autoclosure () -> String
    ) -> Bool {
        let built = slot.map { slot in element.withInstance { body($0, slot) } } ?? false
        return stored(built, found: found())
    }

    private func stored(_ built: Bool, found: @autoclosure () -> String) -> Bool {
        if built {
            filled += 1
        } else {
            noteMisfit(found())
        }
        index += 1
        return true
    }

    /// Notes the first element that did not fit (one past the last is no misfit: the length tells).
    private func noteMisfit(_ found: String) {
        if misfit == nil && index < count { misfit = "an array whose element [\(index)] is \(found)" }
    }

    override func null(_ builder: Builder) -> Bool {
        build({ $0.storeNull(at: $1, mode: .initialize, builder) }, found: "null")
    }
    override func bool(_ value: Bool, _ builder: Builder) -> Bool {
        build({ $0.storeBool(value, at: $1, mode: .initialize, builder) }, found: value ? "true" : "false")
    }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        build(
            { $0.storeNumber(text, at: $1, mode: .initialize, builder) },
            found: "the number " + builder.options.numberText(text))
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        build({ $0.storeString(bytes, at: $1, mode: .initialize, builder) }, found: "a string")
    }
    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        build({ $0.storeValue(finishedIn: child, at: $1, mode: .initialize) }, found: child.found)
    }
    override func ready(_ value: Any, _ builder: Builder) -> Bool? {
        guard let slot, element.withInstance({ $0.storeReady(value, at: slot, mode: .initialize, builder) }) else {
            return nil
        }
        return stored(true, found: "")
    }
    override func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? {
        if slot != nil, let child = children.open(0, with: element, isObject: isObject, builder) { return child }
        // Skipped by the builder, which then calls `skipped()`.
        noteMisfit(isObject ? "an object" : "an array")
        return nil
    }
    override func skipped() { index += 1 }

    override var found: String { misfit ?? "an array of \(index) element\(index == 1 ? "" : "s")" }

    /// Moves the value to `target` when every element came and fitted; otherwise destroys them and returns `false`.
    func moveValue(ifComplete target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard misfit == nil && index == count && filled == count else {
            codec.withInstance { $0.destroyElements(storage, count: filled) }
            filled = 0
            return false
        }
        codec.withInstance { $0.moveValue(from: storage, to: target, mode: mode) }
        filled = 0
        return true
    }
    override func discard() {
        codec.withInstance { $0.destroyElements(storage, count: filled) }
        filled = 0
    }
    override func appendPosition(to path: inout String) { path += "[\(index)]" }
}
