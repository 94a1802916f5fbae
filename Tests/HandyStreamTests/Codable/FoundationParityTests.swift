import Foundation
import HandyJSON
import Testing

// Hand-picked cases of Foundation's behaviour, each decoded by JSONDecoder and by strict mode (and lenient mode,
// which must keep every value JSONDecoder decodes): values, error cases and coding paths must be the same.

struct ParityAB: Codable, Equatable {
    var a: Int
    var b: Int
}

struct ParityBA: Codable, Equatable {
    var b: Int
    var a: Int
}

struct ParityKeys: Decodable, Equatable {
    var keys: [String]
    init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue).sorted()
    }
}

struct ParityCafe: Codable, Equatable {
    var café: Int
}

struct SnakeCafe: Codable, Equatable {
    var caféX: Int
}

struct ParityKelvin: Codable, Equatable {
    var K: Int
}

struct ParityKelvinSign: Codable, Equatable {
    var kelvin: Int
    enum CodingKeys: String, CodingKey { case kelvin = "\u{212A}" }
}

struct ParityNested: Codable, Equatable {
    var nestedValue: [String: [String: ParityValue]]
}

struct ParityValue: Codable, Equatable {
    var intValue: Int
}

/// One case: a type, an input, and how to compare.
struct ParityCase: CustomStringConvertible, Sendable {
    let name: String
    let json: String
    let check: @Sendable (String) -> (ours: String, foundation: String, lenient: String)

    init<T: Decodable & Equatable>(
        _ type: T.Type, _ json: String, options: DecodingOptions = DecodingOptions(strict: true),
        foundation configure: @escaping @Sendable (JSONDecoder) -> Void = { _ in }
    ) {
        name = "\(T.self) from \(json)"
        self.json = json
        check = { json in
            let data = Data(json.utf8)
            let decoder = JSONDecoder()
            configure(decoder)
            let foundation = DiffOutcome { try decoder.decode(T.self, from: data) }
            let ours = DiffOutcome { try ModelDecoder(options: options).decode(T.self, from: data) }
            var lenientOptions = options
            lenientOptions.strict = false
            let lenient = DiffOutcome { try ModelDecoder(options: lenientOptions).decode(T.self, from: data) }
            // Compared as values (a dictionary's description has no fixed order), shown as text; an error's message
            // too (JSONDecoder's words, then HandyStream's location in parentheses).
            let text = "\(foundation)"
            if !foundation.isValue && ours == foundation {
                let theirs = errorMessage { try decoder.decode(T.self, from: data) }
                let message = errorMessage { try ModelDecoder(options: options).decode(T.self, from: data) }
                if !sameMessage(message, theirs) { return ("\(ours): \(message)", "\(text): \(theirs)", text) }
            }
            return (
                ours == foundation ? text : "\(ours)", text,
                !foundation.isValue || lenient == foundation ? text : "\(lenient)"
            )
        }
    }

    var description: String { name }
}

@Suite struct FoundationParityTests {
    static let cases: [ParityCase] = [
        // Malformed and truncated JSON: dataCorrupted at the empty path.
        ParityCase(ParityAB.self, #"{"a": 1,,"#),
        ParityCase(Bool.self, "tru_"),
        ParityCase(ParityAB.self, #"{"a": 1, "b": 2"#),
        ParityCase([Int].self, "[1, 2"),
        ParityCase(ParityAB.self, ""),
        // Dictionary members and root arrays: the coding path includes the key or the index.
        ParityCase([String: Int].self, #"{"a": 1, "b": "x"}"#),
        ParityCase([StrictPoint].self, #"[{"x": 1, "y": 2}, {"x": "1", "y": 2}]"#),
        ParityCase([StrictPoint].self, #"[{"x": 1, "y": 2}, {"x": 1}]"#),
        ParityCase([String: StrictPoint].self, #"{"p": {"x": 1}}"#),
        ParityCase(ParityNested.self, #"{"nestedValue": {"k1": {"k2": {"intValue": "x"}}}}"#),
        ParityCase([[Int]].self, #"[[1], [2, "3"]]"#),
        // Duplicate keys: the first one counts, whatever the declaration order.
        ParityCase(ParityAB.self, #"{"a": 1, "b": 2, "a": 3}"#),
        ParityCase(ParityBA.self, #"{"a": 1, "b": 2, "a": 3}"#),
        ParityCase(ParityBA.self, #"{"a": 1, "b": 2, "a": "x"}"#),
        ParityCase([String: Int].self, #"{"a": 1, "a": 2}"#),
        ParityCase(ParityKeys.self, #"{"a": 1, "b": 2, "a": 3}"#),
        // The same in objects of more than eight members (searched from the last member found, once the object's
        // duplicates are known; smaller ones are searched from their first member).
        ParityCase(
            ParityAB.self,
            #"{"a": 1, "c0": 0, "c1": 1, "c2": 2, "c3": 3, "c4": 4, "c5": 5, "c6": 6, "c7": 7, "c8": 8, "c9": 9, "b": 2, "a": 3}"#
        ),
        ParityCase(
            ParityBA.self,
            #"{"a": 1, "c0": 0, "c1": 1, "c2": 2, "c3": 3, "c4": 4, "c5": 5, "c6": 6, "c7": 7, "c8": 8, "c9": 9, "b": 2, "a": 3}"#
        ),
        ParityCase(
            ParityBA.self,
            #"{"c0": 0, "c1": 1, "c2": 2, "c3": 3, "c4": 4, "c5": 5, "c6": 6, "c7": 7, "c8": 8, "c9": 9, "b": 2, "a": 1, "a": 3}"#
        ),
        // Keys match as Strings: a decomposed é is the key café.
        ParityCase(ParityCafe.self, #"{"cafe\u0301": 1}"#),
        ParityCase(ParityCafe.self, #"{"café": 2}"#),
        // ... and two such keys are one key repeated: the first counts.
        ParityCase(ParityCafe.self, #"{"cafe\u0301": 1, "café": 2}"#),
        ParityCase(ParityCafe.self, #"{"café": 2, "cafe\u0301": 1}"#),
        ParityCase([String: Int].self, #"{"cafe\u0301": 1, "café": 2}"#),
        // A dictionary decodes every member's value, the repeated key's too, before keeping the first.
        ParityCase([String: Int].self, #"{"a": 1, "a": "x"}"#),
        ParityCase([String: Int].self, #"{"cafe\u0301": 1, "café": "x"}"#),
        ParityCase([String: [String: Int]].self, #"{"k": {"a": 1, "a": 2}, "k": {"b": 3}}"#),
        // The Kelvin sign is K as a String; an ASCII key found by its bytes comes after it.
        ParityCase(ParityKelvin.self, #"{"\u212a": 1, "K": 2}"#),
        ParityCase(ParityKelvin.self, #"{"\u212a": 1}"#),
        ParityCase(ParityKelvinSign.self, #"{"K": 1, "\u212a": 2}"#),
        // Escapes of UTF-16 surrogates: a pair is one character; a lone one is not text.
        ParityCase(String.self, #""\ud83d\ude00""#),
        ParityCase(String.self, #""\ud800""#),
        ParityCase(String.self, #""\udc00x""#),
        ParityCase(String.self, #""\ud800\u0041""#),
        ParityCase(String.self, #""\ud800\ud800""#),
        ParityCase(String.self, #""a\u0000b""#),
        ParityCase([String: Int].self, #"{"\ud800": 1}"#),
        ParityCase([String].self, #"["ok", "\udfff"]"#),
        // Root scalars and containers convert nothing in strict mode.
        ParityCase([Int].self, "[false, true]"),
        ParityCase([Bool].self, "[0, 1]"),
        ParityCase(String.self, "1"),
        ParityCase(Int?.self, "null"),
        ParityCase([Int?].self, "[1, null]"),
        ParityCase([String: String].self, #"{"a": 1}"#),
    ]

    @Test(arguments: cases)
    func sameAsJSONDecoder(_ parity: ParityCase) {
        let outcome = parity.check(parity.json)
        #expect(outcome.ours == outcome.foundation, "strict mode, \(parity)")
        #expect(outcome.lenient == outcome.foundation, "lenient mode, \(parity)")
    }
}

struct WideIntegers: Codable, Equatable {
    var signed: Int128
    var unsigned: UInt128
    var maybe: Int128?
    var list: [UInt128]
}

struct WideModel: HandyJSON {
    var signed: Int128 = 0
    var unsigned: UInt128?
}

extension FoundationParityTests {
    @Test func int128AndUInt128() throws {
        let json =
            #"{"signed": -170141183460469231731687303715884105728, "unsigned": 340282366920938463463374607431768211455, "maybe": 18446744073709551616, "list": [0, 1e3]}"#
        let foundation = try JSONDecoder().decode(WideIntegers.self, from: Data(json.utf8))
        #expect(
            try ModelDecoder(options: DecodingOptions(strict: true)).decode(WideIntegers.self, from: json) == foundation
        )
        #expect(try ModelDecoder().decode(WideIntegers.self, from: json) == foundation)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            try ModelEncoder(options: EncodingOptions(sortedKeys: true)).encode(foundation)
                == Array(try encoder.encode(foundation)))
        // As model properties, and converted from strings in lenient mode.
        let model = try #require(
            WideModel.deserialize(
                from:
                    #"{"signed": "-170141183460469231731687303715884105728", "unsigned": 340282366920938463463374607431768211455}"#
            ))
        #expect(model.signed == .min && model.unsigned == .max)
        #expect(
            model.toJSONString()
                == #"{"signed":-170141183460469231731687303715884105728,"unsigned":340282366920938463463374607431768211455}"#
        )
    }
}

/// A value that needs a configuration: a unit to scale by.
struct Scaled: DecodableWithConfiguration, EncodableWithConfiguration, Equatable {
    var amount: Double
    enum CodingKeys: CodingKey { case amount }
    init(amount: Double) { self.amount = amount }
    init(from decoder: any Decoder, configuration: Double) throws {
        amount = try decoder.container(keyedBy: CodingKeys.self).decode(Double.self, forKey: .amount) * configuration
    }
    func encode(to encoder: any Encoder, configuration: Double) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amount / configuration, forKey: .amount)
    }
}

extension FoundationParityTests {
    @Test func valuesWithAConfiguration() throws {
        let json = Data(#"{"amount": 1.5}"#.utf8)
        let foundation = try JSONDecoder().decode(Scaled.self, from: json, configuration: 10)
        #expect(try ModelDecoder().decode(Scaled.self, from: json, configuration: 10.0) == foundation)
        #expect(
            try ModelDecoder(options: DecodingOptions(strict: true)).decode(
                Scaled.self, from: json, configuration: 10.0) == foundation)
        #expect(
            try ModelEncoder().encode(Scaled(amount: 15), configuration: 10.0)
                == Array(try JSONEncoder().encode(Scaled(amount: 15), configuration: 10)))
    }
}

struct SnakeKeys: Codable, Equatable {
    var roundedRect: Int
    var myURLProperty: String?
    var URLString: String?
    var plain: Int?
}

/// Reads every key it finds (allKeys, then decode).
struct AllKeysThenDecode: Decodable, Equatable {
    var values: [String: Int]
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        var values: [String: Int] = [:]
        for key in container.allKeys { values[key.stringValue] = try container.decode(Int.self, forKey: key) }
        self.values = values
    }
}

enum ShapeCase: Codable, Equatable {
    case roundedRect(cornerRadius: Double)
    case plainCircle
}

extension FoundationParityTests {
    static let snakeCases: [ParityCase] = [
        ParityCase(
            SnakeKeys.self, #"{"rounded_rect": 1, "my_url_property": "a", "url_string": "b", "plain": 2}"#,
            options: DecodingOptions(strict: true, keyDecodingStrategy: .convertFromSnakeCase),
            foundation: { $0.keyDecodingStrategy = .convertFromSnakeCase }),
        ParityCase(
            SnakeKeys.self, #"{"rounded_rect": 1, "rounded_rect": 2, "roundedRect": 3}"#,
            options: DecodingOptions(strict: true, keyDecodingStrategy: .convertFromSnakeCase),
            foundation: { $0.keyDecodingStrategy = .convertFromSnakeCase }),
        // Two document keys that convert to one key, equal as Strings though not in bytes: the first counts.
        ParityCase(
            SnakeCafe.self, #"{"cafe\u0301_x": 1, "café_x": 2}"#,
            options: DecodingOptions(strict: true, keyDecodingStrategy: .convertFromSnakeCase),
            foundation: { $0.keyDecodingStrategy = .convertFromSnakeCase }),
        ParityCase(
            AllKeysThenDecode.self, #"{"first_value": 1, "_second__value_": 2, "third": 3}"#,
            options: DecodingOptions(strict: true, keyDecodingStrategy: .convertFromSnakeCase),
            foundation: { $0.keyDecodingStrategy = .convertFromSnakeCase }),
        ParityCase(
            [ShapeCase].self, #"[{"rounded_rect": {"corner_radius": 2}}, {"plain_circle": {}}]"#,
            options: DecodingOptions(strict: true, keyDecodingStrategy: .convertFromSnakeCase),
            foundation: { $0.keyDecodingStrategy = .convertFromSnakeCase }),
        ParityCase(
            SnakeKeys.self, #"{"ROUNDEDRECT": 1, "PLAIN": 2}"#,
            options: DecodingOptions(
                strict: true,
                keyDecodingStrategy: .custom { path in
                    AnyCodingKey(
                        stringValue: path.last!.stringValue == "ROUNDEDRECT"
                            ? "roundedRect" : path.last!.stringValue.lowercased())
                }),
            foundation: {
                $0.keyDecodingStrategy = .custom { path in
                    AnyCodingKey(
                        stringValue: path.last!.stringValue == "ROUNDEDRECT"
                            ? "roundedRect" : path.last!.stringValue.lowercased())
                }
            }),
    ]

    @Test(arguments: snakeCases)
    func keyStrategiesAsJSONDecoder(_ parity: ParityCase) {
        let outcome = parity.check(parity.json)
        #expect(outcome.ours == outcome.foundation, "strict mode, \(parity)")
        #expect(outcome.lenient == outcome.foundation, "lenient mode, \(parity)")
    }

    @Test func keyEncodingStrategiesAsJSONEncoder() throws {
        struct Keys: Encodable {
            var roundedRect = 1
            var myURLProperty = 2
            var URLString = 3
            var caféAuLait = 4
            var étude = 5
            var nested = ["innerKey": 6]
        }
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        foundation.keyEncodingStrategy = .convertToSnakeCase
        let ours = ModelEncoder(options: EncodingOptions(sortedKeys: true, keyEncodingStrategy: .convertToSnakeCase))
        #expect(
            String(decoding: try ours.encode(Keys()), as: UTF8.self)
                == String(decoding: try foundation.encode(Keys()), as: UTF8.self))
        // Two properties that convert to one key: one member, the last value, as JSONEncoder's dictionary keeps it.
        struct Colliding: Encodable {
            var aB = 1
            var a_b = 2
            var cB = 3
        }
        #expect(
            String(decoding: try ours.encode(Colliding()), as: UTF8.self)
                == String(decoding: try foundation.encode(Colliding()), as: UTF8.self))
        let custom: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            AnyCodingKey(stringValue: "\(path.count)-" + path.last!.stringValue.uppercased())
        }
        foundation.keyEncodingStrategy = .custom(custom)
        let customOurs = ModelEncoder(options: EncodingOptions(sortedKeys: true, keyEncodingStrategy: .custom(custom)))
        #expect(
            String(decoding: try customOurs.encode(Keys()), as: UTF8.self)
                == String(decoding: try foundation.encode(Keys()), as: UTF8.self))
    }
}

extension FoundationParityTests {
    /// Trailing commas: refused by default (RFC 8259, JSONTestSuite), accepted with the option as JSONDecoder
    /// accepts them, at every chunk split; commas inside strings are left alone.
    @Test func trailingCommas() throws {
        let json = #"{"key": [true, false ,  ], "text": ",]\",}", "nested": {"a": [[1,],],  } , }"#
        struct Value: Decodable, Equatable {
            var key: [Bool]
            var text: String
            var nested: [String: [[Int]]]
        }
        let foundation = try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        #expect(foundation.text == #",]",}"#)
        #expect(throws: DecodingError.self) { try ModelDecoder().decode(Value.self, from: json) }
        var options = DecodingOptions(strict: true)
        options.allowsTrailingCommas = true
        #expect(try ModelDecoder(options: options).decode(Value.self, from: json) == foundation)
        let bytes = Array(json.utf8)
        for size in 1...6 {
            let decoder = try ModelDecoder(options: options).incremental(Value.self)
            for start in stride(from: 0, to: bytes.count, by: size) {
                try decoder.feed(Array(bytes[start..<min(start + size, bytes.count)]))
            }
            #expect(try decoder.finish() == foundation, "chunks of \(size)")
        }
        // Models too; a comma that trails nothing is still an error.
        #expect(try ModelDecoder(options: options).decode([Int].self, from: "[1, 2,]") == [1, 2])
        #expect(throws: DecodingError.self) { try ModelDecoder(options: options).decode([Int].self, from: "[1,,]") }
        #expect(throws: DecodingError.self) { try ModelDecoder(options: options).decode([Int].self, from: "[1, 2],") }
        // A comma right after an opening bracket trails nothing (JSONDecoder refuses `[,]` and `{,}` too).
        #expect(throws: DecodingError.self) { try ModelDecoder(options: options).decode([Int].self, from: "[,]") }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Int].self, from: Data("[,]".utf8)) }
        #expect(throws: DecodingError.self) {
            try ModelDecoder(options: options).decode([String: Int].self, from: "{ , }")
        }
    }
}

extension FoundationParityTests {
    /// JSONDecoder checks a string's characters and escapes only when the string is decoded; HandyStream checks every
    /// string as it streams, so a document with a raw control character or a bad escape in a string nobody reads is
    /// refused (a difference the README names; the fuzz target's seed regression-control-character-in-unread-string
    /// is such a document).
    @Test func unreadStringsAreCheckedToo() throws {
        struct OnlyA: Decodable, Equatable { var a: Int }
        for json in ["{\"a\": 1, \"b\": \"x\ny\"}", #"{"a": 1, "b": "x\qy"}"#] {
            #expect(try JSONDecoder().decode(OnlyA.self, from: Data(json.utf8)) == OnlyA(a: 1))
            #expect(throws: DecodingError.self) {
                try ModelDecoder(options: DecodingOptions(strict: true)).decode(OnlyA.self, from: json)
            }
        }
    }
}

extension FoundationParityTests {
    /// A document key that equals an ASCII coding key as a `String` but not in bytes (U+212A KELVIN SIGN is
    /// canonically equivalent to `K`) is found as `JSONDecoder` finds it, whatever its length (the tape notes
    /// non-ASCII keys as it copies them, a word or two at a time, so every length class is tried) and wherever it
    /// sits among other keys.
    @Test func keysEqualAsStringsAtEveryLength() throws {
        for length in 0...40 {
            let stem = String(repeating: "k", count: length)
            for position in 0..<3 {
                var members = [#""a": 1"#, #""b": 2"#]
                members.insert(#""\#(stem)\#u{212A}": 3"#, at: position)
                let json = "{" + members.joined(separator: ", ") + "}"
                let foundation = JSONDecoder()
                foundation.userInfo[OneKey.name] = stem + "K"
                var options = DecodingOptions(strict: true)
                options.userInfo[OneKey.name] = stem + "K"
                let expected = try foundation.decode(OneKey.self, from: Data(json.utf8))
                let ours = try ModelDecoder(options: options).decode(OneKey.self, from: json)
                #expect(expected.value == 3, "JSONDecoder, key length \(length)")
                #expect(ours.value == expected.value, "key length \(length), at \(position)")
            }
        }
    }
}

/// Reads the member named by the decoder's `userInfo[OneKey.name]`.
private struct OneKey: Decodable {
    static let name = CodingUserInfoKey(rawValue: "key")!
    var value: Int?
    init(from decoder: any Decoder) throws {
        let key = AnyCodingKey(stringValue: decoder.userInfo[Self.name] as? String ?? "")
        value = try decoder.container(keyedBy: AnyCodingKey.self).decodeIfPresent(Int.self, forKey: key)
    }
}
