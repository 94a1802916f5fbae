import Foundation
import HandyStream
import Testing

// Three of swift-foundation's own JSONEncoderTests (Tests/FoundationEssentialsTests/JSONEncoderTests.swift, Apache
// License 2.0), replayed against the strict coders: encodingKeyStrategySnake, json5Strings and
// preconditionFailuresForContainerReplacement, the three the strict coders failed. Foundation runs the last as an exit
// test (the process stops); here the misuse must throw an EncodingError and write nothing.
@Suite struct FoundationReplayTests {
    struct _TestKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { self.stringValue = "\(intValue)"; self.intValue = intValue }
    }
    struct EncodeMe: Encodable {
        var keyName: String
        func encode(to coder: Encoder) throws {
            var c = coder.container(keyedBy: _TestKey.self)
            try c.encode("test", forKey: _TestKey(stringValue: keyName)!)
        }
    }
    static var json5Decoder: ModelDecoder {
        var options = DecodingOptions(strict: true)
        options.allowsJSON5 = true
        return ModelDecoder(options: options)
    }
    @Test func replacedValueThrows() {
        struct Replace: Encodable {
            enum CodingKeys: String, CodingKey { case key }
            let unkeyed: Bool
            func encode(to encoder: Encoder) throws {
                var keyed = encoder.container(keyedBy: CodingKeys.self)
                try keyed.encode(42, forKey: .key)
                if unkeyed {
                    _ = keyed.nestedUnkeyedContainer(forKey: .key)
                } else {
                    _ = keyed.nestedContainer(keyedBy: CodingKeys.self, forKey: .key)
                }
            }
        }
        struct Top: Encodable {
            let unkeyed: Bool
            func encode(to encoder: Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode(1)
                if unkeyed {
                    _ = encoder.unkeyedContainer()
                } else {
                    _ = encoder.container(keyedBy: Replace.CodingKeys.self)
                }
            }
        }
        for unkeyed in [false, true] {
            do { _ = try ModelEncoder().encode(Replace(unkeyed: unkeyed)); Issue.record("no error") } catch {
                #expect(error is EncodingError, "\(error)")
            }
            do { _ = try ModelEncoder().encode(Top(unkeyed: unkeyed)); Issue.record("no error") } catch {
                #expect(error is EncodingError, "\(error)")
            }
        }
    }
    @Test func encodingKeyStrategySnake() throws {
        let toSnakeCaseTests = [
            ("simpleOneTwo", "simple_one_two"),
            ("myURL", "my_url"),
            ("singleCharacterAtEndX", "single_character_at_end_x"),
            ("thisIsAnXMLProperty", "this_is_an_xml_property"),
            ("single", "single"),  // no underscore
            ("", ""),  // don't die on empty string
            ("a", "a"),  // single character
            ("aA", "a_a"),  // two characters
            ("version4Thing", "version4_thing"),  // numerics
            ("partCAPS", "part_caps"),  // only insert underscore before first all caps
            ("partCAPSLowerAGAIN", "part_caps_lower_again"),  // switch back and forth caps.
            ("manyWordsInThisThing", "many_words_in_this_thing"),  // simple lowercase + underscore + more
            ("asdfĆqer", "asdf_ćqer"),
            ("already_snake_case", "already_snake_case"),
            ("dataPoint22", "data_point22"),
            ("dataPoint22Word", "data_point22_word"),
            ("_oneTwoThree", "_one_two_three"),
            ("oneTwoThree_", "one_two_three_"),
            ("__oneTwoThree", "__one_two_three"),
            ("oneTwoThree__", "one_two_three__"),
            ("_oneTwoThree_", "_one_two_three_"),
            ("__oneTwoThree", "__one_two_three"),
            ("__oneTwoThree__", "__one_two_three__"),
            ("_test", "_test"),
            ("_test_", "_test_"),
            ("__test", "__test"),
            ("test__", "test__"),
            ("m͉̟̹y̦̳G͍͚͎̳r̤͉̤͕ͅea̲͕t͇̥̼͖U͇̝̠R͙̻̥͓̣L̥̖͎͓̪̫ͅR̩͖̩eq͈͓u̞e̱s̙t̤̺ͅ", "m͉̟̹y̦̳_g͍͚͎̳r̤͉̤͕ͅea̲͕t͇̥̼͖_u͇̝̠r͙̻̥͓̣l̥̖͎͓̪̫ͅ_r̩͖̩eq͈͓u̞e̱s̙t̤̺ͅ"),  // because Itai wanted to test this
            ("🐧🐟", "🐧🐟"),  // fishy emoji example?
        ]

        for test in toSnakeCaseTests {
            let expected = "{\"\(test.1)\":\"test\"}"
            let encoded = EncodeMe(keyName: test.0)

            let encoder = ModelEncoder(options: EncodingOptions(keyEncodingStrategy: .convertToSnakeCase))
            let resultData = try encoder.encode(encoded)
            let resultString = String(bytes: resultData, encoding: .utf8)

            #expect(expected == resultString)
        }
    }
    @Test func json5Strings() {
        let stringsToTrues = [
            "{v\n : true}",
            "{v \n : true}",
            "{ v \n : true,\nv\n:true,}",
            "{v\r : true}",
            "{v \r : true}",
            "{ v \r : true,\rv\r:true,}",
            "{v\r\n : true}",
            "{v \r\n : true}",
            "{ v \r\n : true,\r\nv\r\n:true,}",
            "{v// comment \n : true}",
            "{v // comment \n : true}",
            "{v/* comment*/ \n : true}",
            "{v/* comment */\n: true}",
            "{v/* comment */:/*comment*/\ntrue}",
            "{v// comment \r : true}",
            "{v // comment \r : true}",
            "{v/* comment*/ \r : true}",
            "{v/* comment */\r: true}",
            "{v/* comment */:/*comment*/\rtrue}",
            "{v// comment \r\n : true}",
            "{v // comment \r\n : true}",
            "{v/* comment*/ \r\n : true}",
            "{v/* comment */\r\n: true}",
            "{v/* comment */:/*comment*/\r\ntrue}",
            "// start with a comment\r\n{v:true}",
        ]

        let stringsToStrings = [
            "{v : \"hi\\x20there\"}": "hi there",
            "{v : \"hi\\xthere\"}": nil,
            "{v : \"hi\\x2there\"}": nil,
            "{v : \"hi\\0there\"}": nil,
            "{v : \"hi\\x00there\"}": nil,
            "{v : \"hi\\u0000there\"}": nil,  // disallowed in JSON5 mode only
            "{v:\"hello\\uA\"}": nil,
            "{v:\"hello\\uA   \"}": nil,
        ]

        for json in stringsToTrues {
            #expect(throws: Never.self, "Failed to parse \"\(json)\"") {
                try Self.json5Decoder.decode([String: Bool].self, from: json.data(using: .utf8)!)
            }
        }
        for (json, expected) in stringsToStrings {
            do {
                let decoded = try Self.json5Decoder.decode([String: String].self, from: json.data(using: .utf8)!)
                #expect(expected == decoded["v"])
            } catch {
                if let expected {
                    Issue.record("Expected \(expected) for input \"\(json)\", but failed with \(error)")
                }
            }
        }
    }
    @Test func preconditionFailuresForContainerReplacement() async {
        struct RedundantEncoding: Encodable {
            enum Subcase {
                case replaceValueWithKeyedContainer
                case replaceValueWithUnkeyedContainer
                case replaceKeyedContainerWithUnkeyed
                case replaceUnkeyedContainerWithKeyed
            }
            let subcase: Subcase

            enum CodingKeys: String, CodingKey {
                case key
            }
            func encode(to encoder: Encoder) throws {
                switch subcase {
                case .replaceValueWithKeyedContainer:
                    var keyed = encoder.container(keyedBy: CodingKeys.self)
                    try keyed.encode(42, forKey: .key)
                    let _ = keyed.nestedContainer(keyedBy: CodingKeys.self, forKey: .key)
                case .replaceValueWithUnkeyedContainer:
                    var keyed = encoder.container(keyedBy: CodingKeys.self)
                    try keyed.encode(42, forKey: .key)
                    let _ = keyed.nestedUnkeyedContainer(forKey: .key)
                case .replaceKeyedContainerWithUnkeyed:
                    var keyed = encoder.container(keyedBy: CodingKeys.self)
                    let _ = keyed.nestedContainer(keyedBy: CodingKeys.self, forKey: .key)
                    let _ = keyed.nestedUnkeyedContainer(forKey: .key)
                case .replaceUnkeyedContainerWithKeyed:
                    var keyed = encoder.container(keyedBy: CodingKeys.self)
                    let _ = keyed.nestedUnkeyedContainer(forKey: .key)
                    let _ = keyed.nestedContainer(keyedBy: CodingKeys.self, forKey: .key)
                }
            }
        }
        await #expect(processExitsWith: .failure) {
            let _ = try ModelEncoder().encode(RedundantEncoding(subcase: .replaceValueWithKeyedContainer))
        }
        await #expect(processExitsWith: .failure) {
            let _ = try ModelEncoder().encode(RedundantEncoding(subcase: .replaceValueWithUnkeyedContainer))
        }
        await #expect(processExitsWith: .failure) {
            let _ = try ModelEncoder().encode(RedundantEncoding(subcase: .replaceKeyedContainerWithUnkeyed))
        }
        await #expect(processExitsWith: .failure) {
            let _ = try ModelEncoder().encode(RedundantEncoding(subcase: .replaceUnkeyedContainerWithKeyed))
        }
    }

}
