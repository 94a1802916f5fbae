import Foundation

// Foundation's `DecodableWithConfiguration` and `EncodableWithConfiguration`: a value that needs a configuration to
// be decoded or encoded, handed to its `init(from:configuration:)` or `encode(to:configuration:)`.

extension ModelDecoder {
    /// Decodes a value whose decoding takes a configuration, as `JSONDecoder.decode(_:from:configuration:)` does.
    public func decode<T: DecodableWithConfiguration>(
        _ type: T.Type, from bytes: some ContiguousBytes, at path: String = "", configuration: T.DecodingConfiguration
    ) throws -> T {
        var decoder = self
        decoder.options.userInfo[ConfiguredDecodable<T>.key] = ConfigurationBox(configuration)
        return try decoder.decode(ConfiguredDecodable<T>.self, from: bytes, at: path).value
    }

    /// Decodes a value whose decoding takes a configuration, the configuration given by a provider type.
    public func decode<T: DecodableWithConfiguration, Provider: DecodingConfigurationProviding>(
        _ type: T.Type, from bytes: some ContiguousBytes, at path: String = "", configuration: Provider.Type
    ) throws -> T where T.DecodingConfiguration == Provider.DecodingConfiguration {
        try decode(type, from: bytes, at: path, configuration: Provider.decodingConfiguration)
    }
}

extension ModelEncoder {
    /// Encodes a value whose encoding takes a configuration, as `JSONEncoder.encode(_:configuration:)` does.
    public func encode<T: EncodableWithConfiguration>(
        _ value: T, configuration: T.EncodingConfiguration
    ) throws -> [UInt8] {
        var run = EncodingRun(options: options)
        try run.writeEncodable(ConfiguredEncodable(value: value, configuration: configuration), isTopLevel: true)
        return run.writer.bytes
    }

    /// Encodes a value whose encoding takes a configuration, the configuration given by a provider type.
    public func encode<T: EncodableWithConfiguration, Provider: EncodingConfigurationProviding>(
        _ value: T, configuration: Provider.Type
    ) throws -> [UInt8] where T.EncodingConfiguration == Provider.EncodingConfiguration {
        try encode(value, configuration: Provider.encodingConfiguration)
    }
}

/// Carries a configuration, which need not be `Sendable`, through `userInfo` to `init(from:)`.
private final class ConfigurationBox<Configuration>: @unchecked Sendable {
    let configuration: Configuration
    init(_ configuration: Configuration) { self.configuration = configuration }
}

/// Decodes `T` with the configuration found in `userInfo`; the same coding paths as `T` itself.
private struct ConfiguredDecodable<T: DecodableWithConfiguration>: Decodable {
    static var key: CodingUserInfoKey { CodingUserInfoKey(rawValue: "HandyStream.DecodingConfiguration")! }
    var value: T

    init(from decoder: any Decoder) throws {
        guard let box = decoder.userInfo[Self.key] as? ConfigurationBox<T.DecodingConfiguration> else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: "No decoding configuration for \(T.self)."))
        }
        value = try T(from: decoder, configuration: box.configuration)
    }
}

struct ConfiguredEncodable<T: EncodableWithConfiguration>: Encodable {
    var value: T
    var configuration: T.EncodingConfiguration

    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder, configuration: configuration) }
}
