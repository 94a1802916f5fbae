import Foundation
import HandyJSON
@testable import HandyStream
import Synchronization
import Testing

// Every ```swift block of the README, verbatim (indented), each followed by checks of what it says it gives.
// `.ci/check-readme.sh` fails when a block's lines no longer appear here in order, so edit both together.

@Suite("README examples")
struct ReadmeExamplesTests {
    // MARK: - Models (the README's declarations, used by the later sections too)

    struct Owner: HandyJSON {
        var name = ""
    }

    struct Cat: HandyJSON {
        var id: Int64 = 0
        var name = "unnamed"
        var friends: [String] = []
        var owner: Owner?
    }

    // MARK: - Install

    /// The manifest lines name products and traits that Package.swift declares.
    @Test("Install: the products and traits exist")
    func install() throws {
        let manifestLines = """
            .package(path: "../HandyStream"),
            // or, with integrations (each is a trait, off by default):
            .package(path: "../HandyStream", traits: ["HTTP", "Vapor", "Hummingbird"]),
            // in a target's dependencies, one or more of:
            .product(name: "HandyStream", package: "HandyStream"),
            .product(name: "HandyJSON", package: "HandyStream"),
            .product(name: "HandyStreamHTTP", package: "HandyStream"),
            .product(name: "HandyStreamVapor", package: "HandyStream"),
            .product(name: "HandyStreamHummingbird", package: "HandyStream"),
            """
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // The quoted strings of a line: every second piece between quotes.
        func quoted(_ line: Substring) -> [String] {
            line.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        var products: [String] = []
        var traits: [String] = []
        for line in manifestLines.split(separator: "\n") {
            if line.hasPrefix(".product(") { products.append(quoted(line)[0]) }
            if line.contains("traits: [") { traits += quoted(line).dropFirst() }
        }
        #expect(
            products == ["HandyStream", "HandyJSON", "HandyStreamHTTP", "HandyStreamVapor", "HandyStreamHummingbird"])
        #expect(traits == ["HTTP", "Vapor", "Hummingbird"])
        for product in products {
            #expect(manifest.contains(".library(name: \"\(product)\""), "no library product \(product)")
        }
        for trait in traits {
            #expect(manifest.contains("name: \"\(trait)\","), "no trait \(trait)")
        }
    }

    // MARK: - Models

    @Test("Models: HandyJSON's calls and ModelDecoder")
    func models() throws {
        let json = #"{"data": {"cat": {"id": "12", "name": "Tom", "friends": ["Jerry"], "owner": {"name": "Ann"}}}}"#

        // HandyJSON's calls (import HandyJSON): nil when the input is malformed or the path isn't there.
        let cat = Cat.deserialize(from: json, designatedPath: "data.cat")  // id 12: the string "12" fills an Int64
        let cats = [Cat].deserialize(from: #"[{"name": "a"}, 42, {"name": "b"}]"#)  // [a, nil, b]
        let felix = Cat.deserialize(from: ["name": "Felix", "id": 7])  // from a [String: Any]

        // ModelDecoder (import HandyStream) throws, saying what went wrong and where: models, Codable types, Any.
        let tom = try ModelDecoder().decode(Cat.self, from: json, at: "data.cat")
        let ownerName = try ModelDecoder().decode(String.self, from: json, at: "data.cat.owner.name")  // "Ann"
        let strict = ModelDecoder(options: DecodingOptions(strict: true))  // a value that doesn't fit throws

        #expect(cat?.id == 12)
        #expect(cat?.name == "Tom" && cat?.friends == ["Jerry"] && cat?.owner?.name == "Ann")
        #expect(cats?.map { $0?.name } == ["a", nil, "b"])
        #expect(felix?.id == 7 && felix?.name == "Felix")
        #expect(tom.id == 12 && tom.owner?.name == "Ann")
        #expect(ownerName == "Ann")
        #expect(Cat.deserialize(from: #"{"id": 1,, "name": "x"}"#) == nil)
        #expect(Cat.deserialize(from: json, designatedPath: "data.dog") == nil)
        let lenient = try ModelDecoder().decode(Cat.self, from: #"{"id": "twelve"}"#)
        #expect(lenient.id == 0 && lenient.name == "unnamed", "the defaults are kept")
        let error = #expect(throws: JSONDecodingError.self) {
            try strict.decode(Cat.self, from: #"{"id": "twelve"}"#)
        }
        #expect(error?.kind == .typeMismatch)
        #expect(error?.path == "$.id")
    }

    // MARK: - Key mapping, transforms and exclusion

    @Test("Key mapping, transforms and exclusion")
    func mapping() throws {
        struct Cache { var hits = 0 }  // a type of your own that can't be decoded

        struct Pet: HandyJSON {
            var id: Int64 = 0
            var name = ""
            var friendName = ""
            var birthday: Date?
            var tags: [String] = []
            var cache = Cache()

            mutating func mapping(mapper: HelpingMapper) {
                mapper <<< self.id <-- "cat_id"  // another key
                mapper <<< self.name <-- ["nickname", "nick_name"]  // the first of these the object has wins
                mapper <<< self.friendName <-- "friend.name"  // a path into a nested object (\. for a literal dot)
                mapper <<< self.birthday <-- ("born", DateTransform())  // a key and a transform
                mapper <<< self.tags
                    <-- TransformOf<[String], String>(
                        fromJSON: { text in text?.split(separator: ",").map(String.init) },
                        toJSON: { tags in tags?.joined(separator: ",") })
                mapper >>> self.cache  // neither read nor written
            }
        }

        let json = #"{"cat_id": 7, "nick_name": "Tom", "friend": {"name": "Jerry"}, "born": 86400, "tags": "a,b"}"#
        let pet = Pet.deserialize(from: json)  // id 7, name "Tom", friendName "Jerry", tags ["a", "b"]
        let back = pet?.toJSONString()  // written under the same keys; "friend.name" as a nested object

        #expect(pet?.id == 7)
        #expect(pet?.name == "Tom")
        #expect(pet?.friendName == "Jerry")
        #expect(pet?.birthday == Date(timeIntervalSince1970: 86400))
        #expect(pet?.tags == ["a", "b"])
        #expect(pet?.cache.hits == 0)
        let text = try #require(back)
        let written = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(written.keys) == ["cat_id", "nickname", "friend", "born", "tags"])
        #expect((written["friend"] as? [String: Any])?["name"] as? String == "Jerry")
        #expect(written["tags"] as? String == "a,b")
        // ModelDecoder reads it too (the excluded property is not a declaration error), and reads `back` again.
        let decoded = try ModelDecoder().decode(Pet.self, from: text)
        #expect(decoded.id == 7 && decoded.name == "Tom" && decoded.friendName == "Jerry")
        #expect(decoded.birthday == pet?.birthday && decoded.tags == ["a", "b"])
    }

    // MARK: - Serialization

    @Test("Serialization: toJSON and ModelEncoder")
    func serialization() throws {
        let tom = Cat(id: 1, name: "Tom", friends: ["Jerry"])
        let felix = Cat(id: 2, name: "Felix")

        let text = tom.toJSONString()  // {"id":1,"name":"Tom","friends":["Jerry"]}: nil is left out
        let pretty = tom.toJSONString(prettyPrint: true)  // two-space indentation
        let object = tom.toJSON()  // [String: Any]; each number in its property's type ("id" is an Int64)
        let array = [tom, felix].toJSONString()  // a JSON array

        let encoder = ModelEncoder(options: EncodingOptions(sortedKeys: true, nilEncoding: .null))
        let sorted = try encoder.encodeToString(tom)  // {"friends":["Jerry"],"id":1,"name":"Tom","owner":null}

        #expect(text == #"{"id":1,"name":"Tom","friends":["Jerry"]}"#)
        #expect(pretty?.hasPrefix("{\n  \"id\": 1,\n  \"name\": \"Tom\",\n") == true)
        #expect(object?["id"] as? Int64 == 1)
        #expect(object?["friends"] as? [String] == ["Jerry"])
        #expect(array == #"[{"id":1,"name":"Tom","friends":["Jerry"]},{"id":2,"name":"Felix","friends":[]}]"#)
        #expect(sorted == #"{"friends":["Jerry"],"id":1,"name":"Tom","owner":null}"#)
    }

    // MARK: - Codable

    @Test("Codable: lenient by default, strict as JSONDecoder")
    func codable() throws {
        enum Mood: String, Codable, EmptyInitializable {
            case happy, sad, unknown
            init() { self = .unknown }  // lenient mode's default for a Mood
        }

        struct Post: Codable {
            var title: String
            var likes: Int
            var mood: Mood
        }

        let json = #"{"likes": "12", "mood": "angry"}"#
        let post = try ModelDecoder().decode(Post.self, from: json)
        // title "" (made from nothing), likes 12 (converted), mood .unknown (Mood's init())
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        let refused = try? strict.decode(Post.self, from: json)  // nil: it throws, as JSONDecoder does

        #expect(post.title == "")
        #expect(post.likes == 12)
        #expect(post.mood == .unknown)
        #expect(refused == nil)
        #expect((try? JSONDecoder().decode(Post.self, from: Data(json.utf8))) == nil)
        #expect(throws: DecodingError.self) { try strict.decode(Post.self, from: json) }
        // Where JSONDecoder decodes, both modes give its value.
        let valid = #"{"title": "t", "likes": 3, "mood": "sad"}"#
        let foundation = try JSONDecoder().decode(Post.self, from: Data(valid.utf8))
        for decoder in [ModelDecoder(), strict] {
            let value = try decoder.decode(Post.self, from: valid)
            #expect(value.title == foundation.title && value.likes == foundation.likes && value.mood == foundation.mood)
        }
    }

    @Test("Codable: one key rule for a type that is both HandyJSON and Codable")
    func codableMapping() throws {
        struct User: HandyJSON, Codable {
            var name = ""
            var userId = 0
            var born: Date?
            var session = ""
            enum CodingKeys: String, CodingKey { case name, userId = "user_id", born, session }

            mutating func mapping(mapper: HelpingMapper) {
                mapper <<< name <-- ["full_name", "profile.name"]  // wins over CodingKeys; written as "full_name"
                mapper <<< born <-- ("born_at", DateTransform())  // seconds since 1970, both ways
                mapper >>> session  // never read nor written
            }
            mutating func didFinishMapping() { name = name.capitalized }
        }

        let json = #"{"full_name": "ann", "user_id": 7, "born_at": 0, "session": "s"}"#
        let viaCodable = try ModelDecoder().decode(User.self, from: json)  // its own init(from:)
        let viaHandyJSON = User.deserialize(from: json)  // its field table: the same User, named "Ann"
        let written = try ModelEncoder().encodeToString(viaCodable)  // keys full_name, user_id and born_at

        for user in [viaCodable, try #require(viaHandyJSON)] {
            #expect(user.name == "Ann", "didFinishMapping ran")
            #expect(user.userId == 7)
            #expect(user.born == Date(timeIntervalSince1970: 0))
            #expect(user.session == "")
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["full_name", "user_id", "born_at"])
        #expect(Set((viaHandyJSON?.toJSON() ?? [:]).keys) == ["full_name", "user_id", "born_at"])
        // The second candidate key, a path into a nested object, on both routes.
        let nested = #"{"profile": {"name": "bo"}, "user_id": 1}"#
        #expect(try ModelDecoder().decode(User.self, from: nested).name == "Bo")
        #expect(User.deserialize(from: nested)?.name == "Bo")
    }

    // MARK: - Designated paths

    @Test("Designated paths, with and without wildcards")
    func designatedPaths() throws {
        let json = #"{"statuses": [{"user": {"name": "a"}}, {"user": {"name": "b"}}], "meta": {"count": 2}}"#
        let names = try ModelDecoder().decode([String].self, from: json, at: "statuses[*].user.name")  // ["a", "b"]
        let second = try ModelDecoder().decode(Owner.self, from: json, at: "statuses[1].user")  // name "b"
        let count = try ModelDecoder().decode(Int.self, from: json, at: "meta.count")  // 2

        #expect(names == ["a", "b"])
        #expect(second.name == "b")
        #expect(count == 2)
    }

    // MARK: - Streaming

    @Test("Streaming: push decoders and an async sequence of chunks")
    func streaming() async throws {
        let chunks = [#"{"data": {"items": [{"name": "a"}, {"na"#, #"me": "b"}]}}"#].map { Array($0.utf8) }

        // Each element of an array as it completes, then forgotten: memory stays flat however long the input is.
        let items = try ModelDecoder().elements(of: Owner.self, at: "data.items")
        var names: [String] = []
        for chunk in chunks {
            names += try items.feed(chunk).map(\.name)
        }
        names += try items.finish().map(\.name)  // the last ones, and a check that the rest is well formed

        // One value: feed returns true once it is complete, and reading can stop there.
        let decoder = try ModelDecoder().incremental([Owner].self, at: "data.items")
        for chunk in chunks where try decoder.feed(chunk) { break }
        let owners = try decoder.finish()

        // Any Sendable AsyncSequence of chunks ([UInt8], Data…): read no faster than elements are taken.
        let body = AsyncStream<[UInt8]> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        for try await owner in ModelDecoder().elements(of: Owner.self, at: "data.items", from: body) {
            names.append(owner.name)
        }

        #expect(names == ["a", "b", "a", "b"])
        #expect(owners.map(\.name) == ["a", "b"])
        // The first chunk completes the first element, the second chunk the second.
        let again = try ModelDecoder().elements(of: Owner.self, at: "data.items")
        #expect(try again.feed(chunks[0]).map(\.name) == ["a"])
        #expect(try again.feed(chunks[1]).map(\.name) == ["b"])
        #expect(try again.finish().isEmpty)
    }

    @Test("Streaming: files, whole values and elements, blocking and async")
    func files() async throws {
        let path = NSTemporaryDirectory() + "export-\(UUID().uuidString).json"
        let export = #"{"total": 2, "data": {"items": [{"name": "a"}, {"name": "b"}]}}"#
        try Data(export.utf8).write(to: URL(fileURLWithPath: path))

        let total = try ModelDecoder().decode(Int.self, fromFileAt: path, at: "total")  // reads up to "total" only
        var seen: [String] = []
        try ModelDecoder().forEachElement(of: Owner.self, at: "data.items", inFileAt: path) { seen.append($0.name) }

        // In async code the file is read on a queue of its own: no thread of the cooperative pool waits on the disk.
        for try await owner in ModelDecoder().elements(of: Owner.self, at: "data.items", fileAt: path) {
            seen.append(owner.name)
        }

        // JSON Lines on two threads: the values, their order and the first error are one thread's.
        try Data("{\"name\": \"c\"}\n{\"name\": \"d\"}\n".utf8).write(to: URL(fileURLWithPath: path))
        try ModelDecoder().forEachValue(of: Owner.self, inFileAt: path, jobs: 2) { seen.append($0.name) }
        try FileManager.default.removeItem(atPath: path)

        #expect(total == 2)
        #expect(seen == ["a", "b", "a", "b", "c", "d"])
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    // MARK: - Errors

    @Test("Errors: a JSONDecodingError says what and where")
    func errors() throws {
        do {
            _ = try ModelDecoder().decode(Cat.self, from: #"{"id": 1,, "name": "x"}"#)
        } catch let error as JSONDecodingError where error.kind == .malformed {
            print(error)  // 1:11: expected a string as an object key at $
            print(error.snippet)  // the line, and a caret under the point of the error
        }

        let error = #expect(throws: JSONDecodingError.self) {
            try ModelDecoder().decode(Cat.self, from: #"{"id": 1,, "name": "x"}"#)
        }
        #expect(error?.kind == .malformed)
        #expect(error?.description == "1:11: expected a string as an object key at $")
        #expect(error?.snippet.hasSuffix("^") == true)
    }

    /// The errors table's examples of the call's own mistakes (the kinds of bad input are checked in
    /// ModelDecoderTests).
    @Test("Errors: the table's examples of the call's mistakes")
    func callMistakes() throws {
        let path = #expect(throws: JSONDecodingError.self) {
            try ModelDecoder().decode(Int.self, from: "{}", at: "data[x]")
        }
        #expect(path?.kind == .invalidPath)
        #expect(path?.description.hasPrefix("invalid path 'data[x]': '[x]' is neither an index nor [*]; ") == true)

        let decoder = try ModelDecoder().incremental(Int.self)
        _ = try decoder.feed(Array("1".utf8))
        #expect(try decoder.finish() == 1)
        let misuse = #expect(throws: JSONDecodingError.self) { try decoder.finish() }
        #expect(misuse?.kind == .misuse)
        #expect(misuse?.description == "IncrementalDecoder.finish() was called twice: the decoder has ended")

        let missing = NSTemporaryDirectory() + "missing-\(UUID().uuidString)/export.json"
        let unreadable = #expect(throws: JSONDecodingError.self) {
            try ModelDecoder().decode(Int.self, fromFileAt: missing)
        }
        #expect(unreadable?.kind == .unreadable)
        #expect(unreadable?.description == "\(missing): cannot read: No such file or directory")

        struct Plain { var x = 0 }
        struct Holder: HandyJSON { var plain = Plain() }
        let model = #expect(throws: JSONDecodingError.self) { try ModelDecoder().decode(Holder.self, from: "{}") }
        #expect(model?.kind == .invalidModel)
        #expect(model?.path == "")
        #expect(model?.description.contains("can't be decoded") == true)
    }

    // MARK: - Concurrency

    @Test("Concurrency: diagnostics collected from a @Sendable handler")
    func concurrency() throws {
        final class Diagnostics: Sendable {
            private let storage = Mutex<[DecodingDiagnostic]>([])
            func append(_ diagnostic: DecodingDiagnostic) { storage.withLock { $0.append(diagnostic) } }
            var all: [DecodingDiagnostic] { storage.withLock { $0 } }
        }

        struct Item: Codable { var id: Int; var price: Double? }

        let heard = Diagnostics()
        var options = DecodingOptions()
        options.diagnostics = { heard.append($0) }
        let data = Data(#"[{"id": 1, "price": "N/A"}, {"id": 2}]"#.utf8)
        let items = try ModelDecoder(options: options).decode([Item].self, from: data)
        for diagnostic in heard.all { print(diagnostic) }  // $[0].price: …

        #expect(items.map(\.id) == [1, 2])
        #expect(items[0].price == nil)
        #expect(heard.all.count == 1)
        #expect(heard.all.first?.path == "$[0].price")
    }
}
