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
    /// long as the process: they are published in the type registry and never freed.
    unowned(unsafe) let opener: ValueCodec
    let isObject: Bool
    /// The next frame kept for reuse at the same depth (the builder's per-depth list).
    var nextAtDepth: Unmanaged<Frame>?
    /// For frames that fill properties: where the properties' offsets count from (a struct's storage, a class
    /// instance, or for a nested key path, the owning model's).
    var propertyBase: UnsafeMutableRawPointer?
    /// For a frame that records its value's events on a tape (a `Decodable` value, ``DecodableFrame``): the tape.
    /// The builder writes the value's keys and scalars there itself, without calling the frame (the commonest
    /// events of a `Codable` document); containers still open and close through the frame.
    var recorder: UnsafeMutablePointer<Tape>?

    init(opener: ValueCodec, isObject: Bool) {
        self.opener = opener
        self.isObject = isObject
    }

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

/// The bottom of the stack: holds the one value the caller asked for.
final class RootFrame<T>: Frame {
    let storage = UnsafeMutablePointer<T>.allocate(capacity: 1)
    private(set) var hasValue = false
    /// Why the root value was not stored, when it did not fit.
    private(set) var mismatch: String?
    /// Where it did not fit: the offset just past its first token.
    private(set) var mismatchOffset = 0

    init(codec: ValueCodec) { super.init(opener: codec, isObject: false) }

    deinit {
        discard()
        storage.deallocate()
    }

    /// Hands the value over, once.
    func take() -> T? {
        guard hasValue else { return nil }
        hasValue = false
        return storage.move()
    }

    /// Moves the value over to the end of `values` (element streaming). In generic code `take()` and then
    /// `Array.append` would copy the value once and destroy the original, and look up `[T]`'s metadata each time.
    func take(appendingTo values: ElementBuffer<T>) {
        guard hasValue else { return }
        hasValue = false
        values.nextSlot().assumingMemoryBound(to: T.self).moveInitialize(from: storage, count: 1)
        values.commit()
    }

    /// Gets ready for the next value (element streaming), after ``take()``.
    func reset() {
        discard()
        mismatch = nil
    }

    private var target: UnsafeMutableRawPointer { UnsafeMutableRawPointer(storage) }

    private func scalar(_ stored: Bool, _ builder: Builder, found: @autoclosure () -> String) -> Bool {
        hasValue = stored
        if !stored && !didNotFit(builder, found: found()) { return false }
        return builder.rootCompleted()
    }

    /// Reports a root value that doesn't fit `T`; for `T?` it becomes `nil`. Returns whether to go on.
    @inline(never)
    private func didNotFit(_ builder: Builder, found: String) -> Bool {
        mismatch = "expected \(opener.expectation), found \(found)"
        mismatchOffset = builder.currentOffset
        guard builder.fallback(mismatch! + (opener.isOptional ? "; the value became nil" : "")) else { return false }
        if opener.isOptional && opener.storeNull(at: target, mode: .initialize, builder) {
            hasValue = true
            mismatch = nil
        }
        return true
    }

    override func null(_ builder: Builder) -> Bool {
        scalar(opener.storeNull(at: target, mode: .initialize, builder), builder, found: "null")
    }
    override func bool(_ value: Bool, _ builder: Builder) -> Bool {
        scalar(
            opener.storeBool(value, at: target, mode: .initialize, builder), builder, found: value ? "true" : "false")
    }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        scalar(
            opener.storeNumber(text, at: target, mode: .initialize, builder), builder,
            found: "the number " + String(jsonBytes: text))
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        scalar(opener.storeString(bytes, at: target, mode: .initialize, builder), builder, found: "a string")
    }
    override func ready(_ value: Any, _ builder: Builder) -> Bool? {
        guard opener.storeReady(value, at: target, mode: .initialize, builder) else { return nil }
        hasValue = true
        return builder.rootCompleted()
    }
    override func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? {
        if let child = isObject ? opener.openObject(builder) : opener.openArray(builder) { return child }
        _ = didNotFit(builder, found: isObject ? "an object" : "an array")
        return nil
    }
    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        hasValue = opener.store(finished: child, at: target, mode: .initialize)
        if !hasValue && !didNotFit(builder, found: child.found) { return false }
        return builder.rootCompleted()
    }
    override func skipped() {}
    override func discard() {
        if hasValue {
            storage.deinitialize(count: 1)
            hasValue = false
        }
    }
}
