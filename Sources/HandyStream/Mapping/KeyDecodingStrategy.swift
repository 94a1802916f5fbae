/// How property names become JSON keys when a model has no explicit mapping for a property. Explicit mappings
/// (`<--`, `specify`) always win over the strategy.
///
///     let decoder = ModelDecoder(options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase))
///     // {"user_id": 7} fills `var userId = 0`
public struct KeyDecodingStrategy: Sendable, Hashable {
    enum Kind: Hashable {
        case useDefaultKeys
        case convertFromSnakeCase
        case caseInsensitive
        case custom(ObjectIdentifier)
        case customFromDocument(ObjectIdentifier)
    }

    let kind: Kind
    private let keyForProperty: (@Sendable (String) -> String)?
    private let box: CustomKeyBox?
    /// Foundation's custom strategy: a document key (with the path to it) to the coding key it stands for.
    let documentKeyConverter: (@Sendable ([any CodingKey]) -> any CodingKey)?

    private init(
        kind: Kind, keyForProperty: (@Sendable (String) -> String)?, box: CustomKeyBox? = nil,
        documentKeyConverter: (@Sendable ([any CodingKey]) -> any CodingKey)? = nil
    ) {
        self.kind = kind
        self.keyForProperty = keyForProperty
        self.box = box
        self.documentKeyConverter = documentKeyConverter
    }

    /// Each property is read from the key that is its name.
    public static let useDefaultKeys = KeyDecodingStrategy(kind: .useDefaultKeys, keyForProperty: nil)

    /// `userId` is read from `user_id`, `imageURL` from `image_url` (the property name in snake case).
    public static let convertFromSnakeCase = KeyDecodingStrategy(
        kind: .convertFromSnakeCase, keyForProperty: { snakeCase($0) })

    /// Keys match property names (and mapped keys) whatever their ASCII case, as HandyJSON's `caseInsensitive`.
    public static let caseInsensitive = KeyDecodingStrategy(kind: .caseInsensitive, keyForProperty: nil)

    /// `keyForProperty` gives the JSON key of each property name. Field tables are built once per type and
    /// strategy: make a custom strategy once and reuse it, rather than one per decoding.
    public static func custom(_ keyForProperty: @escaping @Sendable (String) -> String) -> KeyDecodingStrategy {
        let box = CustomKeyBox()
        return KeyDecodingStrategy(kind: .custom(ObjectIdentifier(box)), keyForProperty: keyForProperty, box: box)
    }

    /// Foundation's custom strategy, for `Decodable` types: each document key, with the coding path to it, becomes
    /// the key `convert` returns, and a coding key reads the member whose converted key equals it, as with
    /// `JSONDecoder.KeyDecodingStrategy.custom`. (Models' field tables read property names as they are under it.)
    public static func custom(
        _ convert: @escaping @Sendable (_ codingPath: [any CodingKey]) -> any CodingKey
    ) -> KeyDecodingStrategy {
        let box = CustomKeyBox()
        return KeyDecodingStrategy(
            kind: .customFromDocument(ObjectIdentifier(box)), keyForProperty: nil, box: box,
            documentKeyConverter: convert)
    }

    func key(forProperty name: String) -> String { keyForProperty?(name) ?? name }

    var convertsDocumentKeys: Bool {
        switch kind {
        case .convertFromSnakeCase, .customFromDocument: true
        default: false
        }
    }

    /// A document key as a `Decodable` type's coding keys see it, `path` being the coding path of its object.
    func documentKey(_ key: String, path: @autoclosure () -> [any CodingKey]) -> String {
        switch kind {
        case .convertFromSnakeCase: Self.camelCase(fromSnakeCase: key)
        case .customFromDocument: documentKeyConverter?(path() + [NamedKey(key)]).stringValue ?? key
        default: key
        }
    }

    var isCaseInsensitive: Bool { kind == .caseInsensitive }

    /// Foundation's `convertFromSnakeCase`: leading and trailing underscores kept, the words between joined with
    /// each word after the first capitalized; a key without inner underscores is left as it is.
    static func camelCase(fromSnakeCase key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first && key[last] == "_" { key.formIndex(before: &last) }
        let words = key[first...last].split(separator: "_")
        let joined =
            words.count == 1
            ? String(key[first...last])
            : ([words[0].lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }

    public static func == (lhs: KeyDecodingStrategy, rhs: KeyDecodingStrategy) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// `userId` → `user_id`, `imageURL` → `image_url`, `URLString` → `url_string`.
    static func snakeCase(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase && index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    result.append("_")
                }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}

/// Gives a custom strategy an identity, so that tables built for it can be cached.
private final class CustomKeyBox: Sendable {}
