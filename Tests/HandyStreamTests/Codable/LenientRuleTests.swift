import Foundation
import HandyJSON
import Testing

// Lenient mode never changes what JSONDecoder decodes: it rescues only where strict decoding throws, at the innermost
// value that can absorb the failure, with the defaults users declare.

/// Decodes any value, whatever it is: what a hand-written loop uses to step over an element it can't read.
struct AnyValue: Decodable {
    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            while !array.isAtEnd { _ = try array.decode(AnyValue.self) }
        } else if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            for key in object.allKeys { _ = try object.decode(AnyValue.self, forKey: key) }
        }
    }
}

struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A hand-written `init(from:)` that decides for itself what to do with values it can't read.
struct TryingLoop: Decodable, Equatable {
    var xs: [Int] = []
    var maybe: Int?

    enum CodingKeys: String, CodingKey { case xs, maybe }

    init(xs: [Int], maybe: Int?) {
        self.xs = xs
        self.maybe = maybe
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maybe = try? container.decode(Int.self, forKey: .maybe)
        var elements = try container.nestedUnkeyedContainer(forKey: .xs)
        while !elements.isAtEnd {
            if let value = try? elements.decode(Int.self) {
                xs.append(value)
            } else {
                _ = try? elements.decode(AnyValue.self)
            }
        }
    }
}

struct InitDefaults: Codable, Equatable, EmptyInitializable {
    var name = "anon"
    var age = 18
    var tags = ["new"]
}

struct RenamedDefaults: Codable, Equatable, EmptyInitializable {
    var userId = 42
    var label = "none"
    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case label
    }
}

struct OptionalNumbers: Codable, Equatable {
    var float: Float?
    var int8: Int8?
    var uint8: UInt8?
    var int32: Int32?
    var uint64: UInt64?
    var double: Double?
}

struct RescuedCollections: Codable, Equatable {
    var set: Set<Int>
    var byNumber: [Int: Int]
}

struct ScalarHolder<Value: Codable & Hashable>: Codable {
    var value: Value
}

@Suite struct LenientRuleTests {
    static func both<T: Decodable & Equatable>(_ type: T.Type, _ json: String) throws -> (lenient: T, foundation: T) {
        (try ModelDecoder().decode(T.self, from: json), try JSONDecoder().decode(T.self, from: Data(json.utf8)))
    }

    @Test func tryInHandWrittenCodeSeesTheError() throws {
        let json = #"{"xs":[1,null,"x",3], "maybe": "7"}"#
        let (lenient, foundation) = try Self.both(TryingLoop.self, json)
        #expect(foundation == TryingLoop(xs: [1, 3], maybe: nil))
        #expect(lenient == foundation)
    }

    @Test func defaultsFromInit() throws {
        let empty = try ModelDecoder().decode(InitDefaults.self, from: "{}")
        #expect(empty == InitDefaults())
        let unfit = try ModelDecoder().decode(InitDefaults.self, from: #"{"name": {}, "age": "old", "tags": 3}"#)
        #expect(unfit == InitDefaults())
        let converted = try ModelDecoder().decode(InitDefaults.self, from: #"{"name": 7, "age": "30"}"#)
        #expect(converted == InitDefaults(name: "7", age: 30, tags: ["new"]))
        // Through the type's own coding keys, custom raw values included.
        let renamed = try ModelDecoder().decode(RenamedDefaults.self, from: #"{"label": "x"}"#)
        #expect(renamed.userId == 42 && renamed.label == "x")
        let read = try ModelDecoder().decode(RenamedDefaults.self, from: #"{"user_id": "7"}"#)
        #expect(read.userId == 7 && read.label == "none")
    }

    @Test func optionalsThatDoNotFitAreNil() throws {
        let json = #"{"float": "N/A", "int8": 300, "uint8": 300, "int32": 3e10, "uint64": -1, "double": {}}"#
        let value = try ModelDecoder().decode(OptionalNumbers.self, from: json)
        #expect(value == OptionalNumbers())
        let converted = try ModelDecoder().decode(
            OptionalNumbers.self, from: #"{"float": "1.5", "int8": "-3", "uint64": "18446744073709551615"}"#)
        #expect(converted == OptionalNumbers(float: 1.5, int8: -3, uint64: .max))
    }

    @Test func setsAndIntegerKeyedDictionariesDropWhatDoesNotFit() throws {
        let json = #"{"set": [1, "x", 3, "4"], "byNumber": {"1": 1, "2": "x", "three": 3, "4": "4"}}"#
        let value = try ModelDecoder().decode(RescuedCollections.self, from: json)
        #expect(value.set == [1, 3, 4])
        #expect(value.byNumber == [1: 1, 4: 4])
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        #expect(throws: DecodingError.self) { try strict.decode(RescuedCollections.self, from: json) }
    }

    @Test func strictModeConvertsNothing() throws {
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        #expect(throws: DecodingError.self) { try strict.decode([Int].self, from: #"[1, "2"]"#) }
        #expect(throws: DecodingError.self) { try strict.decode([Int].self, from: "[false, true]") }
        #expect(throws: DecodingError.self) { try strict.decode([Bool].self, from: "[0, 1]") }
        #expect(throws: DecodingError.self) { try strict.decode(String.self, from: "1") }
        #expect(throws: DecodingError.self) { try strict.decode(Bool.self, from: #""true""#) }
        #expect(throws: DecodingError.self) { try strict.decode(Double.self, from: #""1.5""#) }
        #expect(throws: DecodingError.self) { try strict.decode([String: String].self, from: #"{"a": 1}"#) }
        // Lenient mode converts where strict mode throws.
        #expect(try ModelDecoder().decode([Int].self, from: #"[1, "2"]"#) == [1, 2])
        #expect(try ModelDecoder().decode(String.self, from: "1") == "1")
    }

    /// Every scalar type converts where strict mode throws, wherever it sits, as `[Int]`'s elements do.
    @Test func everyScalarConvertsWhereverItSits() throws {
        try Self.converts(Int.self, #""12""#, 12)
        try Self.converts(Int8.self, #""12""#, 12)
        try Self.converts(Int16.self, #""12""#, 12)
        try Self.converts(Int32.self, #""12""#, 12)
        try Self.converts(Int64.self, #""12""#, 12)
        try Self.converts(UInt.self, #""12""#, 12)
        try Self.converts(UInt8.self, #""12""#, 12)
        try Self.converts(UInt16.self, #""12""#, 12)
        try Self.converts(UInt32.self, #""12""#, 12)
        try Self.converts(UInt64.self, #""12""#, 12)
        try Self.converts(Int128.self, #""12""#, 12)
        try Self.converts(UInt128.self, #""12""#, 12)
        try Self.converts(Float.self, #""1.5""#, 1.5)
        try Self.converts(Double.self, #""1.5""#, 1.5)
        try Self.converts(Bool.self, #""true""#, true)
        try Self.converts(String.self, "12", "12")
    }

    static func converts<T: Codable & Hashable>(_: T.Type, _ json: String, _ expected: T) throws {
        let lenient = ModelDecoder()
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        let documents = ["[\(json)]", #"{"a": \#(json)}"#, #"{"value": \#(json)}"#, json]
        #expect(try lenient.decode([T].self, from: documents[0]) == [expected], "[\(T.self)]")
        #expect(try lenient.decode([T?].self, from: documents[0]) == [expected], "[\(T.self)?]")
        #expect(try lenient.decode(Set<T>.self, from: documents[0]) == [expected], "Set<\(T.self)>")
        #expect(try lenient.decode([String: T].self, from: documents[1]) == ["a": expected], "[String: \(T.self)]")
        #expect(try lenient.decode(ScalarHolder<T>.self, from: documents[2]).value == expected, "\(T.self) property")
        #expect(try lenient.decode(T.self, from: documents[3]) == expected, "\(T.self)")
        #expect(throws: DecodingError.self) { try strict.decode([T].self, from: documents[0]) }
        #expect(throws: DecodingError.self) { try strict.decode([String: T].self, from: documents[1]) }
        #expect(throws: DecodingError.self) { try strict.decode(ScalarHolder<T>.self, from: documents[2]) }
        #expect(throws: DecodingError.self) { try strict.decode(T.self, from: documents[3]) }
    }

    @Test func oneBadFieldPerElement() throws {
        struct Item: Codable, Equatable, EmptyInitializable {
            var id = 0
            var price = -1.0
        }
        let items = (0..<2000).map { #"{"id": \#($0), "price": "\#($0 % 3 == 0 ? "n/a" : "\($0).5")"}"# }
        let json = "[" + items.joined(separator: ",") + "]"
        let log = DiagnosticLog()
        let decoded = try ModelDecoder(options: log.options).decode([Item].self, from: json)
        #expect(decoded.count == 2000)
        #expect(decoded[3] == Item(id: 3, price: -1))
        #expect(decoded[4] == Item(id: 4, price: 4.5))
        // Each fallback is told once: the conversions are not fallbacks; the defaults are.
        #expect(log.all.count == 667)
        #expect(
            log.all.first == "$[0].price: Expected to decode Double but found a string instead; the default was used")
    }
}

// MARK: - Nothing lost before a syntax error

@Suite struct DeliveredBeforeErrorTests {
    static let items = (0..<1000).map { #"{"x": \#($0), "y": 1}"# }
    static let document = #"{"items": ["# + items.joined(separator: ",") + #", {"x": 1,, "y": 2}]}"#

    @Test func pushDecoderReturnsThemThenThrows() throws {
        let decoder = try ModelDecoder().elements(of: StreamedPoint.self, at: "items")
        let received = try decoder.feed(Array(Self.document.utf8))
        #expect(received.count == 1000 && received.last == StreamedPoint(x: 999, y: 1))
        #expect(throws: DecodingError.self) { try decoder.feed(Array("]".utf8)) }
        #expect(throws: DecodingError.self) { try decoder.finish() }
    }

    @Test func forEachElementCallsItsBodyForThem() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("handystream-bad-\(UUID()).json")
        try Data(Self.document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var count = 0
        #expect(throws: DecodingError.self) {
            try ModelDecoder().forEachElement(of: StreamedPoint.self, at: "items", inFileAt: file.path) { _ in
                count += 1
            }
        }
        #expect(count == 1000)
    }

    @Test func asyncSequenceYieldsThemThenThrows() async throws {
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array(Self.document.utf8))
            continuation.finish()
        }
        var count = 0
        do {
            for try await _ in ModelDecoder().elements(of: StreamedPoint.self, at: "items", from: chunks) { count += 1 }
            Issue.record("expected an error")
        } catch is DecodingError {}
        #expect(count == 1000)
    }
}

// MARK: - Exact numbers, errors that say what they mean

struct WideNumbers: Codable, Equatable {
    var big = UInt64.max
    var two = 2.0
    var half: Float = 0.5
    var small: Int8 = -3
}

struct HoldsWideNumbers: HandyJSON {
    var wide = WideNumbers()
}

/// A type both HandyJSON and Codable: every API follows one rule (the mapping, then the coding keys).
struct BothDeclared: HandyJSON, Codable, Equatable {
    var userId = 0
    var label = "none"
    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case label
    }
    mutating func mapping(mapper: HelpingMapper) { mapper <<< label <-- "title" }
}

@Suite struct ExactnessTests {
    @Test func toJSONKeepsNumbersOfCodableProperties() throws {
        let json = try #require(HoldsWideNumbers().toJSON())
        let wide = try #require(json["wide"] as? [String: Any])
        #expect(wide["big"] as? UInt64 == UInt64.max)
        #expect(wide["two"] as? Double == 2.0)
        #expect(wide["half"] as? Float == 0.5)
        #expect(wide["small"] as? Int8 == -3)
    }

    @Test func bothKindsFollowOneRule() throws {
        // ModelDecoder and ModelEncoder: label's mapped key (it replaces its coding key), userId's coding key.
        let decoded = try ModelDecoder().decode(BothDeclared.self, from: #"{"user_id": 7, "title": "t", "label": "l"}"#)
        #expect(decoded == BothDeclared(userId: 7, label: "t"))
        #expect(
            try ModelEncoder(options: EncodingOptions(sortedKeys: true)).encodeToString(decoded)
                == #"{"title":"t","user_id":7}"#)
        // HandyJSON's calls: the same keys.
        let handy = try #require(BothDeclared.deserialize(from: #"{"userId": 8, "title": "t", "user_id": 9}"#))
        #expect(handy == BothDeclared(userId: 9, label: "t"))
        #expect(handy.toJSONString() == #"{"user_id":9,"title":"t"}"#)
    }

    @Test func diagnosticsInsideAModelInsideCodable() throws {
        struct Outer: Codable { var inner: BothDeclared }
        let log = DiagnosticLog()
        let outer = try ModelDecoder(options: log.options).decode(Outer.self, from: #"{"inner": {"user_id": "x"}}"#)
        #expect(outer.inner.userId == 0)
        #expect(log.all.contains { $0.hasPrefix("$.inner.user_id: ") })
    }

    @Test func errorsSayWhatTheyMean() throws {
        let path = try #require(
            expectError(.invalidPath) {
                _ = try ModelDecoder().decode(Int.self, from: "1", at: "a[")
            })
        #expect(path.localizedDescription == path.description)
        #expect(!path.localizedDescription.contains("operation could not be completed"))
        let json = try #require(throws: JSONDecodingError.self) { try ModelDecoder().decode(Owner.self, from: "{,") }
        #expect(json.localizedDescription == json.description)
        let decoder = try ModelDecoder().incremental(Int.self)
        _ = try decoder.feed(Array("1".utf8))
        _ = try decoder.finish()
        let misuse = try #require(expectError(.misuse) { _ = try decoder.finish() })
        #expect(misuse.localizedDescription == misuse.description)
        let encoding = try #require(throws: JSONEncodingError.self) {
            _ = try ModelEncoder().encode(["x": Double.nan] as [String: Any])
        }
        #expect(encoding.localizedDescription == encoding.description)
    }

    @Test func codableSyntaxErrorsNameTheirPath() throws {
        let error = try #require(throws: DecodingError.self) {
            try ModelDecoder().decode([StreamedPoint].self, from: #"[{"x": 1, "y": 2}, {"x": 1,, "y": 2}]"#)
        }
        let location = try #require(error.context?.underlyingError as? JSONDecodingError)
        #expect(location.path.hasPrefix("$[1]"))
        #expect(location.kind == .malformed)
    }
}

/// Keeps its decoder, to read it after decoding returned.
final class KeepsItsDecoder: Decodable, @unchecked Sendable {
    let decoder: any Decoder
    init(from decoder: any Decoder) throws { self.decoder = decoder }
    func name() throws -> String {
        try decoder.container(keyedBy: AnyCodingKey.self).decode(String.self, forKey: AnyCodingKey(stringValue: "name"))
    }
}

@Suite struct KeptDecoderTests {
    /// The root value's decoder, kept and read later, reads the root value (as with JSONDecoder); so does each
    /// streamed element's. (A value nested in another reads nothing afterwards, with JSONDecoder too.)
    @Test func aKeptDecoderReadsItsOwnValue() throws {
        let one = try ModelDecoder().decode(KeepsItsDecoder.self, from: #"{"name": "x"}"#)
        #expect(try one.name() == "x")
        let again = try ModelDecoder().decode(KeepsItsDecoder.self, from: #"{"name": "y"}"#)
        #expect(try one.name() == "x" && again.name() == "y")
        let json = #"[{"name": "a"}, {"name": "b"}, {"name": "c"}]"#
        var streamed: [KeepsItsDecoder] = []
        let elements = try ModelDecoder().elements(of: KeepsItsDecoder.self, at: "[*]")
        streamed += try elements.feed(Array(json.utf8))
        streamed += try elements.finish()
        #expect(try streamed.map { try $0.name() } == ["a", "b", "c"])
        let nested = try ModelDecoder().decode([KeepsItsDecoder].self, from: json)
        let foundation = try JSONDecoder().decode([KeepsItsDecoder].self, from: Data(json.utf8))
        #expect(nested.map { (try? $0.name()) == nil } == foundation.map { (try? $0.name()) == nil })
    }
}

@Suite struct SendableSequenceTests {
    /// An element sequence over Sendable chunks is itself Sendable: it can be handed to another task (Swift 6).
    @Test func elementSequencesCrossTasks() async throws {
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array(#"[{"x": 1, "y": 2}, {"x": 3, "y": 4}]"#.utf8))
            continuation.finish()
        }
        let elements = ModelDecoder().elements(of: StreamedPoint.self, at: "[*]", from: chunks)
        let xs = try await Task.detached {
            var xs: [Int] = []
            for try await point in elements { xs.append(point.x) }
            return xs
        }.value
        #expect(xs == [1, 3])
    }
}
