/// How a ``ModelEncoder`` writes.
public struct EncodingOptions: Sendable {
    /// What to write for `nil` optionals.
    public enum NilEncoding: Sendable {
        /// Leave the property out, as HandyJSON does (the default).
        case omit
        /// Write `null`.
        case null
    }

    /// What to write for infinity and NaN, which JSON has no numbers for.
    public enum NonFiniteNumbers: Sendable {
        /// Throw a ``JSONEncodingError`` (the default).
        case throwError
        /// Write `null`.
        case null
        /// Write the strings `"inf"`, `"-inf"` and `"nan"`.
        case string
    }

    public var prettyPrinted: Bool
    public var sortedKeys: Bool
    public var keyEncodingStrategy: KeyEncodingStrategy
    public var nilEncoding: NilEncoding
    public var nonFiniteNumbers: NonFiniteNumbers
    /// Deeper object graphs (or cyclic ones) are an error.
    public var maximumDepth: Int

    public init(
        prettyPrinted: Bool = false, sortedKeys: Bool = false, keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys,
        nilEncoding: NilEncoding = .omit, nonFiniteNumbers: NonFiniteNumbers = .throwError, maximumDepth: Int = 512
    ) {
        self.prettyPrinted = prettyPrinted
        self.sortedKeys = sortedKeys
        self.keyEncodingStrategy = keyEncodingStrategy
        self.nilEncoding = nilEncoding
        self.nonFiniteNumbers = nonFiniteNumbers
        self.maximumDepth = maximumDepth
    }
}
