import Foundation

/// How the decoder treats one type: the types it reads itself, and the type's mapping.
struct TypeTraits: @unchecked Sendable {
    enum Kind {
        case plain
        /// Read by the decoder itself, without `init(from:)`.
        case string, int, double, bool, float, int64, int32, uint64
        case date, data, url, decimal
        /// The other integer types, read as the ones above are (lenient mode converts them alike).
        case scalar(any TapeScalar.Type)
        case array(any LenientArray.Type)
        case stringDictionary(any LenientStringDictionary.Type)
        case optional(any OptionalDecoding.Type)
        /// Read by the decoder itself only in rescue mode.
        case rescuedCollection(any RescuedCollection.Type)
    }

    var kind: Kind
    /// Unretained, as ``TypeRegistry`` keeps it for the process's life: traits are copied out of a cache on every
    /// value, and a reference would be retained and released each time.
    var mappingReference: Unmanaged<ModelRules>?
    /// For a ``HandyJSON`` model, what runs its `didFinishMapping()` on each value, as on the models route; unretained
    /// as the mapping is.
    var hook: Unmanaged<FinishingHook>?

    var mapping: ModelRules? { mappingReference?.takeUnretainedValue() }

    /// Also returns the hook they refer to, for the caller to keep (``TypeRegistry/traits(of:strategy:)``).
    static func of<T>(_ type: T.Type, strategy: KeyDecodingStrategy) -> (TypeTraits, FinishingHook?) {
        var traits = TypeTraits(kind: .plain, mappingReference: nil)
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
            if let scalar = type as? any TapeScalar.Type {
                traits.kind = .scalar(scalar)
            } else if let array = type as? any LenientArray.Type {
                traits.kind = .array(array)
            } else if let dictionary = type as? any LenientStringDictionary.Type {
                traits.kind = .stringDictionary(dictionary)
            } else if let optional = type as? any OptionalDecoding.Type {
                traits.kind = .optional(optional)
            } else if let collection = type as? any RescuedCollection.Type {
                traits.kind = .rescuedCollection(collection)
            }
        }
        if let model = TypeRegistry.modelRules(of: type) { traits.mappingReference = .passUnretained(model) }
        guard let model = type as? any HandyJSON.Type else { return (traits, nil) }
        let hook = FinishingHook.of(model)
        traits.hook = .passUnretained(hook)
        return (traits, hook)
    }
}

/// Runs a model's `didFinishMapping()` on a value decoded by its `init(from:)`, typed: no cast of the value.
class FinishingHook {
    /// Calls `didFinishMapping()` on the model at `value`, of the type the hook was made for.
    func finish(_ value: UnsafeMutableRawPointer) {}

    static func of<Model: HandyJSON>(_: Model.Type) -> FinishingHook { ModelFinishingHook<Model>() }
}

private final class ModelFinishingHook<Model: HandyJSON>: FinishingHook {
    override func finish(_ value: UnsafeMutableRawPointer) {
        value.assumingMemoryBound(to: Model.self).pointee.didFinishMapping()
    }
}
