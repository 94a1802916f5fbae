/// How property names become keys when writing, where a model's mapping doesn't say.
public enum KeyEncodingStrategy: Sendable {
    /// Each property is written under its name.
    case useDefaultKeys
    /// `userId` is written as `user_id`.
    case convertToSnakeCase

    func key(_ key: String, mapped: Bool) -> String {
        switch self {
        case .useDefaultKeys: key
        case .convertToSnakeCase: mapped ? key : KeyDecodingStrategy.snakeCase(key)
        }
    }
}
