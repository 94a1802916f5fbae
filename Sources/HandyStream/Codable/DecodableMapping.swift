/// Says, in one place, where a `Decodable` type's values are read from, what they default to, and what to fix up
/// after decoding, without rewriting `CodingKeys` or `init(from:)`.
///
///     struct User: Codable, DecodableMapping {
///         var nickname = ""
///         var age = 0
///
///         static let keyMapping = ["nickname": ["nickname", "nickName", "nick_name"], "age": ["userInfo.age"]]
///         static let defaultValues: [String: any Sendable] = ["age": 18]
///         mutating func didFinishDecoding() { nickname = nickname.trimmingCharacters(in: .whitespaces) }
///     }
///
/// Both tables are keyed by the coding key's `stringValue` (the property name, for synthesized `CodingKeys`), read
/// once per type and cached. They hold in strict and lenient mode alike; a default is used only by lenient mode.
public protocol DecodableMapping: Decodable {
    /// For a coding key, the keys to read it from, in order: the first one present in the object wins. A key with
    /// dots is a path into nested objects (`"userInfo.age"`); `\.` is a literal dot. Keys not listed are read as
    /// they are (after the decoder's key strategy).
    static var keyMapping: [String: [String]] { get }
    /// For a coding key, the value that lenient decoding uses when the key is missing, `null`, or holds a value
    /// that doesn't fit (it must be of the property's type; one of another type is ignored).
    static var defaultValues: [String: any Sendable] { get }
    /// Called on each decoded value before it is handed over, for fix-ups, as HandyJSON's `didFinishMapping()`.
    mutating func didFinishDecoding()
}

extension DecodableMapping {
    public static var keyMapping: [String: [String]] { [:] }
    public static var defaultValues: [String: any Sendable] { [:] }
    public mutating func didFinishDecoding() {}
}

/// A type's own value for lenient decoding to use when nothing fits and no property default is declared: an enum
/// names its default case here.
///
///     enum City: String, Codable, DecodableDefault {
///         case beijing, shanghai, hangzhou, unknown
///         static let defaultValue = City.unknown
///     }
public protocol DecodableDefault {
    /// The value used in place of a missing, `null` or unfitting one.
    static var defaultValue: Self { get }
}

/// What a ``DecodableMapping`` says of one type, in the form the decoder searches (key paths as byte segments), and
/// what the `mapping(mapper:)` of a ``HandyJSON`` model says (ModelRules.swift), which comes first.
final class MappingTable: @unchecked Sendable {
    /// Candidate key paths for each coding key's string value; each path is its segments' UTF-8 bytes.
    let keys: [String: [[[UInt8]]]]
    let defaults: [String: any Sendable]
    /// The model's `mapping(mapper:)`, by property (kept for the process's life by ``TypeRegistry``).
    let model: ModelRules?

    init(keyMapping: [String: [String]], defaults: [String: any Sendable], model: ModelRules? = nil) {
        var keys: [String: [[[UInt8]]]] = [:]
        for (name, candidates) in keyMapping {
            keys[name] = candidates.map(DesignatedPath.mappedKey).filter { !$0.isEmpty }
        }
        self.keys = keys
        self.defaults = defaults
        self.model = model
    }
}
