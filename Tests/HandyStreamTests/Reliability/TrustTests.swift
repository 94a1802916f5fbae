import Foundation
@testable import HandyStream
import HandyJSON
import Testing

@Suite("Caps, paths and error positions")
struct TrustTests {
    @Test("maximumDepth: .max is honoured without overflow; the stack grows with the nesting met")
    func unboundedDepth() throws {
        let options = DecodingOptions(maximumDepth: .max)
        // The value is freed on a thread with room: the Swift runtime frees nested arrays recursively.
        let level = onLargeStack { () -> Int in
            let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
            guard let value = try? ModelDecoder(options: options).decode(JSONValue.self, from: deep) else { return -1 }
            var level = 0
            var current = value
            while case .array(let elements) = current, let first = elements.first {
                level += 1
                current = first
            }
            return level
        }
        #expect(level == 4_999)
        #expect(try ModelDecoder(options: options).decode(Everything.self, from: #"{"list": [1, 2]}"#).list == [1, 2])
        #expect(try ModelDecoder(options: DecodingOptions(maximumDepth: 0)).decode(Int.self, from: "7") == 7)
    }

    @Test("The depth cap holds for path and value together")
    func capAcrossStages() throws {
        let options = DecodingOptions(maximumDepth: 10)
        let path = Array(repeating: "a", count: 6).joined(separator: ".")
        func document(valueDepth: Int) -> String {
            String(repeating: #"{"a":"#, count: 6) + String(repeating: "[", count: valueDepth)
                + String(repeating: "]", count: valueDepth) + String(repeating: "}", count: 6)
        }
        #expect(
            try ModelDecoder(options: options).decode(JSONValue.self, from: document(valueDepth: 4), at: path)
                != .null)
        let error = decodingError(JSONValue.self, document(valueDepth: 5), at: path, options: options)
        #expect(error?.kind == .tooDeep)
        #expect(error?.message == "nesting deeper than 10 levels")
        let elements = try ModelDecoder(options: options).elements(of: JSONValue.self, at: path)
        #expect(throws: DecodingError.self) { _ = try elements.feed(Array(document(valueDepth: 5).utf8)) }
    }

    @Test("A path with several [*] is honoured, never read as another path")
    func wildcardPaths() throws {
        let json = #"{"a": [[1, 2], [3]], "b": 0}"#
        #expect(try ModelDecoder().decode([Int].self, from: json, at: "a[*][*]") == [1, 2, 3])
        #expect(try ModelDecoder().decode([[Int]].self, from: json, at: "a[*]") == [[1, 2], [3]])
        #expect(try ModelDecoder().decode([Int].self, from: json, at: "a[*][*][*]") == [])
        #expect(try ModelDecoder().decode([Int].self, from: #"{"a": [1, 2]}"#, at: "a[*]") == [1, 2])
    }

    @Test("A dictionary value that doesn't fit is reported at its own key")
    func dictionaryErrorKey() throws {
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        let error = decodingError([String: Int].self, #"{"a":1,"b":"x"}"#, options: strict.options)
        #expect(error?.path == "$.b")
        let shape = decodingError([String: Int].self, #"{"a":1,"b":[1]}"#, options: strict.options)
        #expect(shape?.path == "$.b")
    }
}

/// Collects the diagnostics of one decoding.
final class DiagnosticLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    var all: [String] { lock.withLock { entries } }
    var options: DecodingOptions {
        DecodingOptions(diagnostics: { [self] diagnostic in lock.withLock { entries.append(diagnostic.description) } })
    }
}

enum Species2: String, HandyJSONEnum { case cat, dog }

struct OptionalElements: HandyJSON {
    var ints: [Int?] = []
    var map: [String: Int?] = [:]
    var owners: [Owner?] = []
    var kinds: [Species2?] = []
}

extension TrustTests {
    @Test("Elements of [T?] and [String: T?] that don't fit: nil, reported to diagnostics, an error in strict mode")
    func optionalElementsReported() throws {
        let json = #"{"ints":[1,"x",3e20],"map":{"a":"y","b":2},"owners":[{"name":"A"},7],"kinds":["cat","cow"]}"#
        let log = DiagnosticLog()
        let model = try ModelDecoder(options: log.options).decode(OptionalElements.self, from: json)
        #expect(model.ints == [1, nil, nil])
        #expect(model.map == ["a": Int?.none, "b": Int?.some(2)])
        #expect(model.owners.count == 2 && model.owners[1] == nil)
        #expect(model.kinds == [.cat, nil])
        #expect(
            log.all == [
                "$.ints[1]: expected an integer that fits Int, found a string; the element became nil",
                "$.ints[2]: expected an integer that fits Int, found the number 3e20; the element became nil",
                "$.map.a: expected an integer that fits Int, found a string; the value became nil",
                "$.owners[1]: expected an object, found the number 7; the element became nil",
                "$.kinds[1]: expected a raw value of Species2, found a string; the element became nil",
            ])
        let strict = DecodingOptions(strict: true)
        #expect(decodingError(OptionalElements.self, #"{"ints":[1,"x",3e20]}"#, options: strict)?.path == "$.ints[1]")
        // The error says what was found: the element did not become nil, the decode stopped.
        #expect(
            decodingError(OptionalElements.self, #"{"ints":[1,"x",3e20]}"#, options: strict)?.description
                == "1:15: expected an integer that fits Int, found a string at $.ints[1]")
        #expect(decodingError([String: Int?].self, #"{"a":"y"}"#, options: strict)?.path == "$.a")
        #expect(decodingError([Owner?].self, "[7]", options: strict)?.kind == .typeMismatch)
    }

    @Test("A root T? that doesn't fit is nil and reported; strict mode throws")
    func optionalRoot() throws {
        let log = DiagnosticLog()
        #expect(try ModelDecoder(options: log.options).decode(Int?.self, from: #""x""#) == nil)
        #expect(try ModelDecoder(options: log.options).decode(Owner?.self, from: "[1]") == nil)
        // `Int?` is `Decodable` (JSONDecoder's messages); `Owner?` is a model's (the field tables' messages).
        #expect(
            log.all == [
                "$: Expected to decode Int but found a string instead; the value became nil",
                "$: expected an object, found an array; the value became nil",
            ])
        #expect(decodingError(Int?.self, #""x""#, options: DecodingOptions(strict: true))?.kind == .typeMismatch)
        #expect(try ModelDecoder().decode(Int?.self, from: "null") == nil)
        #expect(try ModelDecoder().decode(Int?.self, from: "5") == 5)
    }
}

struct Bridged: HandyJSON, Equatable {
    var count = 0
    var text = ""
    var flagText = ""
    var flag = false
    var ratio = 0.0
    var big: UInt64 = 0
}

struct Converted: HandyJSON {
    var big = ""
    var price = ""
    var flag = ""
    var list = ""
    mutating func mapping(mapper: HelpingMapper) {
        mapper.specify(property: &big) { $0 }
        mapper.specify(property: &price) { "<\($0)>" }
        mapper.specify(property: &flag) { $0 }
        mapper.specify(property: &list) { $0 }
    }
}

class Pet: HandyJSON {
    var name = ""
    required init() {}
}

final class Hound: Pet {
    var breed = ""
    required init() { super.init() }
}

struct Kennel: HandyJSON {
    var animal: Pet = Hound()
    var animals: [Pet] = []
}

final class Profile: HandyJSON {
    var name = "before"
    var age = 1
    var tags: [String] = ["old"]
    required init() {}
}

extension TrustTests {
    @Test("A dictionary from JSONSerialization gives the same model as the text it was read from")
    func foundationBridging() throws {
        let json =
            #"{"count": 123, "text": 123, "flagText": true, "flag": true, "ratio": 1.5, "big": 18446744073709551615}"#
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let fromText = try #require(Bridged.deserialize(from: json))
        let fromObject = try #require(Bridged.deserialize(from: object))
        #expect(fromText == fromObject)
        #expect(fromObject.text == "123")
        #expect(fromObject.flagText == "true")
        #expect(fromObject.flag)
        #expect(fromObject.big == .max)
        let list = try #require([Bridged].deserialize(from: [object, ["count": NSNumber(value: 7)]]))
        #expect(list.map { $0?.count } == [123, 7])
    }

    @Test("A specify converter gets the document's text")
    func converterText() throws {
        let model = try ModelDecoder().decode(
            Converted.self, from: #"{"big": 12345678901234567890, "price": 1.50, "flag": true, "list": [1, {"a": 2}]}"#)
        #expect(model.big == "12345678901234567890")
        #expect(model.price == "<1.50>")
        #expect(model.flag == "true")
        #expect(model.list == #"[1,{"a":2}]"#)
        #expect(try ModelDecoder().decode(Converted.self, from: #"{"price": "x"}"#).price == "<x>")
        #expect(try ModelDecoder().decode(Converted.self, from: #"{"price": null}"#).price == "")
    }

    @Test("Numbers with huge exponents or 100 KB of digits are read exactly")
    func hugeExponents() throws {
        let zeros = String(repeating: "0", count: 100_000)
        #expect(try ModelDecoder().decode(Double.self, from: "0.\(zeros)1e100005") == 1e4)
        #expect(try ModelDecoder().decode(Double.self, from: "1\(zeros)e-100000") == 1)
        #expect(try ModelDecoder().decode(Int.self, from: "1\(zeros)e-99998") == 100)
        #expect(try ModelDecoder().decode(Double.self, from: "1e-99999999999999999999999") == 0)
        #expect(decodingError(Double.self, "1e99999999999999999999999")?.kind == .typeMismatch)
        #expect(try ModelDecoder().decode(Double.self, from: "-0.\(zeros)") == 0)
    }

    @Test("A number beyond Double's range in Any says exactly why it doesn't fit")
    func outOfRangeInAny() throws {
        let error = decodingError(Any.self, "1e400")
        #expect(
            error?.description
                == "1:6: expected a JSON value (numbers within Double's range), found the number 1e400 at $")
        let log = DiagnosticLog()
        let list = try ModelDecoder(options: log.options).decode([Any].self, from: "[1, 1e400, 2]")
        #expect(list.count == 2)
        #expect(
            log.all == [
                "$[1]: expected a JSON value (numbers within Double's range), found the number 1e400; "
                    + "the element was dropped"
            ])
    }

    @Test("update(object:from:) on a class is all or nothing")
    func updateAllOrNothing() throws {
        var profile = Profile()
        let original = profile
        for bad in [
            #"{"name": "after", "age": 2, "tags": ["new"],"#, #"{"name": "after", "age": 2} x"#,
            #"{"name": "after", "age": [[[[1]]]], "tags": [1 2]}"#,
        ] {
            JSONDeserializer<Profile>.update(object: &profile, from: bad)
            #expect(profile === original)
            #expect(profile.name == "before" && profile.age == 1 && profile.tags == ["old"], "\(bad)")
        }
        var deep: Any = 1
        for _ in 0..<600 { deep = [deep] }
        JSONDeserializer<Profile>.update(object: &profile, from: ["name": "after", "tags": deep])
        #expect(profile.name == "before")
        JSONDeserializer<Profile>.update(object: &profile, from: #"{"name": "after"}"#)
        #expect(profile.name == "after" && profile.age == 1)
    }

    @Test("Encoding writes the dynamic type's properties")
    func dynamicTypeEncoding() throws {
        let dog = Hound()
        dog.name = "Rex"
        dog.breed = "collie"
        let kennel = Kennel(animal: dog, animals: [dog, Pet()])
        #expect(
            kennel.toJSONString()
                == #"{"animal":{"name":"Rex","breed":"collie"},"animals":[{"name":"Rex","breed":"collie"},{"name":""}]}"#
        )
        let animal: Pet = dog
        #expect(animal.toJSONString() == #"{"name":"Rex","breed":"collie"}"#)
        #expect(try ModelEncoder().encodeToString([animal]) == #"[{"name":"Rex","breed":"collie"}]"#)
    }
}
