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

    /// `JSONEncoder`'s `convertToSnakeCase`: words split where a lowercase letter meets an uppercase one, and where
    /// a run of capitals meets a lowercase letter (the run's last capital starts the next word); the first letter is
    /// taken to be lowercase, so a leading capital is a word of its own.
    static func foundationSnakeCase(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        guard !scalars.isEmpty else { return key }
        func isUpper(_ index: Int) -> Bool { scalars[index].properties.generalCategory == .uppercaseLetter }
        func isLower(_ index: Int) -> Bool { scalars[index].properties.generalCategory == .lowercaseLetter }
        var words: [Range<Int>] = []
        var wordStart = 0
        var search = 1..<scalars.count
        while let upper = search.first(where: isUpper) {
            words.append(wordStart..<upper)
            search = upper..<search.upperBound
            guard let lower = search.first(where: isLower) else {
                wordStart = search.lowerBound
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            search = (lower + 1)..<search.upperBound
        }
        words.append(wordStart..<search.upperBound)
        return words.map { range in
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view).lowercased()
        }.joined(separator: "_")
    }
}
