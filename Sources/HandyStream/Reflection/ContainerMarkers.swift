// Markers that let the registry open generic containers (Optional, Array, Set, Dictionary) and model codecs from
// a bare metatype.

/// Marks model codecs without naming their generic parameter.
protocol ModelCodecMarker {}
extension ModelCodec: ModelCodecMarker {}

// MARK: - Opening generic containers

/// Lets the registry reach `Wrapped` in `Optional<Wrapped>` from a bare metatype.
protocol OptionalMarker {
    static var wrappedType: Any.Type { get }
    static func makeCodec(wrapped: ValueCodec) -> ValueCodec
}

extension Optional: OptionalMarker {
    static var wrappedType: Any.Type { Wrapped.self }
    static func makeCodec(wrapped: ValueCodec) -> ValueCodec { OptionalCodec<Wrapped>(wrapped: wrapped) }
}

protocol ArrayMarker {
    static var elementType: Any.Type { get }
    static func makeCodec(element: ValueCodec) -> ValueCodec
}

extension Array: ArrayMarker {
    static var elementType: Any.Type { Element.self }
    static func makeCodec(element: ValueCodec) -> ValueCodec { ArrayCodec<Element>(element: element) }
}

protocol SetMarker {
    static var elementType: Any.Type { get }
    static func makeCodec(element: ValueCodec) -> ValueCodec
}

extension Set: SetMarker {
    static var elementType: Any.Type { Element.self }
    static func makeCodec(element: ValueCodec) -> ValueCodec { SetCodec<Element>(element: element) }
}

protocol DictionaryMarker {
    static var valueType: Any.Type { get }
    static func makeCodec(value: ValueCodec) -> ValueCodec
}

extension Dictionary: DictionaryMarker where Key == String {
    static var valueType: Any.Type { Value.self }
    static func makeCodec(value: ValueCodec) -> ValueCodec { DictionaryCodec<Value>(value: value) }
}

/// Array types common enough in real documents to deserve code specialized for them (see ``ArrayFinishing``).
enum KnownContainers {
    static func arrayCodec(for type: Any.Type, element: ValueCodec) -> ValueCodec? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier([Double].self): ArrayCodec<Double>(element: element, finishing: .make())
        case ObjectIdentifier([[Double]].self): ArrayCodec<[Double]>(element: element, finishing: .make())
        case ObjectIdentifier([[[Double]]].self): ArrayCodec<[[Double]]>(element: element, finishing: .make())
        case ObjectIdentifier([Float].self): ArrayCodec<Float>(element: element, finishing: .make())
        case ObjectIdentifier([Int].self): ArrayCodec<Int>(element: element, finishing: .make())
        case ObjectIdentifier([[Int]].self): ArrayCodec<[Int]>(element: element, finishing: .make())
        case ObjectIdentifier([Int64].self): ArrayCodec<Int64>(element: element, finishing: .make())
        case ObjectIdentifier([UInt64].self): ArrayCodec<UInt64>(element: element, finishing: .make())
        case ObjectIdentifier([Int32].self): ArrayCodec<Int32>(element: element, finishing: .make())
        case ObjectIdentifier([String].self): ArrayCodec<String>(element: element, finishing: .make())
        case ObjectIdentifier([Bool].self): ArrayCodec<Bool>(element: element, finishing: .make())
        case ObjectIdentifier([Any].self): ArrayCodec<Any>(element: element, finishing: .make())
        case ObjectIdentifier([[String: Any]].self): ArrayCodec<[String: Any]>(element: element, finishing: .make())
        default: nil
        }
    }
}
