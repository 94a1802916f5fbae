import Foundation
@testable import HandyStream
import HandyJSON
import Testing

struct NSContainers: HandyJSON {
    var array: NSArray?
    var mutableArray = NSMutableArray()
    var dictionary: NSDictionary?
    var mutableDictionary: NSMutableDictionary?
    var text: NSString = ""
    var number: NSNumber = 0
}

struct Refuge: HandyJSON {
    var name = ""
    var resident: Owner?
    var residents: [Owner] = []
    var keyed: [String: Owner] = [:]
}

struct CaseKeys: HandyJSON {
    var userName = ""
}

@Suite("HandyJSON behaviour", .serialized)
struct HandyJSONCompatibilityTests {
    @Test("NSArray, NSMutableArray, NSDictionary and NSMutableDictionary properties decode and encode")
    func foundationContainers() throws {
        let json =
            #"{"array": [1, "a", [true]], "mutableArray": [{"k": 2}], "dictionary": {"x": 1.5, "y": null}, "#
            + #""mutableDictionary": {"z": [1]}, "text": "t", "number": 12}"#
        let model = try #require(NSContainers.deserialize(from: json))
        #expect(model.array?.count == 3)
        #expect(model.array?[0] as? Int == 1)
        #expect(model.array?[1] as? String == "a")
        #expect(model.mutableArray.count == 1)
        model.mutableArray.add(3)
        #expect(model.mutableArray.count == 2)
        #expect(model.dictionary?["x"] as? Double == 1.5)
        #expect(model.dictionary?["y"] is NSNull)
        #expect(model.mutableDictionary?["z"] is [Any])
        #expect(model.text == "t")
        #expect(model.number == 12)
        let back = try #require(NSContainers.deserialize(from: model.toJSONString()))
        #expect(back.array?.count == 3)
        #expect(back.mutableArray.count == 2)
        #expect(back.dictionary?["x"] as? Double == 1.5)
        // The wrong shape keeps the default.
        #expect(NSContainers.deserialize(from: #"{"array": {"a": 1}}"#)?.array == nil)
    }

    @Test("NSDictionary and NSArray inputs, and HandyJSONConfiguration.deserializeOptions")
    func foundationInputs() throws {
        let dict: NSDictionary = ["name": "Ann", "age": 3, "pets": ["a", "b"]]
        #expect(Owner.deserialize(from: dict)?.name == "Ann")
        #expect(JSONDeserializer<Owner>.deserializeFrom(dict: dict)?.age == 3)
        let nested: NSDictionary = ["data": ["name": "Bo"] as NSDictionary]
        #expect(Owner.deserialize(from: nested, designatedPath: "data")?.name == "Bo")
        let array: NSArray = [["name": "a"] as NSDictionary, ["name": "b"]]
        #expect([Owner].deserialize(from: array)?.map { $0?.name } == ["a", "b"])
        #expect(Owner.deserialize(from: nil as NSDictionary?) == nil)

        #expect(CaseKeys.deserialize(from: #"{"USERNAME": "x"}"#)?.userName == "")
        // For this test's task only: the global value would change other tests' HandyJSON calls running meanwhile.
        HandyJSONConfiguration.withDeserializeOptions(.caseInsensitive) {
            #expect(CaseKeys.deserialize(from: #"{"USERNAME": "x"}"#)?.userName == "x")
        }
    }

    @Test("A value of another kind inside a [String: Any] reads as its JSON does, without text in between")
    func valuesOfAnotherKind() throws {
        struct Visitor: Encodable {
            var name = "Ann/B"
            var age = 40
            var score = 2.0
            var when = Date(timeIntervalSinceReferenceDate: 12.5)
            var tags = ["a", "b"]
            var nickname: String? = nil
            var ratio = 0.5
        }
        struct Seen: HandyJSON, Equatable {
            var name = ""
            var age = 0
            var score = 0.0
            var when = 0.0
            var tags: [String] = []
            var nickname: String? = "none"
            var ratio: Double? = 1
        }
        struct Visit: HandyJSON, Equatable {
            var visitor: Seen?
            var visitors: [Seen] = []
            var keyed: [String: Seen] = [:]
            var label = "unset"
        }
        let visitor = Visitor()
        let object: [String: Any] = ["visitor": visitor, "visitors": [visitor, visitor], "keyed": ["k": visitor]]
        let json = String(decoding: try ModelEncoder().encode(visitor), as: UTF8.self)
        let text = #"{"visitor": \#(json), "visitors": [\#(json), \#(json)], "keyed": {"k": \#(json)}}"#
        let fromText = try #require(Visit.deserialize(from: text))
        #expect(
            fromText.visitor
                == Seen(name: "Ann/B", age: 40, score: 2, when: 12.5, tags: ["a", "b"], nickname: "none", ratio: 0.5))
        #expect(Visit.deserialize(from: object) == fromText)
        // An object where a string is wanted doesn't fit, as in text; a value that can't be written as JSON (NaN)
        // is null.
        #expect(Visit.deserialize(from: ["label": visitor])?.label == "unset")
        #expect(Visit.deserialize(from: ["visitor": Visitor(ratio: .nan)]) == Visit())
    }

    @Test("A model instance inside a [String: Any] is taken as it is, in arrays and dictionaries too")
    func readyModels() throws {
        var ann = Owner()
        ann.name = "Ann"
        ann.age = 40
        let input: [String: Any] = ["name": "home", "resident": ann, "residents": [ann, ann], "keyed": ["a": ann]]
        let shelter = try #require(Refuge.deserialize(from: input))
        #expect(shelter.resident?.name == "Ann")
        #expect(shelter.residents.map(\.age) == [40, 40])
        #expect(shelter.keyed["a"]?.name == "Ann")
        // An [Any] of models, and a model where another type is wanted: its JSON is read instead.
        let mixed: [String: Any] = ["residents": [ann] as [Any], "name": ann]
        let other = try #require(Refuge.deserialize(from: mixed))
        #expect(other.residents.first?.name == "Ann")
        #expect(other.name == "")
        #expect(Owner.deserialize(from: ["name": ann]) != nil)
    }
}
