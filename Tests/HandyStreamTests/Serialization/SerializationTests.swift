import Foundation
@testable import HandyStream
import HandyJSON
import Testing

/// Encodes with sorted keys, so that two encodings of equal values compare equal as text.
func canonical<T>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    try ModelEncoder(options: EncodingOptions(sortedKeys: true)).encodeToString(value)
}

/// encode → decode → encode gives the same text, and the text is accepted by a strict parser.
func expectRoundTrip<T>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let first = try canonical(value)
    #expect(throws: Never.self, sourceLocation: sourceLocation) {
        try JSONSerialization.jsonObject(with: Data(first.utf8), options: [.fragmentsAllowed])
    }
    let decoded = try ModelDecoder().decode(T.self, from: first)
    #expect(try canonical(decoded) == first, sourceLocation: sourceLocation)
}

struct BoxedModel: HandyJSON {
    var a = 1
    var b = "two"
    var c = 3.5
    var d = [4]
}

struct PlainPoint {
    var x = 1
    var y: String? = "why"
    var none: Int? = nil
}

final class CycleNode: HandyJSON {
    var name = ""
    var next: CycleNode?
    required init() {}
}

struct Floating: HandyJSON {
    var double = 0.0
    var float: Float = 0
}

struct SnakeModel: HandyJSON {
    var userId = 1
    var imageURL = "u"
    var explicitName = "e"
    var missing: Int?
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.explicitName <-- "AsIs"
    }
}

@Suite("Serialization")
struct SerializationTests {
    @Test("Every property type round-trips")
    func everyType() throws {
        let numbers = try #require(
            Numbers.deserialize(
                from: """
                    {"int": -9223372036854775808, "int8": -128, "int16": 32767, "int32": -2147483648,
                     "int64": 9223372036854775807, "uint": 18446744073709551615, "uint8": 255, "uint16": 65535,
                     "uint32": 4294967295, "uint64": 18446744073709551615, "float": 3.4028235e38, "double": 5e-324,
                     "bool": true, "string": "q\\"\\\\\\n\\u0001é😀", "nsString": "ns", "nsNumber": 42, "decimal": 3.14159265358979323846}
                    """))
        try expectRoundTrip(numbers)
        #expect(try canonical(numbers).contains(#""decimal":3.14159265358979323846"#))
        #expect(try canonical(numbers).contains(#""string":"q\"\\\n\u0001é😀""#))
        try expectRoundTrip(
            try #require(
                Optionals.deserialize(
                    from:
                        #"{"int": 1, "implicitlyUnwrapped": 2, "nested": {"name": "n"}, "nestedClass": {"owners": [{"age": 1}]}}"#
                )))
        try expectRoundTrip(
            try #require(
                Containers.deserialize(
                    from: """
                        {"ints": [1, 2], "optionalInts": [1, null], "set": ["a", "b"], "matrix": [[1.5], []], "byName": {"a": 1},
                         "nestedDictionary": {"x": {"y": [1]}}, "owners": [{"name": "A"}], "ownersByName": {"z": {"age": 9}},
                         "shelters": [{"name": "S"}], "optionalOwners": [{"name": "O"}, null], "species": "dog",
                         "speciesList": ["cat"], "legs": 4, "weight": 10.25}
                        """)))
        try expectRoundTrip(
            try #require(
                Loose.deserialize(
                    from:
                        #"{"any": {"a": [1, 2.5, "s", true, null]}, "list": [1, "two"], "object": {"k": false}, "objects": [{"x": 1}]}"#
                )))
        try expectRoundTrip(
            try #require(Kitten.deserialize(from: #"{"name": "Mia", "legs": 4, "indoor": true, "ageInWeeks": 9}"#)))
        try expectRoundTrip(try #require(Page<Owner>.deserialize(from: #"{"total": 1, "items": [{"name": "a"}]}"#)))
    }

    @Test("The exact text: declaration order, ancestors first, nil left out, let written")
    func exactText() throws {
        let kitten = try #require(Kitten.deserialize(from: #"{"name": "Mia", "ageInWeeks": 9}"#))
        #expect(kitten.toJSONString() == #"{"name":"Mia","legs":0,"indoor":false,"ageInWeeks":9}"#)
        #expect(WithLet().toJSONString() == #"{"constant":7,"constantString":"fixed","variable":0}"#)
        #expect(Optionals().toJSONString() == #"{"withDefault":5}"#)
        #expect(
            try ModelEncoder(options: EncodingOptions(nilEncoding: .null)).encodeToString(Owner())
                == #"{"name":"","age":0}"#)
        let withNulls = try ModelEncoder(options: EncodingOptions(nilEncoding: .null)).encodeToString(Optionals())
        #expect(withNulls.hasPrefix(#"{"int":null,"double":null,"#))
    }

    @Test("Pretty printing")
    func pretty() throws {
        #expect(
            Page<Owner>(total: 1, items: [Owner(name: "a", age: 2)]).toJSONString(prettyPrint: true) == """
                {
                  "total": 1,
                  "items": [
                    {
                      "name": "a",
                      "age": 2
                    }
                  ]
                }
                """)
        #expect([Owner]().toJSONString(prettyPrint: true) == "[]")
    }

    @Test("Mappings apply in reverse: keys, nested key paths as nested objects, transforms, exclusions")
    func mappingsInReverse() throws {
        let cat = try #require(MappedCat.deserialize(from: MappingTests.catJSON))
        let text = try canonical(cat)
        #expect(
            text
                == #"{"born":86400.0,"cat_id":7,"friend":{"age":4,"name":"Jerry"},"nickname":"first","parent":"Tom/Tabby","seen_at":60.0}"#
        )
        #expect(try ModelDecoder().decode(MappedCat.self, from: text) == cat)
        let purchase = try #require(Purchase.deserialize(from: #"{"price": "$12.5", "extras": [1]}"#))
        #expect(
            try canonical(purchase)
                == #"{"NAME_AS_IS":"","extras":["$1.0"],"imageURL":"","price":"$12.5","userId":0}"#)
    }

    @Test("Key strategy and sorted keys")
    func keyStrategy() throws {
        let encoder = ModelEncoder(options: EncodingOptions(sortedKeys: true, keyEncodingStrategy: .convertToSnakeCase))
        #expect(try encoder.encodeToString(SnakeModel()) == #"{"AsIs":"e","image_url":"u","user_id":1}"#)
        let decoded = try ModelDecoder(options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase))
            .decode(SnakeModel.self, from: try encoder.encodeToString(SnakeModel(userId: 5)))
        #expect(decoded.userId == 5)
    }

    @Test("Non-finite numbers: an error by default, or null, or a string")
    func nonFinite() throws {
        #expect(throws: JSONEncodingError.self) { try ModelEncoder().encodeToString(Floating(double: .infinity)) }
        #expect(Floating(double: .nan).toJSONString() == nil)
        #expect(
            try ModelEncoder(options: EncodingOptions(nonFiniteNumbers: .null)).encodeToString(Floating(double: .nan))
                == #"{"double":null,"float":0.0}"#)
        #expect(
            try ModelEncoder(options: EncodingOptions(nonFiniteNumbers: .string))
                .encodeToString(Floating(double: -.infinity, float: .infinity)) == #"{"double":"-inf","float":"inf"}"#)
    }

    @Test("A cyclic object graph is an error, not a crash")
    func cycle() throws {
        let a = CycleNode()
        let b = CycleNode()
        a.next = b
        b.next = a
        defer { b.next = nil }
        #expect(throws: JSONEncodingError.self) { try ModelEncoder().encode(a) }
        #expect(a.toJSONString() == nil)
    }

    @Test("Values that are not models are written from their stored properties")
    func plainValues() throws {
        let loose = Loose(
            any: PlainPoint(), anyDefault: [PlainPoint(x: 2)] as [Any], list: [], object: [:], objects: [])
        #expect(
            try canonical(loose)
                == #"{"any":{"x":1,"y":"why"},"anyDefault":[{"x":2,"y":"why"}],"list":[],"object":{},"objects":[]}"#)
    }

    /// A model wider than an existential's inline buffer is boxed inside `Any`: it is written from its own memory.
    @Test func wideModelsInsideAny() throws {
        let wide = BoxedModel()
        let loose: [String: Any] = ["w": wide, "list": [wide] as [Any]]
        let written = #"{"a":1,"b":"two","c":3.5,"d":[4]}"#
        #expect(try canonical(loose) == #"{"list":["# + written + #"],"w":"# + written + "}")
    }

    @Test("Collections of models, toJSON and toJSONData")
    func collections() throws {
        let owners = [Owner(name: "a", age: 1), Owner(name: "b", age: 2)]
        #expect(owners.toJSONString() == #"[{"name":"a","age":1},{"name":"b","age":2}]"#)
        #expect(owners.toJSON().map { $0?["name"] as? String } == ["a", "b"])
        let dictionary = try #require(Owner(name: "x", age: 3).toJSON())
        #expect(dictionary["age"] as? Int == 3)
        #expect(Owner(name: "x", age: 3).toJSONData() == Data(#"{"name":"x","age":3}"#.utf8))
    }

    @Test("Random numbers and strings round-trip exactly", arguments: 0..<3)
    func randomValues(seed: Int) throws {
        var generator = SplitMix64(seed: UInt64(1_000 + seed))
        for _ in 0..<500 {
            var numbers = Numbers()
            numbers.int64 = Int64(bitPattern: generator.next())
            numbers.uint64 = generator.next()
            numbers.double =
                Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &generator) ? 1 : -1)
            numbers.float = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()) & 0x7F7F_FFFF)
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ -> Character? in
                let pick = Int.random(in: 0..<4, using: &generator)
                let value =
                    pick == 0
                    ? UInt32.random(in: 0...0x1F, using: &generator)
                    : pick == 1
                        ? [0x22, 0x5C, 0x2F, 0x7F][Int.random(in: 0..<4, using: &generator)]
                        : pick == 2
                            ? UInt32.random(in: 0x20...0x7E, using: &generator)
                            : UInt32.random(in: 0xA0...0x10FFFF, using: &generator)
                return Unicode.Scalar(value).map(Character.init)
            }
            numbers.string = String(scalars)
            let text = try ModelEncoder().encodeToString(numbers)
            let back = try ModelDecoder().decode(Numbers.self, from: text)
            #expect(back.int64 == numbers.int64 && back.uint64 == numbers.uint64, "\(text)")
            #expect(back.double.bitPattern == numbers.double.bitPattern, "\(text)")
            #expect(back.float.bitPattern == numbers.float.bitPattern, "\(text)")
            #expect(back.string == numbers.string, "\(text)")
        }
    }

    @Test("Strings are written as JSONEncoder writes them without escaping slashes: models and extracted text")
    func stringEscapes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        for string in EscapeStrings.all {
            let expected = String(decoding: try encoder.encode(string), as: UTF8.self)
            var numbers = Numbers()
            numbers.string = string
            let text = try ModelEncoder().encodeToString(numbers)
            #expect(text.contains(#""string":\#(expected)"#), "\(expected) in \(text)")
            #expect(try ModelDecoder().decode(Numbers.self, from: text).string == string)
            // The same string read and written again as JSONText (what `extract` does).
            let extracted = try ModelDecoder().decode(JSONText.self, from: expected)
            #expect(String(decoding: extracted.bytes, as: UTF8.self) == expected)
        }
    }

    @Test("The twitter corpus round-trips through its models")
    func corpusRoundTrip() throws {
        let result = try ModelDecoder().decode(SearchResult.self, from: try Corpus.data("twitter.json"))
        try expectRoundTrip(result)
        let text = try canonical(result)
        #expect(text.contains(#""id_str":"505874924095815681""#))
    }
}

/// The writer finds the bytes to escape eight at a time, a word's last bytes in the text's last word: every
/// character to escape (and a few not to), at every position of texts of every length up to 24, alone and with
/// a second one in the same word, is written as `JSONEncoder` writes it, slashes escaped or not.
@Suite struct StringEscapePositionTests {
    private static let characters: [String] = [
        "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\"", "\\", "/", " ", "\u{7F}", "é",
        "日", "😀",
    ]

    @Test func everyPositionOfEveryLength() throws {
        for slashes in [true, false] {
            let foundation = JSONEncoder()
            if !slashes { foundation.outputFormatting = .withoutEscapingSlashes }
            let ours = ModelEncoder(options: EncodingOptions(escapesSlashes: slashes))
            var texts: [String] = []
            for length in 1...24 {
                for position in 0..<length {
                    for character in Self.characters {
                        let before = String(repeating: "a", count: position)
                        let after = String(repeating: "b", count: length - position - 1)
                        texts.append(before + character + after)
                        // A second character to escape three bytes on, in the same word or the next.
                        texts.append(before + character + "xy\"" + after)
                    }
                }
            }
            let expected = String(decoding: try foundation.encode(texts), as: UTF8.self)
            let written = try ours.encodeToString(texts)
            #expect(written == expected)
            if written != expected {
                for text in texts
                where try ours.encodeToString([text])
                    != String(
                        decoding: try foundation.encode([text]), as: UTF8.self)
                {
                    Issue.record("slashes escaped \(slashes): \(Array(text.utf8))")
                    break
                }
            }
        }
    }
}
