/// Every read and write of a typed value through a raw address goes through this file.
///
/// Targets are addresses handed out by field tables (a model's base address plus a stored property's offset, as the
/// runtime's reflection reports it), scratch memory owned by a frame, or the elements of an array being written.
/// The type at an address is always the one the codec was built for: a field table pairs each offset with the codec
/// of that property's own type, and a container's frame or cursor hands out only addresses of its element type.
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

    /// Moves the value at `source` to `target`, leaving `source` raw memory: over the live value there (`assign`)
    /// or into raw memory. One move, where `store(source.move(), …)` makes two and a temporary of the value's size
    /// (in code that is not specialized, a call to the type's value witness each).
    ///
    /// - Precondition: `source` holds an initialized `T` (a frame's own storage for the value it finished), and
    ///   `target` an initialized `T` for `assign` or raw memory for `initialize` (the codec of `target`'s type hands
    ///   out the address and the mode).
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

    /// A copy of the value at `source`.
    ///
    /// - Precondition: `source` holds an initialized value of type `T` (a field table pairs each offset with the codec
    ///   of that property's own type; a cursor or frame hands out only addresses of values of its element type).
    @inline(__always)
    static func load<T>(_: T.Type, from source: UnsafeRawPointer) -> T {
        source.assumingMemoryBound(to: T.self).pointee
    }

    /// Moves the value out of `source`, leaving it raw memory.
    @inline(__always)
    static func take<T>(_: T.Type, from source: UnsafeMutableRawPointer) -> T {
        source.assumingMemoryBound(to: T.self).move()
    }

    /// The address of a class instance's storage: stored-property offsets of classes count from here.
    @inline(__always)
    static func base(of object: AnyObject) -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(object).toOpaque()
    }

    /// The address of a stored property.
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

    /// The same, for reading: `reference` holds a strong class reference, which stays there while the address is used.
    @inline(__always)
    static func objectBase(referenceAt reference: UnsafeRawPointer) -> UnsafeRawPointer {
        reference.load(as: UnsafeRawPointer.self)
    }

    /// The elements of `array`, read in place.
    ///
    /// - Precondition: the caller holds this very array value (a reference to its buffer) and does not change it
    ///   for as long as it uses the addresses. A Swift array on Linux is always native: its elements live in the
    ///   heap buffer the value refers to, which neither moves nor is freed while a reference is held, and which no
    ///   one else can change in place while the caller's reference makes it shared.
    @inline(__always)
    static func elements<Element>(of array: [Element]) -> ElementRun {
        array.withUnsafeBufferPointer { ElementRun($0) }
    }

    /// The elements of the array stored at `array`, read in place.
    ///
    /// - Precondition: the array stored there stays there, unchanged, for as long as the caller uses the addresses
    ///   (the encoder reads a property's array while the value holding it is being written).
    @inline(__always)
    static func elements<Element>(of array: UnsafePointer<[Element]>) -> ElementRun {
        array.pointee.withUnsafeBufferPointer { ElementRun($0) }
    }

    /// An array's elements as untyped memory: `count` values, one every `stride` bytes from `base`. Generic
    /// cursors keep this rather than an `UnsafeBufferPointer<Element>`: in their unspecialized code, keeping one of
    /// those asked the runtime for its metadata on every array.
    struct ElementRun {
        let base: UnsafeRawPointer?
        let count: Int
        let stride: Int

        static var empty: ElementRun { ElementRun(base: nil, count: 0, stride: 0) }

        private init(base: UnsafeRawPointer?, count: Int, stride: Int) {
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

        /// The address of element `index`.
        @inline(__always)
        func address(_ index: Int) -> UnsafeRawPointer {
            assert(index >= 0 && index < count, "ElementRun: element index out of range")
            return base! + index &* stride
        }
    }

    /// The address of the value inside the `Optional` at `optional`, which is not `nil`.
    ///
    /// Swift lays out a single-payload enum (as `Optional` is) with its payload at offset 0, whatever the payload's
    /// type (the ABI's TypeLayout rules), so the wrapped value is read in place, without a copy.
    @inline(__always)
    static func payload<Wrapped>(ofOptionalAt optional: UnsafeRawPointer, _: Wrapped.Type) -> UnsafeRawPointer {
        assert(optional.assumingMemoryBound(to: Wrapped?.self).pointee != nil, "payload of nil")
        return optional
    }
}
