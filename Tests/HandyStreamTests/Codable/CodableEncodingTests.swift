import Foundation
import HandyJSON
import Testing

// Encodable values through ModelEncoder: byte for byte what JSONEncoder writes with the same options.

struct EncodedSample: Codable {
    var b = 1
    var B = 2
    var a10 = 3
    var a9 = 4
    var _x = 5
    var é = 6
    var text = "a/b\"\\\u{1}\u{7f}é😀\t\n\u{2028}\u{8}\u{c}\r"
    var doubles: [Double] = [
        0.1, 1e20, 1e21, 1e-7, 100.0, -0.0, 5e-324, 1.7976931348623157e308, 123456789012345678, 12.5,
    ]
    var floats: [Float] = [0.1, 1e20, 3.4028235e38, 16777216]
    var smallest = Int64.min
    var largest = UInt64.max
    var decimal = Decimal(string: "1.10")!
    var date = Date(timeIntervalSinceReferenceDate: 1.5)
    var data = Data([1, 2, 3])
    var url = URL(string: "http://a/b")!
    var missing: Int? = nil
    var present: Int? = 3
    var empty: [Int] = []
    var emptyObject: [String: Int] = [:]
    var nested: [[String: [Int]]] = [["k": [1, 2]], [:]]
    var counts: [Int: String] = [2: "two", 1: "one"]
}

final class EncodedBase: Codable {
    var base = "b"
}

struct WithNested: Encodable {
    var name = "n"
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedCodingKey.self)
        var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: NamedCodingKey("info"))
        try container.encode(name, forKey: NamedCodingKey("name"))
        try nested.encode(1, forKey: NamedCodingKey("late"))
        try container.encode("second", forKey: NamedCodingKey("name"))
        var list = container.nestedUnkeyedContainer(forKey: NamedCodingKey("list"))
        try list.encode(true)
        try list.encodeNil()
        try container.encode(EncodedBase(), forKey: NamedCodingKey("base"))
    }
}

struct NamedCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

@Suite struct CodableEncodingTests {
    static func foundation<T: Encodable>(_ value: T, pretty: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func ours<T: Encodable>(_ value: T, pretty: Bool = false) throws -> String {
        try ModelEncoder(options: EncodingOptions(prettyPrinted: pretty, sortedKeys: true)).encodeToString(value)
    }

    @Test func byteIdenticalWithSortedKeys() throws {
        #expect(try Self.ours(EncodedSample()) == Self.foundation(EncodedSample()))
        #expect(try Self.ours(EncodedSample(), pretty: true) == Self.foundation(EncodedSample(), pretty: true))
        #expect(try Self.ours(WithNested()) == Self.foundation(WithNested()))
        #expect(
            try Self.ours([EncodedSample(), EncodedSample()]) == Self.foundation([EncodedSample(), EncodedSample()]))
    }

    /// Many nested containers in one object, some asked for again under a key already used (a keyed one gets more
    /// members, as in `JSONEncoder`), keys equal only as Strings, values replaced: members are then found by an index.
    struct ManyNested: Encodable {
        struct Key: CodingKey {
            var stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        var count: Int

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for index in 0..<count {
                var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: "k\(index % 50)"))
                try nested.encode(index, forKey: Key(stringValue: "v\(index)"))
                var list = container.nestedUnkeyedContainer(forKey: Key(stringValue: "list\(index % 7)"))
                try list.encode(index)
                try container.encode(index, forKey: Key(stringValue: "plain\(index % 30)"))
            }
            for key in ["café", "cafe\u{301}", "K", "\u{212A}"] {
                var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: key))
                try nested.encode(key, forKey: Key(stringValue: "from"))
            }
        }
    }

    @Test func manyNestedContainersInOneObject() throws {
        for count in [3, 17, 40, 400] {
            #expect(try Self.ours(ManyNested(count: count)) == Self.foundation(ManyNested(count: count)), "\(count)")
        }
    }

    @Test func byteIdenticalOnTheCorpus() throws {
        for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
            let data = try Corpus.data(name)
            switch name {
            case "twitter.json":
                let value = try JSONDecoder().decode(CodableTwitter.self, from: data)
                #expect(try Self.ours(value) == Self.foundation(value))
                #expect(try Self.ours(value, pretty: true) == Self.foundation(value, pretty: true))
            case "citm_catalog.json":
                let value = try JSONDecoder().decode(CodableCatalog.self, from: data)
                #expect(try Self.ours(value) == Self.foundation(value))
            default:
                let value = try JSONDecoder().decode(CodableCollection.self, from: data)
                #expect(try Self.ours(value) == Self.foundation(value))
            }
        }
    }

    @Test func roundTrip() throws {
        let text = try ModelEncoder().encodeToString(EncodedSample())
        let back = try ModelDecoder(options: DecodingOptions(strict: true)).decode(EncodedSample.self, from: text)
        #expect(back.text == EncodedSample().text && back.doubles == EncodedSample().doubles)
        #expect(back.counts == [1: "one", 2: "two"] && back.date == EncodedSample().date)
    }

    @Test func strategies() throws {
        struct Stamped: Codable, Equatable { var when: Date; var blob: Data; var ratio: Double }
        let value = Stamped(when: Date(timeIntervalSince1970: 86_400), blob: Data([255]), ratio: .infinity)
        var options = EncodingOptions(sortedKeys: true)
        options.dateEncodingStrategy = .iso8601
        options.dataEncodingStrategy = .custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(data.count)
        }
        options.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let text = try ModelEncoder(options: options).encodeToString(value)
        #expect(text == #"{"blob":1,"ratio":"+inf","when":"1970-01-02T00:00:00Z"}"#)
        let decoding = DecodingOptions(
            strict: true, dateDecodingStrategy: .iso8601,
            dataDecodingStrategy: .custom { decoder in Data(count: try decoder.singleValueContainer().decode(Int.self))
            },
            nonConformingFloatDecodingStrategy: .convertFromString(
                positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan"))
        let back = try ModelDecoder(options: decoding).decode(Stamped.self, from: text)
        #expect(back == Stamped(when: value.when, blob: Data([0]), ratio: .infinity))
    }

    @Test func codableInsideModels() throws {
        let model = PlainModelWithCodable(name: "m", point: StreamedPoint(x: 1, y: 2), city: .beijing)
        #expect(model.toJSONString() == #"{"name":"m","point":{"x":1,"y":2},"city":"beijing"}"#)
    }

    @Test func cyclesEndAtTheDepthCap() throws {
        final class Loop: Encodable {
            var next: Loop?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: NamedCodingKey.self)
                try container.encode(next, forKey: NamedCodingKey("next"))
            }
        }
        let loop = Loop()
        loop.next = loop
        defer { loop.next = nil }  // the test's own cycle, broken so that nothing leaks
        #expect(throws: EncodingError.self) { try ModelEncoder().encode(loop) }
    }
}

struct Dated: Codable, Equatable {
    var createdAt: Date
    var payload: Data
    var labelsByName: [String: Int]
}

extension CodableEncodingTests {
    /// Each date and data strategy, and the snake-case key strategy (which leaves a `[String: T]`'s keys alone),
    /// written as JSONEncoder writes them and read back as JSONDecoder reads them.
    @Test(arguments: 0..<4)
    func strategiesAsFoundation(strategy: Int) throws {
        let value = Dated(
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.25), payload: Data([0, 1, 254, 255]),
            labelsByName: ["someKey": 1, "other_key": 2])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.keyEncodingStrategy = .convertToSnakeCase
        var options = EncodingOptions(sortedKeys: true, keyEncodingStrategy: .convertToSnakeCase)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var decoding = DecodingOptions(strict: true, keyDecodingStrategy: .convertFromSnakeCase)
        switch strategy {
        case 0:
            break
        case 1:
            encoder.dateEncodingStrategy = .secondsSince1970
            options.dateEncodingStrategy = .secondsSince1970
            decoder.dateDecodingStrategy = .secondsSince1970
            decoding.dateDecodingStrategy = .secondsSince1970
        case 2:
            encoder.dateEncodingStrategy = .millisecondsSince1970
            options.dateEncodingStrategy = .millisecondsSince1970
            decoder.dateDecodingStrategy = .millisecondsSince1970
            decoding.dateDecodingStrategy = .millisecondsSince1970
            encoder.dataEncodingStrategy = .deferredToData
            options.dataEncodingStrategy = .deferredToData
            decoder.dataDecodingStrategy = .deferredToData
            decoding.dataDecodingStrategy = .deferredToData
        default:
            encoder.dateEncodingStrategy = .iso8601
            options.dateEncodingStrategy = .iso8601
            decoder.dateDecodingStrategy = .iso8601
            decoding.dateDecodingStrategy = .iso8601
        }
        let expected = String(decoding: try encoder.encode(value), as: UTF8.self)
        let written = try ModelEncoder(options: options).encodeToString(value)
        #expect(written == expected)
        let foundation = try decoder.decode(Dated.self, from: Data(expected.utf8))
        #expect(try ModelDecoder(options: decoding).decode(Dated.self, from: expected) == foundation)
    }
}
