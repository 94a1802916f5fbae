/// How a ``ModelDecoder`` treats values that don't fit.
public struct DecodingOptions: Sendable {
    /// Throw a ``JSONDecodingError`` of kind `typeMismatch` for every value the lenient rules would pass over.
    public var strict: Bool
    /// The deepest nesting accepted; deeper input is an error (kind `tooDeep`).
    public var maximumDepth: Int
    /// Told of every value the lenient rules pass over, with its path.
    public var diagnostics: (@Sendable (DecodingDiagnostic) -> Void)?
    /// How property names become keys where a model's mapping doesn't say.
    public var keyDecodingStrategy: KeyDecodingStrategy

    /// Options for a decoder; every one has the default a HandyJSON user expects (lenient, a cap of 512 levels, keys
    /// as declared, no diagnostics).
    public init(
        strict: Bool = false,
        maximumDepth: Int = 512,
        keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys,
        diagnostics: (@Sendable (DecodingDiagnostic) -> Void)? = nil
    ) {
        self.strict = strict
        self.maximumDepth = maximumDepth
        self.keyDecodingStrategy = keyDecodingStrategy
        self.diagnostics = diagnostics
    }
}
