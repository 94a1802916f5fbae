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

    var isDefault: Bool {
        if case .useDefaultKeys = self { return true }
        return false
    }

    /// A model's key that its mapping doesn't give.
    func key(_ key: String) -> String {
        switch self {
        case .useDefaultKeys: key
        case .convertToSnakeCase: KeyDecodingStrategy.snakeCase(key)
        case .custom(let convert): convert([NamedKey(key)]).stringValue
        }
    }

    /// `path` is the coding path to the member.
    func codableKey(_ key: String, path: () -> [any CodingKey]) -> String {
        switch self {
        case .useDefaultKeys: key
        case .convertToSnakeCase: Self.foundationSnakeCase(key)
        case .custom(let convert): convert(path()).stringValue
        }
    }

    /// swift-foundation's `_convertToSnakeCase`, step for step. Letters are found scalar by scalar (uppercase: Lu
    /// and Lt, as `CharacterSet.uppercaseLetters`; lowercase: Ll), but the steps around them go character by
    /// character: a capital, combining marks, then a lowercase letter (`G͍͚r`) is not a run.
    static func foundationSnakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        func isUpper(_ scalar: Unicode.Scalar) -> Bool {
            let category = scalar.properties.generalCategory
            return category == .uppercaseLetter || category == .titlecaseLetter
        }
        func isLower(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .lowercaseLetter }
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
                // The second: `A\u{0600}a` after `\u{0600}`, where `JSONEncoder` traps on a backwards range.
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
