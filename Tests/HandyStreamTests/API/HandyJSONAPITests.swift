import Foundation
import HandyJSON
import Testing

@Suite("HandyJSON-compatible calls")
struct HandyJSONAPITests {
    static let catJSON =
        #"{"code": 200, "data": {"cat": {"name": "Tom", "age": "3"}, "list": [{"name": "a"}, {"name": "b"}]}}"#

    @Test("deserialize(from:designatedPath:) for JSON text")
    func deserializeText() throws {
        #expect(Owner.deserialize(from: #"{"name": "Ann", "age": 3}"#) == Owner(name: "Ann", age: 3))
        #expect(Owner.deserialize(from: Self.catJSON, designatedPath: "data.cat") == Owner(name: "Tom", age: 3))
        #expect(
            Owner.deserialize(from: Self.catJSON, designatedPath: "..data..cat.")?.name == "Tom",
            "empty segments are ignored")
    }

    @Test("nil for nil input, malformed JSON, a missing path, or a value of the wrong shape")
    func nilCases() {
        #expect(Owner.deserialize(from: nil as String?) == nil)
        #expect(Owner.deserialize(from: #"{"name": "Ann""#) == nil)
        #expect(Owner.deserialize(from: #"{"name": "Ann"} x"#) == nil)
        #expect(Owner.deserialize(from: "") == nil)
        #expect(Owner.deserialize(from: Self.catJSON, designatedPath: "data.dog") == nil)
        #expect(Owner.deserialize(from: Self.catJSON, designatedPath: "code") == nil)
        #expect(Owner.deserialize(from: "[1, 2]") == nil)
        #expect(Owner.deserialize(from: "null") == nil)
        #expect(Owner.deserialize(from: Self.catJSON, designatedPath: "data[0]") == nil)
    }

    @Test("[T].deserialize: elements that are not objects become nil")
    func arrays() throws {
        let list = try #require([Owner].deserialize(from: Self.catJSON, designatedPath: "data.list"))
        #expect(list == [Owner(name: "a", age: 0), Owner(name: "b", age: 0)])
        #expect(
            [Owner].deserialize(from: #"[{"age": 1}, 2, null, {"age": "4"}]"#) == [
                Owner(name: "", age: 1), nil, nil, Owner(name: "", age: 4),
            ])
        #expect([Owner].deserialize(from: #"{"not": "an array"}"#) == nil)
        #expect([Owner].deserialize(from: Self.catJSON, designatedPath: "data.list[*]")?.count == 2)
    }

    @Test("Mapping from dictionaries goes through the same rules")
    func dictionaries() throws {
        let dict: [String: Any] = ["name": "Dee", "age": "41", "extra": [1, 2]]
        #expect(Owner.deserialize(from: dict) == Owner(name: "Dee", age: 41))
        let nested: [String: Any] = ["data": ["cat": ["name": "Tom", "age": 3.0]]]
        #expect(Owner.deserialize(from: nested, designatedPath: "data.cat") == Owner(name: "Tom", age: 3))
        #expect(Owner.deserialize(from: nested, designatedPath: "data.dog") == nil)
        let fromSerialization = try JSONSerialization.jsonObject(with: Data(Self.catJSON.utf8)) as? [String: Any]
        #expect(Owner.deserialize(from: fromSerialization, designatedPath: "data.cat") == Owner(name: "Tom", age: 3))
        #expect(
            [Owner].deserialize(from: [["name": "x"], 3, ["age": 2]] as [Any]) == [
                Owner(name: "x", age: 0), nil, Owner(name: "", age: 2),
            ])
        let containers = try #require(
            Containers.deserialize(
                from: [
                    "ints": [1, "2", 3.5] as [Any], "species": "dog", "byName": ["a": 1],
                    "optionalInts": [NSNull(), 1],
                ] as [String: Any]))
        #expect(containers.ints == [1, 2])
        #expect(containers.species == .dog)
        #expect(containers.byName == ["a": 1])
        #expect(containers.optionalInts == [nil, 1])
    }

    @Test("JSONDeserializer's class-based calls")
    func jsonDeserializer() throws {
        #expect(JSONDeserializer<Owner>.deserializeFrom(json: Self.catJSON, designatedPath: "data.cat")?.name == "Tom")
        #expect(JSONDeserializer<Owner>.deserializeFrom(dict: ["age": 9])?.age == 9)
        #expect(
            JSONDeserializer<Owner>.deserializeModelArrayFrom(json: Self.catJSON, designatedPath: "data.list")?
                .count == 2)
        #expect(JSONDeserializer<Owner>.deserializeModelArrayFrom(array: [["age": 1]])?.first??.age == 1)
    }

    @Test("update(object:from:) keeps what the input doesn't mention")
    func update() throws {
        var owner = Owner(name: "Keep", age: 1)
        JSONDeserializer<Owner>.update(object: &owner, from: #"{"age": 2}"#)
        #expect(owner == Owner(name: "Keep", age: 2))
        JSONDeserializer<Owner>.update(object: &owner, from: ["name": "New"])
        #expect(owner == Owner(name: "New", age: 2))
        JSONDeserializer<Owner>.update(object: &owner, from: Self.catJSON, designatedPath: "data.cat")
        #expect(owner == Owner(name: "Tom", age: 3))
        JSONDeserializer<Owner>.update(object: &owner, from: "not json")
        #expect(owner == Owner(name: "Tom", age: 3))
        let shelter = Shelter()
        shelter.name = "Same"
        var reference = shelter
        JSONDeserializer<Shelter>.update(object: &reference, from: #"{"owners": [{"age": 5}]}"#)
        #expect(reference === shelter, "a class instance is updated in place")
        #expect(shelter.name == "Same" && shelter.owners.map(\.age) == [5])
    }

    @Test("willStartMapping and didFinishMapping are called around each model")
    func hooks() throws {
        let model = try #require(Hooked.deserialize(from: #"{"value": 2, "children": [{"value": 3}]}"#))
        #expect(model.log == ["start", "finish:2"])
        #expect(model.children.map(\.log) == [["start", "finish:3"]])
    }
}

struct Hooked: HandyJSON {
    var value = 0
    var log: [String] = []
    var children: [Hooked] = []
    mutating func willStartMapping() { log.append("start") }
    mutating func didFinishMapping() { log.append("finish:\(value)") }
}
