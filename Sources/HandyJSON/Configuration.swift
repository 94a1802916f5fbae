import Foundation
import HandyStream

/// The settings of the HandyJSON-compatible calls (`deserialize`, `JSONDeserializer`), which take no options.
/// Safe to read and change from any thread.
public enum HandyJSONConfiguration {
    private static let strategy = Locked(KeyDecodingStrategy.useDefaultKeys)
    private static let options = Locked(DeserializeOptions.defaultOptions)

    /// Values set for the current task only (``withKeyDecodingStrategy(_:_:)``, ``withDeserializeOptions(_:_:)``).
    @TaskLocal private static var scopedStrategy: KeyDecodingStrategy?
    @TaskLocal private static var scopedOptions: DeserializeOptions?

    /// The key strategy of the HandyJSON-compatible calls; `.useDefaultKeys` unless changed. Setting it changes it for
    /// every thread; inside ``withKeyDecodingStrategy(_:_:)`` that call's value is read instead.
    public static var keyDecodingStrategy: KeyDecodingStrategy {
        get { scopedStrategy ?? strategy.withLock { $0 } }
        set { strategy.withLock { $0 = newValue } }
    }

    /// HandyJSON's options: `.caseInsensitive` matches keys whatever their ASCII case (over ``keyDecodingStrategy``).
    /// Setting them changes them for every thread, except inside ``withDeserializeOptions(_:_:)``.
    public static var deserializeOptions: DeserializeOptions {
        get { scopedOptions ?? options.withLock { $0 } }
        set { options.withLock { $0 = newValue } }
    }

    /// Runs `body` with `strategy` as the HandyJSON calls' key strategy for the current task (and the tasks it
    /// makes) only: other threads and tasks keep theirs.
    public static func withKeyDecodingStrategy<Result>(
        _ strategy: KeyDecodingStrategy, _ body: () throws -> Result
    ) rethrows -> Result {
        try $scopedStrategy.withValue(strategy, operation: body)
    }

    /// Runs `body` with `options` as HandyJSON's deserialization options for the current task (and the tasks it
    /// makes) only: other threads and tasks keep theirs.
    public static func withDeserializeOptions<Result>(
        _ options: DeserializeOptions, _ body: () throws -> Result
    ) rethrows -> Result {
        try $scopedOptions.withValue(options, operation: body)
    }
}

/// HandyJSON's deserialization options.
public struct DeserializeOptions: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Keys match property names and mapped keys whatever their ASCII case.
    public static let caseInsensitive = DeserializeOptions(rawValue: 1 << 0)
    /// No options: keys match exactly.
    public static let defaultOptions: DeserializeOptions = []
}
