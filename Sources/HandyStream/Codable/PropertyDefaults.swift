import Foundation

/// A type that can be made empty: lenient decoding takes a missing or unfit property's value from what `init()`
/// gives that property. Every ``HandyJSON`` model is one; a plain `Codable` type adopts it to get the same defaults.
///
///     struct Profile: Codable, EmptyInitializable {
///         var name = "anon"
///         var age = 18
///     }
///     try ModelDecoder().decode(Profile.self, from: #"{"age": "old"}"#)   // name "anon", age 18
///
/// The property is found through the type's own coding keys (custom raw values included): for an `Encodable` type,
/// by encoding `init()`'s value once; otherwise by the stored property's name.
public protocol EmptyInitializable {
    init()
}

/// What `init()` gives each property of a type, by coding key, worked out once per type.
final class PropertyDefaults: @unchecked Sendable {
    private let byKey: [String: Any]
    private let byProperty: [String: Any]

    private init(byKey: [String: Any], byProperty: [String: Any]) {
        self.byKey = byKey
        self.byProperty = byProperty
    }

    /// The default for the property read with `key`.
    func value(for key: some CodingKey) -> Any? {
        let name = key.stringValue
        return byKey[name] ?? byProperty[name] ?? byProperty["_" + name]
    }

    /// Works out the defaults of `type` (``TypeRegistry/defaults(of:)`` keeps them).
    static func make(_ type: any EmptyInitializable.Type) -> PropertyDefaults {
        let value = type.init()
        var byKey: [String: Any] = [:]
        if let encodable = value as? any Encodable {
            let capture = KeyCapture()
            try? encodable.encode(to: capture)
            byKey = capture.values
        }
        var byProperty: [String: Any] = [:]
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            for child in current.children {
                if let label = child.label, byProperty[label] == nil { byProperty[label] = child.value }
            }
            mirror = current.superclassMirror
        }
        return PropertyDefaults(byKey: byKey, byProperty: byProperty)
    }
}

/// An `Encoder` that keeps the values a type encodes at its top level, by key: the values `init()` gives, named by
/// the type's own coding keys.
private final class KeyCapture: Encoder {
    var values: [String: Any] = [:]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(capture: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Ignored() }
    func singleValueContainer() -> any SingleValueEncodingContainer { Ignored() }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let capture: KeyCapture
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) {}
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { capture.values[key.stringValue] = value }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(capture: KeyCapture()))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Ignored() }
        mutating func superEncoder() -> any Encoder { KeyCapture() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { KeyCapture() }
    }

    /// Discards what is written into it.
    private struct Ignored: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        mutating func encodeNil() {}
        mutating func encode<T: Encodable>(_ value: T) {}
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(capture: KeyCapture()))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Ignored() }
        mutating func superEncoder() -> any Encoder { KeyCapture() }
    }
}
