import Foundation
import HandyJSON
import Testing

struct MappedCat: HandyJSON, Equatable {
    var id: Int64 = 0
    var name = ""
    var friendName = ""
    var friendAge = 0
    var parent: (String, String) = ("", "")
    var birthday: Date?
    var seen = Date(timeIntervalSince1970: 0)
    var note = "kept"
    var cache: (() -> Void)?
    var helper = NotAModel()

    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.id <-- "cat_id"
        mapper <<< self.name <-- ["nickname", "nickName", "nick_name"]
        mapper <<< [self.friendName <-- "friend.name", self.friendAge <-- "friend.age"]
        mapper <<< self.parent
            <-- TransformOf<(String, String), String>(
                fromJSON: { text in
                    guard let parts = text?.split(separator: "/"), parts.count == 2 else { return nil }
                    return (String(parts[0]), String(parts[1]))
                },
                toJSON: { pair in pair.map { "\($0.0)/\($0.1)" } })
        mapper <<< self.birthday <-- ("born", DateTransform())
        mapper <<< self.seen <-- (["seen_at", "seen"], DateTransform())
        mapper >>> self.note
        mapper.exclude(property: &helper)
    }

    static func == (lhs: MappedCat, rhs: MappedCat) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.friendName == rhs.friendName
            && lhs.friendAge == rhs.friendAge && lhs.parent == rhs.parent && lhs.birthday == rhs.birthday
            && lhs.seen == rhs.seen && lhs.note == rhs.note
    }
}

final class MappedAnimal: HandyJSON {
    var id = 0
    var label = ""
    required init() {}
    func mapping(mapper: HelpingMapper) {
        mapper <<< self.id <-- "animal_id"
    }
}

final class MappedDog: HandyJSON {
    var animal = MappedAnimal()
    var tag = ""
    var code = 0
    var owners: [MappedAnimal] = []
    required init() {}
    func mapping(mapper: HelpingMapper) {
        mapper.specify(property: &tag, name: "dog_tag")
        mapper.specify(property: &code) { Int($0.dropFirst(2), radix: 16) ?? -1 }
        mapper.specify(property: &animal, name: "info")
    }
}

class MappedBase: HandyJSON {
    var baseValue = 0
    required init() {}
    func mapping(mapper: HelpingMapper) {
        mapper <<< self.baseValue <-- "base_value"
    }
}

final class MappedChild: MappedBase {
    var childValue = 0
    required init() { super.init() }
    override func mapping(mapper: HelpingMapper) {
        super.mapping(mapper: mapper)
        mapper <<< self.childValue <-- "child_value"
    }
}

struct Money: HandyJSONCustomTransformable, Equatable {
    var cents: Int
    static func _transform(from object: Any) -> Money? {
        switch object {
        case let text as String: Double(text.dropFirst()).map { Money(cents: Int(($0 * 100).rounded())) }
        case let number as Int: Money(cents: number * 100)
        default: nil
        }
    }
    func _plainValue() -> Any? { "$\(Double(cents) / 100)" }
}

struct Purchase: HandyJSON {
    var price = Money(cents: 0)
    var extras: [Money] = []
    var userId = 0
    var imageURL = ""
    var explicitName = ""
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.explicitName <-- "NAME_AS_IS"
    }
}

struct Transformed: HandyJSON {
    var iso = Date(timeIntervalSince1970: 0)
    var custom = Date(timeIntervalSince1970: 0)
    var url: URL?
    var rawURL: URL?
    var data = Data()
    var kind: Species?
    var amount: NSDecimalNumber?
    var color: HexColor?
    var shortColor: HexColor?
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.iso <-- ISO8601DateTransform()
        mapper <<< self.custom <-- CustomDateFormatTransform(formatString: "yyyy-MM-dd")
        mapper <<< self.url <-- URLTransform()
        mapper <<< self.rawURL <-- URLTransform(shouldEncodeURLString: false)
        mapper <<< self.data <-- DataTransform()
        mapper <<< self.kind <-- EnumTransform<Species>()
        mapper <<< self.amount <-- NSDecimalNumberTransform()
        mapper <<< self.color <-- HexColorTransform()
        mapper <<< self.shortColor <-- HexColorTransform()
    }
}

struct TwiceMapped: HandyJSON {
    var a = 0
    var b = 0
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.a <-- "x"
        mapper <<< self.a <-- "y"
        mapper <<< self.b <-- "y.b"
    }
}

struct SameKey: HandyJSON {
    var first = 0
    var second = 0
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.second <-- "first"
    }
}

@Suite("Custom mapping")
struct MappingTests {
    static let catJSON = """
        {"cat_id": 7, "nick_name": "third", "nickname": "first", "friend": {"age": 4, "name": "Jerry", "x": [1]},
         "parent": "Tom/Tabby", "born": 86400, "seen": "60", "note": "ignored", "cache": 1}
        """

    @Test("Keys, candidate keys, nested key paths, transforms and exclusions on a struct")
    func structMapping() throws {
        let cat = try #require(MappedCat.deserialize(from: Self.catJSON))
        #expect(cat.id == 7)
        #expect(cat.name == "first", "the first candidate present wins, whatever the document's order")
        #expect(cat.friendName == "Jerry")
        #expect(cat.friendAge == 4)
        #expect(cat.parent == ("Tom", "Tabby"))
        #expect(cat.birthday == Date(timeIntervalSince1970: 86400))
        #expect(cat.seen == Date(timeIntervalSince1970: 60))
        #expect(cat.note == "kept")
        let second = try #require(MappedCat.deserialize(from: #"{"nick_name": "third", "nickName": "second"}"#))
        #expect(second.name == "second")
        #expect(try ModelDecoder().decode(MappedCat.self, from: Self.catJSON) == cat)
    }

    @Test("The property's own key no longer applies once it is mapped")
    func ownKeyReplaced() throws {
        let cat = try #require(MappedCat.deserialize(from: #"{"id": 5, "name": "x"}"#))
        #expect(cat.id == 0 && cat.name == "")
    }

    @Test("Mappings in nested models and arrays of models, with a designated path")
    func nested() throws {
        let json = """
            {"data": {"dog": {"dog_tag": "T1", "code": "0x1f", "info": {"animal_id": 3, "label": "L"},
             "owners": [{"animal_id": 1}, {"animal_id": 2, "id": 99}]}}}
            """
        let dog = try #require(MappedDog.deserialize(from: json, designatedPath: "data.dog"))
        #expect(dog.tag == "T1")
        #expect(dog.code == 31)
        #expect(dog.animal.id == 3 && dog.animal.label == "L")
        #expect(dog.owners.map(\.id) == [1, 2])
        let decoded = try ModelDecoder().decode(MappedDog.self, from: json, at: "data.dog")
        #expect(decoded.owners.map(\.id) == [1, 2])
        let cats = try #require([MappedCat].deserialize(from: "[\(Self.catJSON), {\"cat_id\": 8}]"))
        #expect(cats.map { $0?.id } == [7, 8])
    }

    @Test("A subclass's mapping and its superclass's both apply")
    func subclassMapping() throws {
        let child = try #require(MappedChild.deserialize(from: #"{"base_value": 1, "child_value": 2}"#))
        #expect(child.baseValue == 1)
        #expect(child.childValue == 2)
    }

    @Test("HandyJSONCustomTransformable types, as properties and in arrays")
    func customTransformable() throws {
        let purchase = try #require(Purchase.deserialize(from: #"{"price": "$12.5", "extras": [1, "$0.25", true]}"#))
        #expect(purchase.price == Money(cents: 1250))
        #expect(purchase.extras == [Money(cents: 100), Money(cents: 25)])
    }

    @Test("Built-in transforms")
    func builtIns() throws {
        let json = """
            {"iso": "2016-06-01T12:00:00Z", "custom": "2020-02-29", "url": "https://example.com/a b",
             "rawURL": "https://example.com/x?y=1", "data": "aGVsbG8=", "kind": "dog", "amount": "12.345",
             "color": "#FF8000", "shortColor": "0f08"}
            """
        let model = try #require(Transformed.deserialize(from: json))
        #expect(model.iso == Date(timeIntervalSince1970: 1_464_782_400))
        #expect(model.custom == Date(timeIntervalSince1970: 1_582_934_400))
        #expect(model.url?.absoluteString == "https://example.com/a%20b")
        #expect(model.rawURL?.absoluteString == "https://example.com/x?y=1")
        #expect(model.data == Data("hello".utf8))
        #expect(model.kind == .dog)
        #expect(model.amount == NSDecimalNumber(string: "12.345"))
        #expect(model.color == HexColor(red: 1, green: 128.0 / 255, blue: 0))
        #expect(model.shortColor == HexColor(red: 0, green: 1, blue: 0, alpha: 8.0 / 15))
        #expect(HexColorTransform(prefixToJSON: true).transformToJSON(model.color) == "#FF8000")
        #expect(DateTransform().transformToJSON(Date(timeIntervalSince1970: 5)) == 5)
    }

    @Test("Key strategies: snake case, case-insensitive, custom; explicit mappings win")
    func keyStrategies() throws {
        let json = #"{"user_id": 7, "image_url": "u", "NAME_AS_IS": "n", "userId": 1}"#
        let snake = try ModelDecoder(options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase))
            .decode(Purchase.self, from: json)
        #expect(snake.userId == 7)
        #expect(snake.imageURL == "u")
        #expect(snake.explicitName == "n")
        let insensitive = try ModelDecoder(options: DecodingOptions(keyDecodingStrategy: .caseInsensitive))
            .decode(Purchase.self, from: #"{"USERID": 3, "ImageUrl": "i", "name_as_is": "m"}"#)
        #expect(insensitive.userId == 3 && insensitive.imageURL == "i" && insensitive.explicitName == "m")
        let upper = KeyDecodingStrategy.custom { $0.uppercased() }
        let custom = try ModelDecoder(options: DecodingOptions(keyDecodingStrategy: upper))
            .decode(Purchase.self, from: #"{"USERID": 9, "userId": 1}"#)
        #expect(custom.userId == 9)
        let plain = try ModelDecoder().decode(Purchase.self, from: json)
        #expect(plain.userId == 1, "without a strategy, the property's own name")
    }

    /// Set for this test's task only: setting the global value would change the HandyJSON calls of the tests
    /// running at the same time (it made "Built-in transforms" fail now and then).
    @Test("The HandyJSON calls' key strategy is configurable")
    func configuredStrategy() throws {
        HandyJSONConfiguration.withKeyDecodingStrategy(.convertFromSnakeCase) {
            #expect(HandyJSONConfiguration.keyDecodingStrategy == .convertFromSnakeCase)
            #expect(Purchase.deserialize(from: #"{"user_id": 4}"#)?.userId == 4)
        }
        #expect(HandyJSONConfiguration.keyDecodingStrategy == .useDefaultKeys)
        #expect(Purchase.deserialize(from: #"{"user_id": 4}"#)?.userId == 0)
    }

    @Test("Mistakes in a mapping are reported when the table is built, with the model's and property's names")
    func declarationErrors() throws {
        do {
            _ = try ModelDecoder().decode(TwiceMapped.self, from: "{}")
            Issue.record("expected a declaration error")
        } catch let error as JSONDecodingError {
            #expect(
                error.problems == [
                    "TwiceMapped.a: mapped twice in mapping(mapper:); the last mapping is used",
                    "TwiceMapped.b: the key 'y.b' can never match: 'y' is the key of a property, not an object of its own",
                ])
        }
        do {
            _ = try ModelDecoder().decode(SameKey.self, from: "{}")
            Issue.record("expected a declaration error")
        } catch let error as JSONDecodingError {
            #expect(
                error.problems == ["SameKey.second: the key 'first' can never match: 'first' is already read by first"])
        }
        #expect(TwiceMapped.deserialize(from: #"{"y": 2}"#)?.a == 2, "HandyJSON's calls go on")
    }

    @Test("An excluded property may have any type; closures are left alone")
    func excludedAnyType() throws {
        #expect(throws: Never.self) { try ModelDecoder().decode(MappedCat.self, from: "{}") }
    }
}
