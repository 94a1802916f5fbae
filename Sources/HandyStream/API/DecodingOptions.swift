import Foundation

/// How a ``ModelDecoder`` treats values that don't fit, and how `Decodable` types read dates, data and floats.
public struct DecodingOptions: Sendable {
    /// Throw a ``JSONDecodingError`` of kind `typeMismatch` for every value the lenient rules would pass over.
    public var strict: Bool
    /// The deepest nesting accepted; deeper input is an error (kind `tooDeep`).
    public var maximumDepth: Int
    /// Told of every value the lenient rules pass over, with its path.
    public var diagnostics: (@Sendable (DecodingDiagnostic) -> Void)?
    /// How property names become keys where a model's mapping doesn't say.
    public var keyDecodingStrategy: KeyDecodingStrategy

    /// `Decodable` types: how a `Date` is read, with Foundation's `JSONDecoder` names and meaning.
    public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy
    /// `Decodable` types: how `Data` is read (`base64` by default, as Foundation).
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy
    /// `Decodable` types: which strings stand for infinity and NaN (none by default, as Foundation).
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy
    /// `Decodable` types: what `Decoder.userInfo` gives their `init(from:)`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// Accept a comma that ends an array or an object (`[1, 2,]`), as Foundation's `JSONDecoder` does; off by default,
    /// as RFC 8259 forbids it. Error offsets then count the text without such commas.
    public var allowsTrailingCommas = false
    /// Read JSON5 (comments, single quotes, unquoted keys, trailing commas, hexadecimal, `Infinity`, `NaN`, a leading
    /// `+` or point, escaped line breaks), as `JSONDecoder.allowsJSON5`; error offsets then count the JSON it is
    /// rewritten as.
    public var allowsJSON5 = false
    /// Read a document that doesn't start with `{` as an object's members without braces, as
    /// `JSONDecoder.assumesTopLevelDictionary`; trailing commas are then accepted inside it too.
    public var assumesTopLevelDictionary = false

    /// The longest string, key or number accepted, in bytes (a string's decoded text, a number's as written); a longer
    /// one is an error (kind `tokenTooLong`) where it starts. `nil` (the default): no limit. The Vapor and Hummingbird
    /// coders start with 8 MiB.
    public var maximumTokenLength: Int? = nil

    /// The token length the Vapor and Hummingbird coders accept unless told otherwise: 8 MiB.
    package static let serverMaximumTokenLength = 8 << 20

    /// Options for a decoder; every one has the default a HandyJSON user expects (lenient, a cap of 512 levels, keys
    /// as declared, no diagnostics) and the strategies Foundation's `JSONDecoder` starts with.
    public init(
        strict: Bool = false,
        maximumDepth: Int = 512,
        keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys,
        dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate,
        dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64,
        nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw,
        userInfo: [CodingUserInfoKey: any Sendable] = [:],
        diagnostics: (@Sendable (DecodingDiagnostic) -> Void)? = nil
    ) {
        self.strict = strict
        self.maximumDepth = maximumDepth
        self.keyDecodingStrategy = keyDecodingStrategy
        self.dateDecodingStrategy = dateDecodingStrategy
        self.dataDecodingStrategy = dataDecodingStrategy
        self.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        self.userInfo = userInfo
        self.diagnostics = diagnostics
    }
}
