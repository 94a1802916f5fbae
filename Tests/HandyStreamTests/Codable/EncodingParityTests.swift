import Foundation
import HandyStream
import Testing

// ModelEncoder against JSONEncoder on hand-picked values, with and without sorted keys, compact and pretty: the
// same bytes, or the same error.

struct ParityMeta: Encodable {
    var created = 1
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        var meta = container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(stringValue: "meta"))
        try meta.encode(created, forKey: AnyCodingKey(stringValue: "created"))
        var list = container.nestedUnkeyedContainer(forKey: AnyCodingKey(stringValue: "list"))
        try list.encode(1)
    }
}

/// A subclass adding to its parent's nested containers.
final class ParityEdited: Encodable {
    var parent = ParityMeta()
    func encode(to encoder: any Encoder) throws {
        try parent.encode(to: encoder)
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        var meta = container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(stringValue: "meta"))
        try meta.encode(2, forKey: AnyCodingKey(stringValue: "edited"))
        var list = container.nestedUnkeyedContainer(forKey: AnyCodingKey(stringValue: "list"))
        try list.encode(2)
    }
}

struct ParityNothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

/// Asks for a single value container and encodes nothing through it.
struct ParityOnlySingle: Encodable {
    func encode(to encoder: any Encoder) throws { _ = encoder.singleValueContainer() }
}

/// Encodes `value` through a single value container.
struct ParitySingle<Value: Encodable & Sendable>: Encodable, Sendable {
    var value: Value
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

struct ParityMembers: Codable {
    var zeta = 1
    var alpha = "a/b"
    var mid: [Double] = [1.0, 2.5]
    var empty: [Int] = []
    var emptyObject: [String: Int] = [:]
    var nested = ["k/ey": ["x": 1, "y": 2, "z": 3, "w": 4, "v": 5]]
    var optional: Int? = nil
    var url = URL(string: "https://example.com/a/b")!
}

/// Two keys with different bytes that are equal as Strings (a decomposed and a composed é): one key encoded twice.
struct ParityEqualKeys: Encodable {
    var names = ["caf\u{E9}", "cafe\u{301}"]
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for (index, name) in names.enumerated() { try container.encode(index, forKey: AnyCodingKey(stringValue: name)) }
    }
}

/// A nested container asked for twice, under two spellings of one key: one container.
struct ParityEqualNested: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        var first = container.nestedContainer(
            keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(stringValue: "caf\u{E9}"))
        try first.encode(1, forKey: AnyCodingKey(stringValue: "a"))
        var second = container.nestedContainer(
            keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(stringValue: "cafe\u{301}"))
        try second.encode(2, forKey: AnyCodingKey(stringValue: "b"))
        var list = container.nestedUnkeyedContainer(forKey: AnyCodingKey(stringValue: "\u{212A}"))
        try list.encode(3)
        var again = container.nestedUnkeyedContainer(forKey: AnyCodingKey(stringValue: "K"))
        try again.encode(4)
    }
}

struct ParityFloat: Encodable {
    var value: Double
}

struct EncodingParityCase: CustomStringConvertible, Sendable {
    let name: String
    let run: @Sendable (JSONEncoder.OutputFormatting) -> (ours: String, foundation: String)

    init<T: Encodable>(_ name: String, _ make: @escaping @Sendable () -> T) {
        self.name = name
        run = { formatting in
            func outcome(_ body: () throws -> Data) -> String {
                do {
                    return String(decoding: try body(), as: UTF8.self)
                } catch let error as EncodingError {
                    guard case .invalidValue(_, let context) = error else { return "EncodingError" }
                    return "invalidValue at \(context.codingPath.map(\.stringValue))"
                } catch {
                    return "not an EncodingError: \(error)"
                }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            let foundation = outcome { try encoder.encode(make()) }
            let options = EncodingOptions(
                prettyPrinted: formatting.contains(.prettyPrinted), sortedKeys: formatting.contains(.sortedKeys),
                escapesSlashes: !formatting.contains(.withoutEscapingSlashes))
            let ours = outcome { Data(try ModelEncoder(options: options).encode(make())) }
            return (ours, foundation)
        }
    }

    var description: String { name }
}

@Suite struct EncodingParityTests {
    static let cases: [EncodingParityCase] = [
        EncodingParityCase("doubles") { [1.0, 2.5] },
        EncodingParityCase("a dictionary of doubles") { ["k": 2.0] },
        EncodingParityCase("a string with slashes") { "a/b" },
        EncodingParityCase("keys with slashes") { ["a/b": 1, "c": 2] },
        EncodingParityCase("members") { ParityMembers() },
        EncodingParityCase("an empty array") { [Int]() },
        EncodingParityCase("an empty object") { [String: Int]() },
        EncodingParityCase("nested empty containers") { [[Int](), []] },
        EncodingParityCase("a double") { 2.0 },
        EncodingParityCase("a float") { Float(0.1) },
        EncodingParityCase("an optional") { Int?.some(3) },
        EncodingParityCase("nil") { Int?.none },
        EncodingParityCase("a nested container asked for twice") { ParityEdited() },
        EncodingParityCase("NaN") { ParityFloat(value: .nan) },
        EncodingParityCase("a top-level NaN") { Double.nan },
        EncodingParityCase("infinity in an array") { [1.0, .infinity] },
        EncodingParityCase("a value that encodes nothing") { ParityNothing() },
        EncodingParityCase("a value that asks for a single value container only") { ParityOnlySingle() },
        // JSONEncoder makes an empty object of a value encoded through a single value container that encodes
        // nothing: the top-level value then encodes `{}`.
        EncodingParityCase("nothing through a single value container") { ParitySingle(value: ParityNothing()) },
        EncodingParityCase("a single value container only, through one") { ParitySingle(value: ParityOnlySingle()) },
        EncodingParityCase("nothing through two single value containers") {
            ParitySingle(value: ParitySingle(value: ParityNothing()))
        },
        EncodingParityCase("an optional holding a value that encodes nothing") { ParityNothing?.some(ParityNothing()) },
        EncodingParityCase("nothing through a single value container, as a member and an element") {
            ["k": [ParitySingle(value: ParityNothing())]]
        },
        EncodingParityCase("Decimal NaN") { [Decimal.nan] },
        EncodingParityCase("many keys") { Dictionary(uniqueKeysWithValues: (0..<40).map { ("key\($0)", $0) }) },
        EncodingParityCase("keys equal as Strings") { ParityEqualKeys() },
        EncodingParityCase("a nested container under keys equal as Strings") { ParityEqualNested() },
        EncodingParityCase("keys equal as Strings, the other way") {
            ParityEqualKeys(names: ["cafe\u{301}", "caf\u{E9}"])
        },
        EncodingParityCase("an integer-keyed dictionary") { [3: "c", 1: "a", 2: "b"] },
        EncodingParityCase("a character to escape, or next to one, at every position") { EscapeStrings.all },
    ]

    static let formattings: [JSONEncoder.OutputFormatting] = [
        [], [.sortedKeys], [.prettyPrinted], [.prettyPrinted, .sortedKeys], [.withoutEscapingSlashes, .sortedKeys],
    ]

    /// With sorted keys, the same bytes; without, the same JSON (JSONEncoder's member order then changes from call
    /// to call: ``jsonEncodersOwnOrderChanges()``), and the same text otherwise.
    @Test(arguments: cases)
    func sameBytesAsJSONEncoder(_ parity: EncodingParityCase) throws {
        for formatting in Self.formattings {
            let (ours, foundation) = parity.run(formatting)
            if formatting.contains(.sortedKeys) || !ours.hasPrefix("{") {
                // Bytes, not Strings: two Strings are equal when their bytes differ in normalization only.
                #expect(Array(ours.utf8) == Array(foundation.utf8), "\(parity) with \(formatting.rawValue)")
            } else {
                let read = { (text: String) in
                    try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? NSDictionary
                }
                #expect(try read(ours) == read(foundation), "\(parity) with \(formatting.rawValue)")
                #expect(ours.count == foundation.count, "\(parity) with \(formatting.rawValue)")
            }
        }
    }

    /// Why ModelEncoder keeps the encoding order without sorted keys: JSONEncoder's order is that of a dictionary
    /// seeded per instance, so the same value encoded twice by the same JSONEncoder may come out in two orders.
    @Test func jsonEncodersOwnOrderChanges() throws {
        let encoder = JSONEncoder()
        let value = Dictionary(uniqueKeysWithValues: (0..<12).map { ("key\($0)", $0) })
        // The seed comes from the dictionary's storage address: each call gets memory at another address.
        var texts = Set<Data>()
        var calls = 0
        _ = try untilTrueAtFreshAddresses(calls: 30) {
            texts.insert(try encoder.encode(value))
            calls += 1
            return texts.count > 1
        }
        #expect(texts.count > 1, "one order in \(calls) calls")
        // A struct's members in the order its encode(to:) encodes them, every time. (A Swift dictionary's own order
        // is seeded per instance too, so a `[String: T]` is written in the order it gives.)
        struct Ordered: Encodable {
            var zeta = 1
            var alpha = "a/b"
            var mid: [Double] = [1.0, 2.5]
            var nested = StreamedPoint(x: 1, y: 2)
        }
        let ours = Set(try (0..<50).map { _ in try ModelEncoder().encode(Ordered()) })
        #expect(ours.count == 1)
        #expect(
            String(decoding: try ModelEncoder().encode(Ordered()), as: UTF8.self)
                == #"{"zeta":1,"alpha":"a\/b","mid":[1,2.5],"nested":{"x":1,"y":2}}"#)
    }
}

extension EncodingParityTests {
    /// A custom date or data strategy whose closure encodes nothing: `JSONEncoder` makes an empty object of the value,
    /// at the top level too, and of one whose closure only asks for a single value container.
    @Test func customStrategiesThatEncodeNothing() throws {
        let closures: [@Sendable (any Encoder) throws -> Void] = [
            { _ in }, { _ = $0.singleValueContainer() }, { _ = $0.container(keyedBy: AnyCodingKey.self) },
            {
                var single = $0.singleValueContainer(); try single.encode(ParityNothing())
            },
        ]
        for (number, closure) in closures.enumerated() {
            let foundation = JSONEncoder()
            foundation.outputFormatting = .sortedKeys
            foundation.dateEncodingStrategy = .custom { _, encoder in try closure(encoder) }
            foundation.dataEncodingStrategy = .custom { _, encoder in try closure(encoder) }
            var options = EncodingOptions(sortedKeys: true)
            options.dateEncodingStrategy = .custom { _, encoder in try closure(encoder) }
            options.dataEncodingStrategy = .custom { _, encoder in try closure(encoder) }
            let ours = ModelEncoder(options: options)
            func same<T: Encodable>(_ value: T, _ label: String) throws {
                let expected = String(decoding: try foundation.encode(value), as: UTF8.self)
                #expect(
                    String(decoding: try ours.encode(value), as: UTF8.self) == expected,
                    "\(label), closure \(number)")
            }
            let date = Date(timeIntervalSince1970: 0)
            let data = Data([1, 2])
            try same(date, "a top-level date")
            try same(data, "top-level data")
            try same(ParitySingle(value: date), "a date through a single value container")
            try same(["d": date], "a date as a member")
            try same([data, data], "data as elements")
        }
    }

    /// The non-conforming float strategy for top-level numbers, their optionals and arrays of them.
    @Test func nonConformingFloatsAtTheTop() throws {
        let foundation = JSONEncoder()
        foundation.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        var options = EncodingOptions()
        options.nonConformingFloatEncodingStrategy = foundation.nonConformingFloatEncodingStrategy
        let ours = ModelEncoder(options: options)
        func same<T: Encodable>(_ value: T) throws {
            #expect(try ours.encode(value) == Array(try foundation.encode(value)), "\(value)")
        }
        try same(Double.infinity)
        try same(-Float.infinity)
        try same(Float?.some(.nan))
        try same([Float.nan, 1.5, -.infinity])
        try same(Double?.some(2.0))
    }
}

/// Strings with one character at every position 0-24 of text read eight bytes at a time: each character that needs an
/// escape, the characters next to them in value, and multi-byte ones.
enum EscapeStrings {
    static let characters: [String] = [
        "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", " ", "!", "\"", "#", "\\", "[", "]",
        "/",
        ".", "0", "\u{7F}", "é", "日", "😀",
    ]
    static let all: [String] = characters.flatMap { character in
        (0..<25).map { position in
            String(repeating: "a", count: position) + character + String(repeating: "b", count: (position * 7) % 11)
        }
    }
}
