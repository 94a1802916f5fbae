import Foundation

/// Writes models, `Encodable` values (or any value the decoder reads) as JSON: models driven by the same field tables
/// as decoding, `Encodable` values by their `encode(to:)`, written as Foundation's `JSONEncoder` writes them.
///
///     let json = try ModelEncoder(options: EncodingOptions(prettyPrinted: true, sortedKeys: true)).encodeToString(cat)
///
/// Mappings apply in reverse: a property is written under its first mapped key (a nested key path as a nested
/// object), through its transform's `transformToJSON`; excluded properties are left out, `let` properties are
/// written. `nil` optionals are left out unless ``EncodingOptions/nilEncoding`` says `null`.
public struct ModelEncoder: Sendable {
    /// How the output is written: pretty or compact, key order and strategy, `nil`, non-finite numbers, depth.
    public var options: EncodingOptions

    /// An encoder with `options`.
    public init(options: EncodingOptions = EncodingOptions()) {
        self.options = options
    }

    /// The JSON bytes of `value`: an `Encodable` value byte for byte as `JSONEncoder` writes it, except that a
    /// ``HandyJSON`` model's `mapping(mapper:)` holds in it; a ``JSONValue`` or any other value by its type's field
    /// tables, or as `Any`.
    public func encode<T>(_ value: T) throws -> [UInt8] {
        var run = EncodingRun(options: options)
        // A JSONValue at the root is written as it was read (duplicate keys kept); inside an `Encodable` value, by
        // its `encode(to:)` with its numbers' text kept.
        if T.self != JSONValue.self, let encodable = value as? any Encodable {
            try run.writeEncodable(encodable, isTopLevel: true)
        } else {
            try Self.encode(value, with: &run)
        }
        return run.writer.bytes
    }

    /// The JSON bytes of `value` by its type's field tables first (HandyJSON's calls).
    package func encodeByTables<T>(_ value: T) throws -> [UInt8] { try runByTables(value).writer.bytes }

    /// `value` as Foundation-style values, each number in the type it is stored as.
    package func foundationValue<T>(_ value: T) throws -> Any? {
        try runByTables(value, buildsValues: true).writer.builtValue
    }

    private func runByTables<T>(_ value: T, buildsValues: Bool = false) throws -> EncodingRun {
        var run = EncodingRun(options: options, buildsValues: buildsValues)
        try Self.encode(value, with: &run)
        return run
    }

    /// By its type's codec, else its `encode(to:)`, else as `Any`.
    static func encode<T>(_ value: T, with run: inout EncodingRun) throws {
        if let codec = TypeRegistry.codec(for: T.self).codec {
            try withUnsafePointer(to: value) { try run.encode(codec, at: UnsafeRawPointer($0)) }
        } else if let encodable = value as? any Encodable {
            try run.writeEncodable(encodable)
        } else {
            try run.encode(any: value)
        }
    }

    /// The JSON of `value`, as a `String`.
    public func encodeToString<T>(_ value: T) throws -> String { String(decoding: try encode(value), as: UTF8.self) }
}
