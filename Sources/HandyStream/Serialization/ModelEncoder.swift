import Foundation

/// Writes models (or any value the decoder reads) as JSON, driven by the same field tables as decoding.
///
///     let json = try ModelEncoder(options: EncodingOptions(prettyPrinted: true, sortedKeys: true)).encodeToString(cat)
///
/// Mappings apply in reverse: a property is written under its first mapped key (a nested key path as a nested
/// object), through its transform's `transformToJSON`; excluded properties are left out, `let` properties are
/// written. `nil` optionals are left out unless ``EncodingOptions/nilEncoding`` says `null`.
public struct ModelEncoder: Sendable {
    public var options: EncodingOptions

    public init(options: EncodingOptions = EncodingOptions()) {
        self.options = options
    }

    /// The JSON bytes of `value`.
    public func encode<T>(_ value: T) throws -> [UInt8] {
        var writer = JSONWriter(options: options)
        if let codec = TypeRegistry.codec(for: T.self).codec {
            try withUnsafePointer(to: value) { try codec.write(UnsafeRawPointer($0), to: &writer) }
        } else {
            try AnyWriter.write(value, to: &writer)
        }
        return writer.bytes
    }

    public func encodeToData<T>(_ value: T) throws -> Data { Data(try encode(value)) }

    public func encodeToString<T>(_ value: T) throws -> String { String(decoding: try encode(value), as: UTF8.self) }
}

// HandyJSON's serialization calls: `nil` where HandyJSON gave `nil` (a value that can't be written).

extension HandyJSON {
    /// The model as Foundation-style values, as `JSONSerialization` would read its JSON.
    public func toJSON() -> [String: Any]? {
        guard let bytes = try? ModelEncoder().encode(self) else { return nil }
        return try? ModelDecoder().decode([String: Any].self, from: bytes)
    }

    /// The model's JSON text, compact or pretty printed.
    public func toJSONString(prettyPrint: Bool = false) -> String? {
        try? ModelEncoder(options: EncodingOptions(prettyPrinted: prettyPrint)).encodeToString(self)
    }

    /// The model's JSON bytes.
    public func toJSONData(prettyPrint: Bool = false) -> Data? {
        try? ModelEncoder(options: EncodingOptions(prettyPrinted: prettyPrint)).encodeToData(self)
    }
}

extension Collection where Element: HandyJSON {
    /// Each model as Foundation-style values.
    public func toJSON() -> [[String: Any]?] { map { $0.toJSON() } }

    /// The models as one JSON array.
    public func toJSONString(prettyPrint: Bool = false) -> String? {
        try? ModelEncoder(options: EncodingOptions(prettyPrinted: prettyPrint)).encodeToString(Array(self))
    }

    public func toJSONData(prettyPrint: Bool = false) -> Data? {
        try? ModelEncoder(options: EncodingOptions(prettyPrinted: prettyPrint)).encodeToData(Array(self))
    }
}
