import Foundation

/// How the decoder treats one type: Foundation's special types, the model path, the fast container paths, and the
/// type's mapping.
struct TypeTraits: @unchecked Sendable {
    enum Kind {
        case plain
        /// Read by the decoder itself, without `init(from:)`.
        case string, int, double, bool, float, int64, int32, uint64
        case date, data, url, decimal
        /// `[Element]`, decoded element by element (in rescue mode, the elements that can't be rescued are dropped).
        case array(any LenientArray.Type)
        /// `[String: Value]`, its keys taken as they are (as Foundation does, whatever the key strategy).
        case stringDictionary(any LenientStringDictionary.Type)
        /// `Wrapped?`: `nil` for `null`, and in rescue mode for a value that can't be rescued.
        case optional(any OptionalDecoding.Type)
        /// `Set<Element>` and `[Int: Value]`: the standard library's `init(from:)` when strict, this library's in
        /// rescue mode (dropping what can't be rescued).
        case rescuedCollection(any RescuedCollection.Type)
    }

    var kind: Kind
    /// The type's `mapping(mapper:)`, if it is a ``HandyJSON`` model, unretained: ``TypeRegistry``
    /// keeps every mapping of the traits it publishes for the life of the process. Traits are copied out of a cache
    /// on every value decoded, and a reference would be retained and released each time.
    var mappingReference: Unmanaged<ModelRules>?
    /// A ``HandyJSON`` model, whose `didFinishMapping()` runs on each value, as on the models route.
    var hasHook = false

    var mapping: ModelRules? { mappingReference?.takeUnretainedValue() }

    /// The traits of `type` under `strategy`, worked out, and the mapping they refer to, which the caller keeps
    /// (``TypeRegistry/traits(of:strategy:)`` does, for the process's life).
    static func of<T>(_ type: T.Type, strategy: KeyDecodingStrategy) -> (TypeTraits, ModelRules?) {
        var traits = TypeTraits(kind: .plain, mappingReference: nil)
        var mapping: ModelRules?
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): traits.kind = .string
        case ObjectIdentifier(Int.self): traits.kind = .int
        case ObjectIdentifier(Double.self): traits.kind = .double
        case ObjectIdentifier(Bool.self): traits.kind = .bool
        case ObjectIdentifier(Float.self): traits.kind = .float
        case ObjectIdentifier(Int64.self): traits.kind = .int64
        case ObjectIdentifier(Int32.self): traits.kind = .int32
        case ObjectIdentifier(UInt64.self): traits.kind = .uint64
        case ObjectIdentifier(Date.self): traits.kind = .date
        case ObjectIdentifier(Data.self): traits.kind = .data
        case ObjectIdentifier(URL.self): traits.kind = .url
        case ObjectIdentifier(Decimal.self): traits.kind = .decimal
        default:
            // A HandyJSON model that is also `Decodable` runs its `init(from:)` here, its coding keys read with its
            // `mapping(mapper:)` (below), with `init()` as the source of its defaults.
            if let array = type as? any LenientArray.Type {
                traits.kind = .array(array)
            } else if let dictionary = type as? any LenientStringDictionary.Type {
                traits.kind = .stringDictionary(dictionary)
            } else if let optional = type as? any OptionalDecoding.Type {
                traits.kind = .optional(optional)
            } else if let collection = type as? any RescuedCollection.Type {
                traits.kind = .rescuedCollection(collection)
            }
        }
        if let model = TypeRegistry.modelRules(of: type) {
            mapping = model
            traits.mappingReference = .passUnretained(model)
        }
        traits.hasHook = type is any HandyJSON.Type
        return (traits, mapping)
    }
}
