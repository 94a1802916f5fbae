import Foundation

/// Collects a model's custom mapping: written in `mapping(mapper:)`, read once per type when its field table is built,
/// and baked into the table, so that it costs nothing per value.
///
///     mutating func mapping(mapper: HelpingMapper) {
///         mapper <<< self.id <-- "cat_id"                                  // another key
///         mapper <<< self.name <-- ["nickname", "nick_name"]              // the first key present wins
///         mapper <<< self.friendName <-- "friend.name"                     // a nested key path
///         mapper <<< self.birthday <-- ("birth", DateTransform())          // a key and a transform
///         mapper >>> self.cache                                            // neither decoded nor encoded
///     }
///
/// A property is recognized by its address: `mapping(mapper:)` runs on an instance whose storage the table builder
/// knows, so each `self.property` passed `inout` names one stored property's offset.
public final class HelpingMapper {
    let base: UnsafeRawPointer
    private(set) var mappings: [(property: MappedProperty, handler: MappingPropertyHandler)] = []
    private(set) var exclusions: [MappedProperty] = []

    init(base: UnsafeRawPointer) {
        self.base = base
    }

    func offset(ofAddress address: Int) -> Int { address - Int(bitPattern: base) }

    package func add(_ mapping: CustomMappingKeyValueTuple) {
        mappings.append(
            (
                MappedProperty(offset: offset(ofAddress: mapping.0), type: mapping.1.propertyType),
                mapping.1
            ))
    }

    package func exclude<T>(address: Int, _: T.Type) {
        exclusions.append(MappedProperty(offset: offset(ofAddress: address), type: PropertyType(T.self)))
    }

    /// Reads the property from `key` (a nested path such as `"friend.name"` is allowed).
    public func specify<T>(property: inout T, name: String) {
        add((address(of: &property), MappingPropertyHandler(keys: [name], type: T.self)))
    }

    /// Reads the property through `converter`, which is given the value's text as the document writes it: a
    /// string's contents, a number's literal (`12345678901234567890`, `1.50`), `true` or `false`, or the compact
    /// JSON text of an object or array. `null` leaves the default.
    public func specify<T>(property: inout T, converter: @escaping (String) -> T) {
        specify(property: &property, name: nil, converter: converter)
    }

    /// Reads the property from `name` (when given) through `converter` (when given).
    public func specify<T>(property: inout T, name: String?, converter: ((String) -> T)?) {
        let adapter = converter.map { convert in
            ValueAdapter(
                readsText: true,
                fromJSON: { json, target, mode in
                    guard let text = json as? String else { return false }
                    ModelStorage.store(convert(text), at: target, mode: mode)
                    return true
                },
                toJSON: { source in ModelStorage.load(T.self, from: source) as Any })
        }
        add((address(of: &property), MappingPropertyHandler(keys: name.map { [$0] }, type: T.self, adapter: adapter)))
    }

    /// Leaves the property out: it is neither decoded nor encoded, and may be of any type.
    public func exclude<T>(property: inout T) {
        exclude(address: address(of: &property), T.self)
    }
}

/// A property's address, as HandyJSON's mapping identified properties.
@inline(__always)
package func address<T>(of property: inout T) -> Int {
    withUnsafeMutablePointer(to: &property) { Int(bitPattern: $0) }
}

/// What one mapping says of its property: the keys it is read from and how its value is adapted.
public final class MappingPropertyHandler {
    /// Candidate keys or key paths, in order of preference; `nil` keeps the property's own key.
    let keys: [String]?
    let adapter: ValueAdapter?
    /// The type of the property the mapping was written for: with its address, it tells a property from a
    /// zero-sized one stored at the same offset, and it is what the adapter stores.
    let propertyType: PropertyType

    init<T>(keys: [String]?, type: T.Type, adapter: ValueAdapter?) {
        self.keys = keys
        self.adapter = adapter
        self.propertyType = PropertyType(T.self)
    }

    /// Reads the property from the first of `keys` present (its own key when `nil`).
    package convenience init<T>(keys: [String]?, type: T.Type) {
        self.init(keys: keys, type: type, adapter: nil)
    }

    /// Reads and writes the property from `keys` (its own key when `nil`) through `transformer`.
    package static func transform<Transform: TransformType>(keys: [String]?, _ transformer: Transform?)
        -> MappingPropertyHandler
    {
        let adapter = transformer.map { transform in
            ValueAdapter(
                fromJSON: { json, target, mode in
                    guard let value = transform.transformFromJSON(json) else { return false }
                    ModelStorage.store(value, at: target, mode: mode)
                    return true
                },
                toJSON: { source in
                    transform.transformToJSON(ModelStorage.load(Transform.Object.self, from: source))
                })
        }
        return MappingPropertyHandler(keys: keys, type: Transform.Object.self, adapter: adapter)
    }

    /// The same for an optional property.
    package static func optionalTransform<Transform: TransformType>(keys: [String]?, _ transformer: Transform?)
        -> MappingPropertyHandler
    {
        let adapter = transformer.map { transform in
            ValueAdapter(
                fromJSON: { json, target, mode in
                    guard let value = transform.transformFromJSON(json) else { return false }
                    ModelStorage.store(Optional(value), at: target, mode: mode)
                    return true
                },
                toJSON: { source in
                    ModelStorage.load(Transform.Object?.self, from: source).flatMap(transform.transformToJSON)
                })
        }
        return MappingPropertyHandler(keys: keys, type: Transform.Object?.self, adapter: adapter)
    }
}

/// A property's type as a mapping names it, with the type a `lazy var` of that type is stored as (`T?`).
struct PropertyType {
    let type: Any.Type
    let lazyStorageType: Any.Type

    init<T>(_: T.Type) {
        type = T.self
        lazyStorageType = T?.self
    }

    func matches(_ other: Any.Type) -> Bool { ObjectIdentifier(type) == ObjectIdentifier(other) }
}

/// A property named in `mapping(mapper:)`: its offset in the instance (from the address it was passed at) and its
/// type. A lazy, weak, unowned or observed property is passed as a temporary copy, whose address is no offset.
struct MappedProperty {
    let offset: Int
    let type: PropertyType
}

/// A property's address and what its mapping says, as `<--` makes them and `<<<` hands them to the mapper.
public typealias CustomMappingKeyValueTuple = (Int, MappingPropertyHandler)

/// Converts a property's value from and to Foundation-style JSON values, typed for it by the mapping operators.
struct ValueAdapter {
    /// `fromJSON` is given the value's text as written (a `String`): the converters of `specify(property:converter:)`.
    var readsText = false
    /// The adapter calls an object made by `mapping(mapper:)` (a transform, a converter closure), which the type's
    /// table shares between threads: calls to it are serialized (see ``TransformCodec``).
    var callsSharedObject = true
    /// Stores the value for `json` at `target`; `false` when the value doesn't fit (the default is kept).
    let fromJSON: (Any?, UnsafeMutableRawPointer, StoreMode) -> Bool
    /// The JSON value for the property at `source`, or `nil` to leave it out.
    let toJSON: (UnsafeRawPointer) -> Any?
}
