import Foundation
import HandyJSON
import Testing

// The README's examples, verbatim, so that they are known to run.

struct ReadmeCat: HandyJSON {
    var id: Int64 = 0
    var name = "unnamed"
    var friends: [String] = []
    var owner: ReadmeOwner?
}

struct ReadmeOwner: HandyJSON {
    var name = ""
}

@Suite("README examples")
struct ReadmeExamplesTests {
    @Test("Quick tour")
    func quickTour() throws {
        let json = #"{"data": {"cat": {"id": "12", "name": "Tom", "friends": ["Jerry"], "owner": {"name": "Ann"}}}}"#

        // HandyJSON's calls: nil when the input is malformed or the path isn't there.
        let cat = ReadmeCat.deserialize(from: json, designatedPath: "data.cat")
        #expect(cat?.id == 12)  // the string "12" fills an Int64
        #expect(cat?.owner?.name == "Ann")

        // The throwing API says what went wrong and where.
        do {
            _ = try ModelDecoder().decode(ReadmeCat.self, from: #"{"id": 1,, "name": "x"}"#)
        } catch let error as JSONDecodingError {
            #expect(error.description == "1:11: expected a string as an object key at $")
        }
    }

    @Test("Arrays and dictionaries")
    func arrays() throws {
        let cats = [ReadmeCat].deserialize(from: #"[{"name": "a"}, 42, {"name": "b"}]"#)
        #expect(cats?.map { $0?.name } == ["a", nil, "b"])

        let fromDictionary = ReadmeCat.deserialize(from: ["name": "Felix", "id": 7])
        #expect(fromDictionary?.id == 7)
    }

    @Test("Options")
    func options() throws {
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        #expect(throws: JSONDecodingError.self) {
            try strict.decode(ReadmeCat.self, from: #"{"id": "twelve"}"#)
        }
    }
}

extension ReadmeExamplesTests {
    @Test("Codable: defaults from init() and JSONValue literals")
    func codableDefaultsAndJSONValue() throws {
        struct Profile: Codable, EmptyInitializable { var name = "anon"; var age = 18 }
        // Profile(name: "anon", age: 18)
        let profile = try ModelDecoder().decode(Profile.self, from: #"{"age": "old"}"#)
        #expect(profile.name == "anon" && profile.age == 18)

        let v: JSONValue = ["n": 1, "tags": ["a"]]
        #expect(v.description == #"{"n":1,"tags":["a"]}"#)
    }
}
