/// A container under construction, one per open object or array, on the builder's stack above the ``RootFrame``: it
/// stores its scalars at once and opens a child frame for a nested container, whose value it takes when the child ends.
/// It owns the storage its value needs and is reused by the next container the same codec opens at the same depth.
class Frame {
    /// The codec that made this frame: never freed, so held unmanaged and called through ``withOpener(_:)``.
    let openerReference: Unmanaged<ValueCodec>
    var opener: ValueCodec { openerReference.takeUnretainedValue() }
    let isObject: Bool
    var nextAtDepth: Unmanaged<Frame>?
    /// Where the properties' offsets count from: a struct's storage, a class instance, or a nested path's model's.
    var propertyBase: UnsafeMutableRawPointer?

    /// The frames of child containers, one kept per codec number (``ChildFrames/open(_:with:isObject:_:)``).
    final let children: ChildFrames

    init(opener: ValueCodec, isObject: Bool, childCodecs: Int = 1) {
        openerReference = .passUnretained(opener)
        self.isObject = isObject
        children = ChildFrames(count: childCodecs)
    }

    deinit { children.deallocate() }

    @inline(__always)
    final func withOpener<Result>(_ body: (ValueCodec) -> Result) -> Result { openerReference.withInstance(body) }

    // The events: the base traps, so that a forgotten override can't pass for "go on"; the rest have real defaults.

    /// A key inside this object. Only object frames receive keys.
    func key(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool { unimplemented(self) }
    func null(_ builder: Builder) -> Bool { unimplemented(self) }
    func bool(_ value: Bool, _ builder: Builder) -> Bool { unimplemented(self) }
    func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool { unimplemented(self) }
    func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool { unimplemented(self) }
    /// The frame for a container that starts at the current position, or `nil` to skip it.
    func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? { unimplemented(self) }
    /// A child frame's container has ended: take its value.
    func childFinished(_ child: Frame, _ builder: Builder) -> Bool { unimplemented(self) }

    func begin(_ builder: Builder) {}
    /// A value already in memory here: `nil` (the default) when it can't be taken as it is, and its events follow.
    func ready(_ value: Any, _ builder: Builder) -> Bool? { nil }
    /// A value at the current position was skipped (an unknown key's, or one of the wrong shape).
    func skipped() {}
    /// This frame's own container has ended; by default the value is complete as it stands.
    func finish(_ builder: Builder) -> Bool { true }

    func moveValue(to target: UnsafeMutableRawPointer, mode: StoreMode) {
        fatalError("\(type(of: self)) does not hold a value to move")
    }
    /// Moves the finished value out as `Any` (for `Any` and `[String: Any]` properties).
    func takeAny() -> Any { fatalError("\(type(of: self)) does not hold a value to take") }
    /// Destroys a value left half-built when decoding stops early.
    func discard() {}
    /// The current position inside the container, for error paths: `.name` or `[3]`.
    func appendPosition(to path: inout String) {}
    /// What the finished container was, for the message when its value does not fit where it goes.
    var found: String { isObject ? "an object" : "an array" }
}

/// The child frames a frame has opened, one per codec it opens children with. A frame stays at one depth, so its
/// children are at the next, where the codec would hand out the same frame: keeping it here spares that call and the
/// builder's search. Unretained (the builder owns every frame); freed by ``deallocate()``.
struct ChildFrames {
    private let frames: UnsafeMutablePointer<Unmanaged<Frame>?>
    private let count: Int

    init(count: Int) {
        self.count = max(count, 1)
        frames = .allocate(capacity: self.count)
        frames.initialize(repeating: nil, count: self.count)
    }

    func deallocate() { frames.deallocate() }

    /// The frame for a container opened with `codec` (number `index`): the one kept if of that kind, else the codec's.
    @inline(__always)
    func open(
        _ index: Int, with codec: Unmanaged<ValueCodec>, isObject: Bool, _ builder: Builder
    ) -> Unmanaged<Frame>? {
        assert(index >= 0 && index < count, "ChildFrames: index out of range")
        if let kept = frames[index], kept.withInstance({ $0.isObject == isObject }) {
            kept.withInstance { $0.begin(builder) }
            return kept
        }
        return _slowpath_open(index, with: codec, isObject: isObject, builder)
    }

    @inline(never)
    private func _slowpath_open(
        _ index: Int, with codec: Unmanaged<ValueCodec>, isObject: Bool, _ builder: Builder
    ) -> Unmanaged<Frame>? {
        let child = codec.withInstance { isObject ? $0.openObject(builder) : $0.openArray(builder) }
        if let child { frames[index] = child }
        return child
    }
}

/// One value in memory of its own, and whether it is there: a frame's finished value waiting to be handed over. Neither
/// a `T?` nor generic, since unspecialized code would look up `Optional<T>`'s or `HeldValue<T>`'s metadata on every
/// use: each method is given `T`, the type allocated. The flag lives in that memory too, so that frames hold a
/// `HeldValue` in a constant, free of exclusivity checks.
struct HeldValue {
    /// Where a codec stores the value (`.initialize`).
    let target: UnsafeMutableRawPointer
    private let flag: UnsafeMutablePointer<Bool>

    init<T>(_: T.Type) {
        target = UnsafeMutableRawPointer(UnsafeMutablePointer<T>.allocate(capacity: 1))
        flag = .allocate(capacity: 1)
        flag.initialize(to: false)
    }

    var isHeld: Bool {
        @inline(__always) get { flag.pointee }
        @inline(__always) nonmutating set { flag.pointee = newValue }
    }

    @inline(__always)
    private func storage<T>(_: T.Type) -> UnsafeMutablePointer<T> { target.assumingMemoryBound(to: T.self) }

    func hold<T>(_ value: T) {
        discard(T.self)
        storage(T.self).initialize(to: value)
        isHeld = true
    }

    func take<T>(_: T.Type) -> T? {
        guard isHeld else { return nil }
        isHeld = false
        return storage(T.self).move()
    }

    func move<T>(_: T.Type, to destination: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard isHeld else { return false }
        isHeld = false
        ModelStorage.store(storage(T.self).move(), at: destination, mode: mode)
        return true
    }

    func discard<T>(_: T.Type) {
        guard isHeld else { return }
        isHeld = false
        storage(T.self).deinitialize(count: 1)
    }

    /// Frees the memory; the value was handed over or discarded.
    func deallocate() {
        assert(!isHeld, "HeldValue: deallocated while holding a value")
        target.deallocate()
        flag.deallocate()
    }
}

/// The bottom of the stack: holds the one value the caller asked for.
final class RootFrame<T>: Frame {
    private let held = HeldValue(T.self)
    /// Why the root value was not stored, when it did not fit.
    private(set) var mismatch: String?
    /// Where it did not fit: the offset just past its first token.
    private(set) var mismatchOffset = 0

    /// Element streaming: the buffer each value is stored straight into (unretained: the pipeline owns it); else `nil`.
    private let collected: Unmanaged<SlotBuffer>?

    init(codec: ValueCodec, collecting: ElementBuffer<T>? = nil) {
        collected = collecting.map { .passUnretained($0) }
        super.init(opener: codec, isObject: false)
    }

    deinit {
        held.discard(T.self)
        held.deallocate()
    }

    func take() -> T? { held.take(T.self) }

    /// Gets ready for the next value (element streaming), the last one collected.
    func reset() {
        held.discard(T.self)
        mismatch = nil
    }

    private var target: UnsafeMutableRawPointer {
        if let collected { return collected.withInstance { $0.nextSlot() } }
        return held.target
    }

    @inline(__always)
    private func stored() {
        if let collected {
            collected.withInstance { $0.commit() }
        } else {
            held.isHeld = true
        }
    }

    /// The root value, stored or not (`stored`): a scalar or a finished container; then the root is complete.
    private func completed(_ stored: Bool, _ builder: Builder, found: @autoclosure () -> String) -> Bool {
        if stored {
            self.stored()
        } else if !didNotFit(builder, found: found()) {
            return false
        }
        return builder.rootCompleted()
    }

    /// Reports a root value that doesn't fit `T`; for `T?` it becomes `nil`. Returns whether to go on.
    @inline(never)
    private func didNotFit(_ builder: Builder, found: String) -> Bool {
        mismatch = "expected \(opener.expectation), found \(found)"
        mismatchOffset = builder.currentOffset
        guard builder.fallback(mismatch!, opener.isOptional ? "; the value became nil" : "") else { return false }
        if opener.isOptional && opener.storeNull(at: target, mode: .initialize, builder) {
            stored()
            mismatch = nil
        }
        return true
    }

    override func null(_ builder: Builder) -> Bool {
        completed(withOpener { $0.storeNull(at: target, mode: .initialize, builder) }, builder, found: "null")
    }
    override func bool(_ value: Bool, _ builder: Builder) -> Bool {
        completed(
            withOpener { $0.storeBool(value, at: target, mode: .initialize, builder) }, builder,
            found: value ? "true" : "false")
    }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        completed(
            withOpener { $0.storeNumber(text, at: target, mode: .initialize, builder) }, builder,
            found: "the number " + builder.options.numberText(text))
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        completed(
            withOpener { $0.storeString(bytes, at: target, mode: .initialize, builder) }, builder, found: "a string")
    }
    override func ready(_ value: Any, _ builder: Builder) -> Bool? {
        guard withOpener({ $0.storeReady(value, at: target, mode: .initialize, builder) }) else { return nil }
        stored()
        return builder.rootCompleted()
    }
    override func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? {
        if let child = children.open(0, with: openerReference, isObject: isObject, builder) { return child }
        _ = didNotFit(builder, found: isObject ? "an object" : "an array")
        return nil
    }
    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        completed(
            withOpener { $0.storeValue(finishedIn: child, at: target, mode: .initialize) }, builder, found: child.found)
    }
    override func skipped() {}
    override func discard() { held.discard(T.self) }
}
