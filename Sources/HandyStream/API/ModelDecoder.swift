import Foundation

/// The native, throwing decoder: JSON bytes to models (or any decodable type), with options.
///
///     let cat = try ModelDecoder().decode(Cat.self, from: data, at: "data.cat")
///     let cats = try ModelDecoder().decode([Cat].self, from: json)
///
/// Bad input, or a model whose declaration can't be decoded (kind `invalidModel`), throws a ``JSONDecodingError`` that
/// says what went wrong and where (byte offset, line, column, JSON path). Values that don't fit their property keep its
/// default unless ``DecodingOptions/strict`` is set. Decoding a designated path reads the document only up to the end
/// of that value.
///
/// Any `Decodable` type is accepted too (see <doc:MigratingFromJSONDecoder>): in strict mode exactly as Foundation's
/// `JSONDecoder` (every error a `DecodingError` with this library's location as its `underlyingError`); by default
/// leniently, giving `JSONDecoder`'s value wherever it decodes and rescuing only what it refuses. A type that is both
/// ``HandyJSON`` and `Decodable` reads each property as its ``HandyJSON/mapping(mapper:)`` says (keys, exclusions,
/// transforms), then by its `CodingKeys`.
public struct ModelDecoder: Sendable {
    /// How values that don't fit are treated, the nesting cap, the key strategy and the diagnostics handler.
    public var options: DecodingOptions

    /// A decoder with `options`.
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
    }

    /// Decodes a value of type `T` from the JSON in `bytes` (`Data`, `[UInt8]`, or any contiguous bytes), or from
    /// the value at `path` in it.
    public func decode<T>(_ type: T.Type, from bytes: some ContiguousBytes, at path: String = "") throws -> T {
        try bytes.withUnsafeBytes { try decode(type, input: $0, path: path) }
    }

    /// Decodes a value of type `T` from JSON text, or from the value at `path` in it.
    public func decode<T>(_ type: T.Type, from string: String, at path: String = "") throws -> T {
        var string = string
        return try string.withUTF8 { try decode(type, input: UnsafeRawBufferPointer($0), path: path) }
    }

    /// Decodes a value of type `T` from Foundation-style values (`[String: Any]`, `[Any]`, as `JSONSerialization`
    /// makes them), or from the value at `path` in them, through the same engine and rules as JSON text.
    public func decode<T>(_ type: T.Type, fromJSONObject object: Any, at path: String = "") throws -> T {
        let pipeline = try pipeline(type, at: path, mode: .value)
        if let value = try pipeline.decode(object: object) { return value }
        return try pipeline.takeValue()
    }

    private func decode<T>(_ type: T.Type, input: UnsafeRawBufferPointer, path: String) throws -> T {
        let pipeline = try pipeline(type, at: path, mode: .value)
        if let value = try pipeline.decode(document: input) { return value }
        return try pipeline.takeValue(input: input)
    }

    /// The pipeline for `type` at `path`: the codec is made first, so its problems are thrown before a bad path's.
    /// At the empty path, elements are each top-level value (`[*]` is a top-level array's elements).
    func pipeline<T>(_ type: T.Type, at path: String, mode: DecodingPipeline<T>.Mode, singleDocument: Bool = false)
        throws -> DecodingPipeline<T>
    {
        try pipeline(type, at: DesignatedPath(parsing: path), mode: mode, singleDocument: singleDocument)
    }

    func pipeline<T>(
        _ type: T.Type, at parsed: DesignatedPath, mode: DecodingPipeline<T>.Mode, singleDocument: Bool = false
    ) throws -> DecodingPipeline<T> {
        let codec = try Decoding.rootCodec(for: type, strategy: options.keyDecodingStrategy)
        let mode = mode == .elements && parsed.isEmpty ? .valuePerDocument : mode
        return DecodingPipeline(
            codec: codec, path: parsed, options: options, mode: mode, singleDocument: singleDocument)
    }
}
