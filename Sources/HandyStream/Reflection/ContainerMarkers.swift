// Markers that open generic containers (Optional, Array, Set, Dictionary, InlineArray) from a bare metatype.

/// A generic container of one element type (a dictionary's values, an optional's wrapped type), and its codec.
protocol ContainerMarker {
    static var elementType: Any.Type { get }
    static func makeCodec(element: ValueCodec) -> ValueCodec
}

extension Optional: ContainerMarker {
    static var elementType: Any.Type { Wrapped.self }
    static func makeCodec(element: ValueCodec) -> ValueCodec { OptionalCodec<Wrapped>(wrapped: element) }
}

extension Array: ContainerMarker {
    static var elementType: Any.Type { Element.self }
    static func makeCodec(element: ValueCodec) -> ValueCodec {
        KnownContainers.codec(for: Self.self, element: element)
            ?? ArrayCodec<Element>(element: element, finishing: ContainerFinishing<Element>.ofModel?.array ?? .make())
    }
}

extension Set: ContainerMarker {
    static var elementType: Any.Type { Element.self }
    static func makeCodec(element: ValueCodec) -> ValueCodec { SetCodec<Element>(element: element) }
}

extension Dictionary: ContainerMarker where Key == String {
    static var elementType: Any.Type { Value.self }
    static func makeCodec(element: ValueCodec) -> ValueCodec {
        KnownContainers.codec(for: Self.self, element: element)
            ?? DictionaryCodec<Value>(
                value: element, finishing: ContainerFinishing<Value>.ofModel?.dictionary ?? .make())
    }
}

/// Lets the registry reach an `InlineArray`'s count and element type from a bare metatype, and act on its type.
protocol InlineArrayMarker {
    static var elementType: Any.Type { get }
    static var elementCount: Int { get }
    static var elementStride: Int { get }
    static var valueSize: Int { get }
    static var valueAlignment: Int { get }
    /// Whether element `i` starts at `i × elementStride` and the value is its elements and nothing else.
    static var isLaidOutByStride: Bool { get }
    /// Whether the value is plain bytes: no references, nothing to destroy, copied by copying its bytes.
    static var isTrivial: Bool { get }
    /// Moves the value whose elements are initialized at `source` to `target`, leaving `source` uninitialized.
    static func moveValue(from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer, mode: StoreMode)
    static func destroyElements(_ elements: UnsafeMutableRawPointer, count: Int)
}

extension InlineArray: InlineArrayMarker {
    static var elementType: Any.Type { Element.self }
    static var elementCount: Int { count }
    static var elementStride: Int { MemoryLayout<Element>.stride }
    static var valueSize: Int { MemoryLayout<Self>.size }
    static var valueAlignment: Int { MemoryLayout<Self>.alignment }
    static var isLaidOutByStride: Bool {
        MemoryLayout<Self>.alignment == MemoryLayout<Element>.alignment
            && MemoryLayout<Self>.stride == count * MemoryLayout<Element>.stride
    }
    static var isTrivial: Bool { _isPOD(Self.self) }
    static func moveValue(from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer, mode: StoreMode) {
        ModelStorage.store(source.assumingMemoryBound(to: Self.self).move(), at: target, mode: mode)
    }
    static func destroyElements(_ elements: UnsafeMutableRawPointer, count: Int) {
        elements.assumingMemoryBound(to: Element.self).deinitialize(count: count)
    }
}

/// How arrays and dictionaries of one element type are made, in code specialized for that type.
@usableFromInline
struct ContainerFinishing<Element> {
    @usableFromInline let array: ArrayFinishing<Element>
    @usableFromInline let dictionary: DictionaryFinishing<Element>

    /// Called where `Element` is concrete: a model's module (``HandyJSON/_containerFinishing``), ``KnownContainers``.
    @inlinable @inline(__always)
    init() {
        array = .make(specialized: true)
        dictionary = .make()
    }

    /// The finishing a model's own module compiled for it, when `Element` is a `HandyJSON` model.
    static var ofModel: ContainerFinishing? {
        (Element.self as? any HandyJSON.Type)?._containerFinishing as? ContainerFinishing
    }
}

/// Array and dictionary types common enough to deserve specialized code (see ``ArrayFinishing``).
enum KnownContainers {
    static func codec(for type: Any.Type, element: ValueCodec) -> ValueCodec? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier([Double].self): array(Double.self, element)
        case ObjectIdentifier([[Double]].self): array([Double].self, element)
        case ObjectIdentifier([[[Double]]].self): array([[Double]].self, element)
        case ObjectIdentifier([Float].self): array(Float.self, element)
        case ObjectIdentifier([Int].self): array(Int.self, element)
        case ObjectIdentifier([[Int]].self): array([Int].self, element)
        case ObjectIdentifier([Int64].self): array(Int64.self, element)
        case ObjectIdentifier([UInt64].self): array(UInt64.self, element)
        case ObjectIdentifier([Int32].self): array(Int32.self, element)
        case ObjectIdentifier([String].self): array(String.self, element)
        case ObjectIdentifier([Bool].self): array(Bool.self, element)
        case ObjectIdentifier([Any].self): array(Any.self, element)
        case ObjectIdentifier([[String: Any]].self): array([String: Any].self, element)
        case ObjectIdentifier([String: String].self): dictionary(String.self, element)
        case ObjectIdentifier([String: Int].self): dictionary(Int.self, element)
        case ObjectIdentifier([String: Double].self): dictionary(Double.self, element)
        case ObjectIdentifier([String: Bool].self): dictionary(Bool.self, element)
        case ObjectIdentifier([String: [Int]].self): dictionary([Int].self, element)
        case ObjectIdentifier([String: [String]].self): dictionary([String].self, element)
        case ObjectIdentifier([String: Any].self): dictionary(Any.self, element)
        default: nil
        }
    }

    /// Called with a concrete `Value`, so that the dictionary's finishing is specialized code.
    @inline(__always)
    private static func dictionary<Value>(_: Value.Type, _ value: ValueCodec) -> ValueCodec {
        DictionaryCodec<Value>(value: value, finishing: .make())
    }

    @inline(__always)
    private static func array<Element>(_: Element.Type, _ element: ValueCodec) -> ValueCodec {
        ArrayCodec<Element>(element: element, finishing: .make(specialized: true))
    }
}
