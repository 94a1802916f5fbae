import Foundation

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

    /// Two-space indentation and a line per member, rather than compact text.
    public var prettyPrinted: Bool
    /// Object members in key order (sets by their elements' text), rather than in declaration order.
    public var sortedKeys: Bool
    /// How property names become keys where a mapping doesn't say.
    public var keyEncodingStrategy: KeyEncodingStrategy
    /// What to write for `nil` optionals.
    public var nilEncoding: NilEncoding
    /// What to write for infinity and NaN.
    public var nonFiniteNumbers: NonFiniteNumbers
    /// Deeper object graphs (or cyclic ones) are an error.
    public var maximumDepth: Int
    /// `Encodable` values: how a `Date` is written, with Foundation's `JSONEncoder` names and meaning.
    public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate
    /// `Encodable` values: how `Data` is written (`base64` by default, as Foundation).
    public var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy = .base64
    /// `Encodable` values: strings for infinity and NaN; with `.throw` (the default), ``nonFiniteNumbers`` decides.
    public var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
    /// `Encodable` values: what `Encoder.userInfo` gives their `encode(to:)`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// `Encodable` values: `/` is written as `\/`, as `JSONEncoder` writes it unless its output formatting has
    /// `.withoutEscapingSlashes` (models' text never escapes it, as HandyJSON didn't).
    public var escapesSlashes = true

    /// The defaults write compact text in declaration order and leave `nil` out, as HandyJSON did.
    public init(
        prettyPrinted: Bool = false, sortedKeys: Bool = false,
        keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys,
        nilEncoding: NilEncoding = .omit, nonFiniteNumbers: NonFiniteNumbers = .throwError,
        maximumDepth: Int = 512,
        escapesSlashes: Bool = true
    ) {
        self.escapesSlashes = escapesSlashes
        self.prettyPrinted = prettyPrinted
        self.sortedKeys = sortedKeys
        self.keyEncodingStrategy = keyEncodingStrategy
        self.nilEncoding = nilEncoding
        self.nonFiniteNumbers = nonFiniteNumbers
        self.maximumDepth = maximumDepth
    }
}
