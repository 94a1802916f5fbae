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
/// Properties are matched by the type's coding keys, found by encoding `init()`'s value once when the type is
/// `Encodable`, else by stored property name.
public protocol EmptyInitializable {
    init()
}

/// What `init()` gives each property of a type, by coding key, worked out once per type.
final class PropertyDefaults: @unchecked Sendable {
    private let byKey: [String: Any]
    private let byProperty: [String: Any]
    /// For an `Encodable` type, each property's coding key by property name (``CodingKeyNames``), which the field
    /// tables of a model that is also `Codable` follow (ModelRules.swift).
    let codingKeys: [String: String]

    private init(byKey: [String: Any], byProperty: [String: Any], codingKeys: [String: String]) {
        self.byKey = byKey
        self.byProperty = byProperty
        self.codingKeys = codingKeys
    }

    func value(for key: some CodingKey) -> Any? {
        let name = key.stringValue
        return byKey[name] ?? byProperty[name] ?? byProperty["_" + name]
    }

    /// Kept by ``TypeRegistry/defaults(of:)``.
    static func make(_ type: any EmptyInitializable.Type) -> PropertyDefaults {
        let value = type.init()
        var byKey: [String: Any] = [:]
        var codingKeys: [String: String] = [:]
        if let encodable = value as? any Encodable {
            let capture = KeyCapture()
            try? encodable.encode(to: capture)
            byKey = capture.values
            codingKeys = capture.names
        }
        return PropertyDefaults(byKey: byKey, byProperty: Mirror.storedValues(of: value), codingKeys: codingKeys)
    }
}

/// Keeps a type's top-level encoded values by key, and each key (a `nil` optional's too) by property.
private final class KeyCapture: Encoder {
    var values: [String: Any] = [:]
    var names: [String: String] = [:]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func note(_ key: some CodingKey) {
        let property = CodingKeyNames.property(of: key)
        if names[property] == nil { names[property] = key.stringValue }
    }

    func keep<T>(_ value: T?, _ key: some CodingKey) {
        note(key)
        if let value { values[key.stringValue] = value }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(capture: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Ignored() }
    func singleValueContainer() -> any SingleValueEncodingContainer { Ignored() }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let capture: KeyCapture
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) { capture.note(key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { capture.keep(value, key) }
        // `encodeIfPresent`'s defaults encode nothing for `nil`: these note the key then too.
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) { capture.keep(value, key) }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) { capture.keep(value, key) }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(capture: KeyCapture()))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Ignored() }
        mutating func superEncoder() -> any Encoder { KeyCapture() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { KeyCapture() }
    }

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
