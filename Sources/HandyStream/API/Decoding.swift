/// The shared entry points behind ``ModelDecoder`` and the HandyJSON-compatible calls.
package enum Decoding {
    /// The codec for `T`, or the declaration error that stops a throwing caller.
    static func codec<T>(
        for type: T.Type, strategy: KeyDecodingStrategy, reportProblems: Bool
    ) throws(JSONDecodingError) -> ValueCodec {
        OneTimeSetUp.ensure()
        let (codec, problems) = TypeRegistry.codec(for: type, strategy: strategy)
        guard let codec else {
            throw invalidModel(type, problems.isEmpty ? ["\(type) is not a type HandyStream can decode"] : problems)
        }
        if reportProblems && !problems.isEmpty { throw invalidModel(type, problems) }
        return codec
    }

    /// The error for a type whose declaration can't be decoded: a line per problem (`Model.property: …`).
    private static func invalidModel(_ type: Any.Type, _ problems: [String]) -> JSONDecodingError {
        JSONDecodingError(
            .invalidModel, "\(type) can't be decoded:\n" + problems.map { "  - " + $0 }.joined(separator: "\n"))
    }

    /// The codec for `T` at the root of a ``ModelDecoder`` call: a `Decodable` type follows its coding keys and
    /// `init(from:)`, exactly as `JSONDecoder` reads them (a ``HandyJSON`` model's `mapping(mapper:)` applied to the
    /// keys its `init(from:)` asks for); any other type takes the field tables.
    static func rootCodec<T>(for type: T.Type, strategy: KeyDecodingStrategy) throws(JSONDecodingError)
        -> ValueCodec
    {
        OneTimeSetUp.ensure()
        // JSONValue keeps its own codec at the root, built from the events (a `Codable` value reads it from the tape).
        if let decodable = type as? any Decodable.Type, type != JSONValue.self {
            return TypeRegistry.decodableCodec(decodable)
        }
        return try codec(for: type, strategy: strategy, reportProblems: true)
    }

    /// Decodes `T` from a whole document in memory; throws for bad input, returns `nil` when the value doesn't fit.
    /// A declaration's problems are not thrown: HandyJSON decoded what it could.
    package static func decode<T>(
        _ type: T.Type, from input: UnsafeRawBufferPointer, path: String, options: DecodingOptions,
        seed: Any? = nil
    ) throws -> T? {
        let codec = try codec(for: type, strategy: options.keyDecodingStrategy, reportProblems: false)
        return try DecodingPipeline<T>(
            codec: codec, path: try DesignatedPath(parsing: path), options: options, mode: .value, seed: seed
        ).decode(document: input)
    }

    /// Decodes `T` from Foundation-style values (`[String: Any]`, `[Any]`), through the same pipeline.
    package static func decode<T>(
        _ type: T.Type, fromObject object: Any, path: String, options: DecodingOptions, seed: Any? = nil
    ) throws -> T? {
        let codec = try codec(for: type, strategy: options.keyDecodingStrategy, reportProblems: false)
        return try DecodingPipeline<T>(
            codec: codec, path: try DesignatedPath(parsing: path), options: options, mode: .value, seed: seed
        ).decode(object: object)
    }
}
