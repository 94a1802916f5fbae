/// A container under construction: one per open object or array that the builder is filling.
///
/// The builder keeps frames on an explicit stack; the bottom one is the ``RootFrame`` holding the result. Events that
/// arrive inside a container go to its frame, which stores scalars at once and opens a child frame for a nested
/// container. When the child's container ends, the parent moves the child's value to where it belongs.
///
/// Frames own their storage (one value of their type, plus scratch space for one element) and are reused by the next
/// container that the same codec opens at the same depth, so an array of a million models allocates no frames after
/// the first element.
class Frame {
    /// The codec whose ``ValueCodec/openObject(_:)`` or ``ValueCodec/openArray(_:)`` made this frame. Codecs live as
    /// long as the process: they are published in the type registry and never freed. Held unmanaged and called
    /// through ``withOpener(_:)`` without reference counting (an `unowned(unsafe)` reference is retained and released
    /// around each call).
    let openerReference: Unmanaged<ValueCodec>
    /// The opener, for cold paths (messages, frame reuse).
    var opener: ValueCodec { openerReference.takeUnretainedValue() }
    let isObject: Bool
    /// The next frame kept for reuse at the same depth (the builder's per-depth list).
    var nextAtDepth: Unmanaged<Frame>?
    /// For frames that fill properties: where the properties' offsets count from (a struct's storage, a class
    /// instance, or for a nested key path, the owning model's).
    var propertyBase: UnsafeMutableRawPointer?

    /// The child frames this frame opened, one entry per codec it opens children with: the frame opens every child
    /// container through ``openChild(_:with:isObject:_:)``.
    private let children: ChildFrames

    /// `childCodecs`: how many codecs the frame opens children with (a model's properties; one for an array's
    /// elements or a dictionary's values).
    init(opener: ValueCodec, isObject: Bool, childCodecs: Int = 1) {
        openerReference = .passUnretained(opener)
        self.isObject = isObject
        children = ChildFrames(count: childCodecs)
    }

    deinit { children.deallocate() }

    /// The frame for a child container starting now, opened with `codec`, the frame's codec number `index`
    /// (``ChildFrames/open(_:with:isObject:_:)``); `nil` when the codec takes no such container.
    @inline(__always)
    final func openChild(
        _ index: Int, with codec: Unmanaged<ValueCodec>, isObject: Bool, _ builder: Builder
    ) -> Unmanaged<Frame>? {
        children.open(index, with: codec, isObject: isObject, builder)
    }

    /// Calls the opener without reference counting.
    @inline(__always)
    final func withOpener<Result>(_ body: (ValueCodec) -> Result) -> Result { openerReference.withInstance(body) }

    // The events: every frame implements those it can receive (the base traps, so that a forgotten override can't
    // pass for "go on"); an array frame receives no keys. The rest have defaults that are real answers.

    /// A key inside this object. Only object frames receive keys.
    func key(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool { unimplemented() }
    func null(_ builder: Builder) -> Bool { unimplemented() }
    func bool(_ value: Bool, _ builder: Builder) -> Bool { unimplemented() }
    func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool { unimplemented() }
    func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool { unimplemented() }
    /// The frame for a container that starts at the current position, or `nil` to skip it.
    func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? { unimplemented() }
    /// A child frame's container has ended: take its value.
    func childFinished(_ child: Frame, _ builder: Builder) -> Bool { unimplemented() }

    /// Starts a new value in the frame's storage (by default there is nothing to prepare).
    func begin(_ builder: Builder) {}
    /// A value already in memory at the current position: `nil` (the default) when it can't be taken as it is,
    /// and its events follow.
    func ready(_ value: Any, _ builder: Builder) -> Bool? { nil }
    /// A value at the current position was skipped (an unknown key's, or one of the wrong shape); by default
    /// nothing is owed for it.
    func skipped() {}
    /// This frame's own container has ended; by default the value is complete as it stands.
    func finish(_ builder: Builder) -> Bool { true }

    private func unimplemented(_ event: String = #function) -> Never {
        fatalError("\(type(of: self)) does not implement \(event)")
    }

    /// Moves the finished value to `target`, leaving the frame's storage empty.
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

/// The child frames a frame has opened, one entry per codec it opens children with (an array's element codec, each
/// of a model's properties' codecs). A codec's ``ValueCodec/openObject(_:)`` and ``ValueCodec/openArray(_:)`` hand
/// out the builder's frame for the codec at the depth, begun afresh, and do nothing else; a frame stays at one depth
/// for its life, so its children are always at the next one, where the same codec gets the same frame. So the next
/// child of a codec is the frame kept here, begun afresh, without the codec's call and the builder's search of the
/// depth's frames (``Builder/frame(openedBy:isObject:make:)``); a child is never open when its parent opens another.
/// Unretained: the builder owns every frame for its life. In raw memory, allocated by `init` and freed by
/// ``deallocate()`` in ``Frame``'s `deinit`.
struct ChildFrames {
    private let frames: UnsafeMutablePointer<Unmanaged<Frame>?>
    private let count: Int

    init(count: Int) {
        self.count = max(count, 1)
        frames = .allocate(capacity: self.count)
        frames.initialize(repeating: nil, count: self.count)
    }

    func deallocate() { frames.deallocate() }

    /// The frame for a container starting now, opened with `codec` (the frame's codec number `index`): the one kept
    /// there when it is for the same kind of container, otherwise the codec's, then kept. `nil` when the codec takes
    /// no such container.
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

/// One value in memory of its own, and whether it is there: a frame's finished value waiting to be handed over
/// (``RootFrame``, ``DecodableFrame``). Kept so rather than in a `T?`: in a generic frame's unspecialized code every
/// use of a `T?` asks the runtime for `Optional<T>`'s metadata, where a `T` in place needs only `T`'s, which the
/// frame's class has. Not generic itself, for the same reason: a `HeldValue<T>` property would have its metadata
/// looked up on every access. Each method is given `T`, the type the memory was allocated for. The flag lives in
/// that memory too, so that a frame keeps its `HeldValue` in a constant: a variable would add an exclusivity check
/// to each use, four times per streamed element. Allocated by `init`; the frame's `deinit` calls ``discard(_:)``
/// then ``deallocate()``.
struct HeldValue {
    /// Where a codec stores the value (`.initialize`).
    let target: UnsafeMutableRawPointer
    private let flag: UnsafeMutablePointer<Bool>

    init<T>(_: T.Type) {
        target = UnsafeMutableRawPointer(UnsafeMutablePointer<T>.allocate(capacity: 1))
        flag = .allocate(capacity: 1)
        flag.initialize(to: false)
    }

    /// Whether `target` holds a value: set by whoever stores there.
    var isHeld: Bool {
        @inline(__always) get { flag.pointee }
        @inline(__always) nonmutating set { flag.pointee = newValue }
    }

    @inline(__always)
    private func storage<T>(_: T.Type) -> UnsafeMutablePointer<T> { target.assumingMemoryBound(to: T.self) }

    /// Holds `value`, destroying the one held before if any.
    func hold<T>(_ value: T) {
        discard(T.self)
        storage(T.self).initialize(to: value)
        isHeld = true
    }

    /// Hands the value over, once.
    func take<T>(_: T.Type) -> T? {
        guard isHeld else { return nil }
        isHeld = false
        return storage(T.self).move()
    }

    /// Moves the value to `destination` (``ModelStorage/store(_:at:mode:)``); false when there is none.
    func move<T>(_: T.Type, to destination: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard isHeld else { return false }
        isHeld = false
        ModelStorage.store(storage(T.self).move(), at: destination, mode: mode)
        return true
    }

    /// Destroys the value if there is one.
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

    /// Element streaming: the buffer each value is stored straight into, at its next slot, instead of being held here
    /// and moved there (unretained: the pipeline owns the buffer and this frame). `nil`: one value, held here.
    private let collected: Unmanaged<SlotBuffer>?

    /// `collecting`: the buffer element streaming stores each value into (``ElementBuffer``, owned by the caller).
    init(codec: ValueCodec, collecting: ElementBuffer<T>? = nil) {
        collected = collecting.map { .passUnretained($0) }
        super.init(opener: codec, isObject: false)
    }

    deinit {
        held.discard(T.self)
        held.deallocate()
    }

    /// Hands the value over, once (one value, not collected).
    func take() -> T? { held.take(T.self) }

    /// Gets ready for the next value (element streaming), the last one collected.
    func reset() {
        held.discard(T.self)
        mismatch = nil
    }

    /// Where the value is stored: the collecting buffer's next slot, or the value held here.
    private var target: UnsafeMutableRawPointer {
        if let collected { return collected.withInstance { $0.nextSlot() } }
        return held.target
    }

    /// A value was stored at ``target``: counted by the collecting buffer, or held.
    @inline(__always)
    private func stored() {
        if let collected {
            collected.withInstance { $0.commit() }
        } else {
            held.isHeld = true
        }
    }

    private func scalar(_ stored: Bool, _ builder: Builder, found: @autoclosure () -> String) -> Bool {
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
        scalar(withOpener { $0.storeNull(at: target, mode: .initialize, builder) }, builder, found: "null")
    }
    override func bool(_ value: Bool, _ builder: Builder) -> Bool {
        scalar(
            withOpener { $0.storeBool(value, at: target, mode: .initialize, builder) }, builder,
            found: value ? "true" : "false")
    }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        scalar(
            withOpener { $0.storeNumber(text, at: target, mode: .initialize, builder) }, builder,
            found: "the number " + builder.options.numberText(text))
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        scalar(
            withOpener { $0.storeString(bytes, at: target, mode: .initialize, builder) }, builder, found: "a string")
    }
    override func ready(_ value: Any, _ builder: Builder) -> Bool? {
        guard withOpener({ $0.storeReady(value, at: target, mode: .initialize, builder) }) else { return nil }
        stored()
        return builder.rootCompleted()
    }
    override func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? {
        if let child = openChild(0, with: openerReference, isObject: isObject, builder) { return child }
        _ = didNotFit(builder, found: isObject ? "an object" : "an array")
        return nil
    }
    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        if withOpener({ $0.storeValue(finishedIn: child, at: target, mode: .initialize) }) {
            stored()
        } else if !didNotFit(builder, found: child.found) {
            return false
        }
        return builder.rootCompleted()
    }
    override func skipped() {}
    override func discard() { held.discard(T.self) }
}
