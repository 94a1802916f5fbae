/// Typed reads and writes at raw addresses. An address comes from a field table (a model's base plus a stored
/// property's offset, as reflection reports it), a frame's own storage, or an array's elements, and always holds the
/// type its codec was built for.
@usableFromInline
enum ModelStorage {
    /// Writes `value` at `target`: over the live value (`assign`, which releases the old one) or into raw memory.
    @inlinable @inline(__always)
    static func store<T>(_ value: consuming T, at target: UnsafeMutableRawPointer, mode: StoreMode) {
        let typed = target.assumingMemoryBound(to: T.self)
        switch mode {
        case .assign: typed.pointee = value
        case .initialize: typed.initialize(to: value)
        }
    }

    /// Moves the value at `source` to `target`, leaving `source` raw memory: one move, where `store(source.move(), …)`
    /// makes two. `source` must hold an initialized `T`; `target` one too for `assign`, raw memory for `initialize`.
    @inline(__always)
    static func move<T>(from source: UnsafeMutablePointer<T>, to target: UnsafeMutableRawPointer, mode: StoreMode) {
        let typed = target.assumingMemoryBound(to: T.self)
        switch mode {
        case .assign: typed.moveUpdate(from: source, count: 1)
        case .initialize: typed.moveInitialize(from: source, count: 1)
        }
    }

    /// Writes an `Any` box at `target`. Never use ``store(_:at:mode:)`` for a value whose static type is `Any`:
    /// Swift opens the existential and would write the dynamic type's bytes where an `Any` box belongs.
    @inline(__always)
    static func storeAny(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode) {
        let typed = target.assumingMemoryBound(to: Any.self)
        switch mode {
        case .assign: typed.pointee = value
        case .initialize: typed.initialize(to: value)
        }
    }

    /// A copy of the value at `source`, which must hold an initialized `T`.
    @inline(__always)
    static func load<T>(_: T.Type, from source: UnsafeRawPointer) -> T {
        source.assumingMemoryBound(to: T.self).pointee
    }

    /// Moves the value (an initialized `T`) out of `source`, leaving it raw memory.
    @inline(__always)
    static func take<T>(_: T.Type, from source: UnsafeMutableRawPointer) -> T {
        source.assumingMemoryBound(to: T.self).move()
    }

    @inline(__always)
    static func field(_ base: UnsafeMutableRawPointer, offset: Int) -> UnsafeMutableRawPointer {
        base + offset
    }
}

extension ModelStorage {
    /// The instance address held by the class reference stored at `reference`, read without retaining it.
    @inline(__always)
    static func objectBase<T>(referenceAt reference: UnsafeMutablePointer<T>) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(reference).load(as: UnsafeMutableRawPointer.self)
    }

    /// The same, for reading: the strong reference at `reference` must stay there while the address is used.
    @inline(__always)
    static func objectBase(referenceAt reference: UnsafeRawPointer) -> UnsafeRawPointer {
        reference.load(as: UnsafeRawPointer.self)
    }

    /// The elements of `array`, read in place.
    ///
    /// - Precondition: the caller holds this array value, unchanged, while it uses the addresses. A Swift array on
    ///   Linux is native: its heap buffer neither moves nor is freed while referenced, nor is changed while shared.
    @inline(__always)
    static func elements<Element>(of array: [Element]) -> ElementRun {
        array.withUnsafeBufferPointer { ElementRun($0) }
    }

    /// The elements of the array stored at `array`, read in place. It must stay there, unchanged, while the addresses
    /// are used (the encoder reads a property's array while the model holding it is written).
    @inline(__always)
    static func elements<Element>(of array: UnsafePointer<[Element]>) -> ElementRun {
        array.pointee.withUnsafeBufferPointer { ElementRun($0) }
    }

    /// An array's elements as untyped memory (an `UnsafeBufferPointer<Element>` would cost a metadata look-up).
    struct ElementRun {
        let base: UnsafeRawPointer?
        let count: Int
        let stride: Int

        static var empty: ElementRun { ElementRun(base: nil, count: 0, stride: 0) }

        init(base: UnsafeRawPointer?, count: Int, stride: Int) {
            self.base = base
            self.count = count
            self.stride = stride
        }

        @inline(__always)
        init<Element>(_ buffer: UnsafeBufferPointer<Element>) {
            self.init(
                base: UnsafeRawPointer(buffer.baseAddress), count: buffer.count,
                stride: MemoryLayout<Element>.stride)
        }

        @inline(__always)
        func address(_ index: Int) -> UnsafeRawPointer {
            assert(index >= 0 && index < count, "ElementRun: element index out of range")
            return base! + index &* stride
        }
    }

    /// The address of the value inside the non-`nil` `Optional` at `optional`: a single-payload enum keeps its payload
    /// at offset 0, whatever its type (the ABI's TypeLayout rules), so it is read in place.
    @inline(__always)
    static func payload<Wrapped>(ofOptionalAt optional: UnsafeRawPointer, _: Wrapped.Type) -> UnsafeRawPointer {
        assert(optional.assumingMemoryBound(to: Wrapped?.self).pointee != nil, "payload of nil")
        return optional
    }
}
