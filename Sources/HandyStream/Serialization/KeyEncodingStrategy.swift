/// How property names become keys when writing, where a model's mapping doesn't say.
public enum KeyEncodingStrategy: Sendable {
    /// Each property is written under its name.
    case useDefaultKeys
    /// `userId` is written as `user_id`. `Encodable` values use Foundation's algorithm (runs of capitals are one
    /// word, except their last letter: `myURLProperty` → `my_url_property`; a leading capital is its own word, as
    /// in `JSONEncoder`: `URLString` → `u_rl_string`); models' tables `URLString` → `url_string`.
    case convertToSnakeCase
    /// `Encodable` values: the key `convert` returns for the coding path to the member (ending with its own key),
    /// as `JSONEncoder.KeyEncodingStrategy.custom`; models: for the path of the property's own key.
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)

    /// Whether keys are written as they are.
    var isDefault: Bool {
        if case .useDefaultKeys = self { return true }
        return false
    }

    /// A model's key.
    func key(_ key: String, mapped: Bool) -> String {
        switch self {
        case .useDefaultKeys: key
        case .convertToSnakeCase: mapped ? key : KeyDecodingStrategy.snakeCase(key)
        case .custom(let convert): mapped ? key : convert([NamedKey(key)]).stringValue
        }
    }

    /// An `Encodable` value's key, `path` being the coding path to the member.
    func codableKey(_ key: String, path: () -> [any CodingKey]) -> String {
        switch self {
        case .useDefaultKeys: key
        case .convertToSnakeCase: Self.foundationSnakeCase(key)
        case .custom(let convert): convert(path()).stringValue
        }
    }

    /// `JSONEncoder`'s `convertToSnakeCase` (swift-foundation's `_convertToSnakeCase`, step for step): words split
    /// where a lowercase letter meets an uppercase one, and where a run of capitals meets a lowercase letter (the
    /// run's last capital starts the next word); the first character is taken to be lowercase, so a leading capital
    /// is a word of its own. Letters are found scalar by scalar (uppercase: categories Lu and Lt, as
    /// `CharacterSet.uppercaseLetters`; lowercase: Ll), but the steps around them are the `String`'s own, character
    /// by character: a capital followed by combining marks and then a lowercase letter (`G͍͚r`) is not a run.
    static func foundationSnakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        func isUpper(_ scalar: Unicode.Scalar) -> Bool {
            let category = scalar.properties.generalCategory
            return category == .uppercaseLetter || category == .titlecaseLetter
        }
        func isLower(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .lowercaseLetter }
        /// The first scalar in `range` that `matches`, as a range of one scalar.
        func first(in range: Range<String.Index>, where matches: (Unicode.Scalar) -> Bool) -> Range<String.Index>? {
            let scalars = key[range].unicodeScalars
            guard let index = scalars.firstIndex(where: matches) else { return nil }
            return index..<scalars.index(after: index)
        }
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = key.index(after: wordStart)..<key.endIndex
        while let upperCaseRange = first(in: searchRange, where: isUpper) {
            words.append(wordStart..<upperCaseRange.lowerBound)
            searchRange = upperCaseRange.lowerBound..<searchRange.upperBound
            guard let lowerCaseRange = first(in: searchRange, where: isLower) else {
                wordStart = searchRange.lowerBound
                break
            }
            let nextCharacterAfterCapital = key.index(after: upperCaseRange.lowerBound)
            let beforeLowerIndex = key.index(before: lowerCaseRange.lowerBound)
            if lowerCaseRange.lowerBound == nextCharacterAfterCapital || beforeLowerIndex < upperCaseRange.lowerBound {
                // (The second: a capital and the lowercase letter each inside a character with a prepended mark,
                // `A\u{0600}a` after a `\u{0600}`, where `JSONEncoder` stops the program making a backwards range.)
                wordStart = upperCaseRange.lowerBound
            } else {
                words.append(upperCaseRange.lowerBound..<beforeLowerIndex)
                wordStart = beforeLowerIndex
            }
            searchRange = lowerCaseRange.upperBound..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }
}
