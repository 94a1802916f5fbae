// A type both HandyJSON and Codable keeps its `mapping(mapper:)` in every entry point, with its `CodingKeys`, by one
// rule (ModelRules.swift): `<--` keys (or `>>>`) first, they replace the coding key; else the coding key; else the
// name.
import Foundation
import HandyJSON
@testable import HandyStream
import Testing

/// Every way a mapping names keys, on a `Codable` model whose `CodingKeys` rename too.
struct RuleUser: HandyJSON, Codable, Equatable {
    var name = ""
    var nick = ""
    var city = ""
    var userId = 0
    var label = "none"
    var born: Date?
    var seen = Date(timeIntervalSince1970: 0)
    var session = "kept"
    var plain = 0

    enum CodingKeys: String, CodingKey {
        case name, nick, city
        case userId = "user_id"  // renamed by CodingKeys alone
        case label = "label_key"  // renamed by both: the mapping wins
        case born, seen, session, plain
    }

    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< name <-- "full_name"
        mapper <<< nick <-- ["nickname", "nick_name"]
        mapper <<< city <-- "address.city"
        mapper <<< label <-- "title"
        mapper <<< born <-- ("born_at", DateTransform())
        mapper <<< seen <-- DateTransform()  // a transform alone: the coding key's key
        mapper >>> session
    }
}

/// A converter, given the document's text.
struct RuleCode: HandyJSON, Codable, Equatable {
    var code = 0
    var raw = ""
    mutating func mapping(mapper: HelpingMapper) {
        mapper.specify(property: &code) { Int($0.filter(\.isNumber)) ?? -1 }
        mapper.specify(property: &raw, name: "payload", converter: { $0 })
    }
}

/// The model inside `Codable` values: a property, and array elements.
struct RuleTeam: Codable, Equatable {
    var lead: RuleUser
    var members: [RuleUser]
}

/// The model inside a model that is not `Codable`: the field tables.
struct RuleHolder: HandyJSON, Equatable {
    var lead = RuleUser()
    var members: [RuleUser] = []
}

@Suite struct CodableModelMappingTests {
    static let ann = #"""
        {"full_name": "Ann", "name": "no", "nick_name": "annie", "address": {"city": "Oslo"}, "city": "no",
         "user_id": 7, "userId": 1, "title": "boss", "label_key": "no", "label": "no", "born_at": 86400,
         "seen": "60", "session": "leak", "plain": 3}
        """#
    static let bob = #"{"full_name": "Bob", "nickname": "bobby", "user_id": 8, "seen": 0, "plain": 4}"#

    static let annValue = RuleUser(
        name: "Ann", nick: "annie", city: "Oslo", userId: 7, label: "boss", born: Date(timeIntervalSince1970: 86400),
        seen: Date(timeIntervalSince1970: 60), session: "kept", plain: 3)
    static let bobValue = RuleUser(
        name: "Bob", nick: "bobby", city: "", userId: 8, label: "none", born: nil,
        seen: Date(timeIntervalSince1970: 0), session: "kept", plain: 4)

    /// The JSON every API writes of `annValue` (sorted keys): mapped keys as declared, a dotted key as nested objects,
    /// the coding key where nothing is mapped, the excluded property left out, transforms' numbers as tables write
    /// them.
    static let annJSON =
        #"{"address":{"city":"Oslo"},"born_at":86400.0,"full_name":"Ann","nickname":"annie","plain":3,"seen":60.0,"#
        + #""title":"boss","user_id":7}"#

    static let sorted = ModelEncoder(options: EncodingOptions(sortedKeys: true))

    @Test func decodesByTheRuleAtTheRoot() throws {
        var user = try ModelDecoder().decode(RuleUser.self, from: Self.ann)
        #expect(user == Self.annValue)
        user = try ModelDecoder().decode(RuleUser.self, from: Data(Self.ann.utf8))
        #expect(user == Self.annValue)
        let object = try JSONSerialization.jsonObject(with: Data(Self.ann.utf8))
        #expect(try ModelDecoder().decode(RuleUser.self, fromJSONObject: object) == Self.annValue)
        // Candidates: the first present wins.
        let both = try ModelDecoder().decode(RuleUser.self, from: #"{"nick_name": "b", "nickname": "a"}"#)
        #expect(both.nick == "a")
        // HandyJSON's own call reads the same keys.
        #expect(RuleUser.deserialize(from: Self.ann) == Self.annValue)
    }

    @Test func encodesByTheRule() throws {
        #expect(try Self.sorted.encodeToString(Self.annValue) == Self.annJSON)
        // The field tables write the same bytes.
        #expect(String(decoding: try Self.sorted.encodeByTables(Self.annValue), as: UTF8.self) == Self.annJSON)
        // What is written reads back the same, through either API.
        let written = try Self.sorted.encode(Self.annValue)
        #expect(try ModelDecoder().decode(RuleUser.self, from: written) == Self.annValue)
        #expect(RuleUser.deserialize(from: String(decoding: written, as: UTF8.self)) == Self.annValue)
        // A nil optional with a transform is left out, as the tables leave it out.
        let bob = try Self.sorted.encodeToString(Self.bobValue)
        #expect(!bob.contains("born"))
        #expect(bob == String(decoding: try Self.sorted.encodeByTables(Self.bobValue), as: UTF8.self))
    }

    @Test func streamsElements() throws {
        let document = #"{"data": {"users": ["# + Self.ann + ", " + Self.bob + "]}}"
        let bytes = Array(document.utf8)
        for size in [1, 7, 64, bytes.count] {
            let stream = try ModelDecoder().elements(of: RuleUser.self, at: "data.users")
            var users: [RuleUser] = []
            for chunk in chunks(bytes, size: size) { users += try stream.feed(chunk) }
            users += try stream.finish()
            #expect(users == [Self.annValue, Self.bobValue], "chunk size \(size)")
            let incremental = try ModelDecoder().incremental(RuleUser.self, at: "data.users[1]")
            for chunk in chunks(bytes, size: size) where try incremental.feed(chunk) { break }
            #expect(try incremental.finish() == Self.bobValue, "chunk size \(size)")
        }
        // JSON Lines: each top-level value.
        let perLine = try ModelDecoder().values(of: RuleUser.self)
        let fed = try perLine.feed(Array((Self.bob + "\n" + Self.bob + "\n").utf8)) + perLine.finish()
        #expect(fed == [Self.bobValue, Self.bobValue])
    }

    @Test func streamsElementsAsynchronously() async throws {
        let document = "[" + Self.ann + "," + Self.bob + "]"
        let bytes = Array(document.utf8)
        let pieces = chunks(bytes, size: 5)
        let source = AsyncStream<[UInt8]> { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
        var users: [RuleUser] = []
        for try await user in ModelDecoder().elements(of: RuleUser.self, at: "[*]", from: source) { users.append(user) }
        #expect(users == [Self.annValue, Self.bobValue])
    }

    @Test func holdsInsideCodableValues() throws {
        let json = #"{"lead": "# + Self.ann + #", "members": ["# + Self.bob + ", " + Self.ann + "]}"
        let team = try ModelDecoder().decode(RuleTeam.self, from: json)
        #expect(team == RuleTeam(lead: Self.annValue, members: [Self.bobValue, Self.annValue]))
        #expect(try ModelDecoder().decode([RuleUser].self, from: "[" + Self.bob + "]") == [Self.bobValue])
        let keyed = try ModelDecoder().decode([String: RuleUser].self, from: #"{"a": "# + Self.bob + "}")
        #expect(keyed == ["a": Self.bobValue])
        #expect(try ModelDecoder().decode(RuleUser?.self, from: Self.bob) == Self.bobValue)
        // Written inside a Codable value, as a property and as elements.
        let written = try Self.sorted.encodeToString(RuleTeam(lead: Self.annValue, members: [Self.annValue]))
        #expect(written == #"{"lead":"# + Self.annJSON + #","members":["# + Self.annJSON + "]}")
        #expect(try Self.sorted.encodeToString([Self.annValue]) == "[" + Self.annJSON + "]")
    }

    @Test func holdsInsideModels() throws {
        let json = #"{"lead": "# + Self.ann + #", "members": ["# + Self.bob + "]}"
        let holder = RuleHolder(lead: Self.annValue, members: [Self.bobValue])
        #expect(try ModelDecoder().decode(RuleHolder.self, from: json) == holder)
        #expect(RuleHolder.deserialize(from: json) == holder)
        let bobJSON = String(decoding: try Self.sorted.encode(Self.bobValue), as: UTF8.self)
        #expect(
            try Self.sorted.encodeToString(holder) == #"{"lead":"# + Self.annJSON + #","members":["# + bobJSON + "]}")
    }

    @Test func strictMode() throws {
        var options = DecodingOptions()
        options.strict = true
        let strict = ModelDecoder(options: options)
        // Every key the synthesized init(from:) asks for is found where the mapping says; the excluded property is
        // not asked of the document.
        #expect(try strict.decode(RuleUser.self, from: Self.ann) == Self.annValue)
        // The coding key of a property the mapping renames is not read: keyNotFound for the mapped key's property.
        #expect(throws: DecodingError.self) {
            _ = try strict.decode(RuleUser.self, from: Self.ann.replacingOccurrences(of: "\"title\"", with: "\"x\""))
        }
        // A value the transform refuses is an error in strict mode...
        let refused = Self.ann.replacingOccurrences(of: #""seen": "60""#, with: #""seen": "soon""#)
        #expect(throws: DecodingError.self) { _ = try strict.decode(RuleUser.self, from: refused) }
        // ...and keeps the default in lenient mode, heard by the diagnostics.
        let log = DiagnosticLog()
        let lenient = try ModelDecoder(options: log.options).decode(RuleUser.self, from: refused)
        #expect(lenient.seen == Date(timeIntervalSince1970: 0) && lenient.name == "Ann")
        #expect(log.all.contains { $0.hasPrefix("$.seen: ") })
    }

    @Test func converterGivenTheText() throws {
        let json = #"{"code": "A-42", "payload": {"a": [1, 2]}}"#
        let value = try ModelDecoder().decode(RuleCode.self, from: json)
        #expect(value == RuleCode(code: 42, raw: #"{"a":[1,2]}"#))
        #expect(RuleCode.deserialize(from: json) == value)
        #expect(
            try Self.sorted.encodeToString(value)
                == String(decoding: try Self.sorted.encodeByTables(value), as: UTF8.self))
    }
}

/// A model whose excluded property `init()` makes anew for each value.
struct RuleTicket: HandyJSON, Codable {
    var id = UUID()
    var seat = ""
    mutating func mapping(mapper: HelpingMapper) {
        mapper >>> id
    }
}

extension CodableModelMappingTests {
    /// An excluded property keeps what `init()` gives each value, made anew (as the field tables do): never one value
    /// shared by every decode.
    @Test func excludedPropertyIsEachValuesOwn() throws {
        let json = #"[{"id": "00000000-0000-0000-0000-000000000000", "seat": "A1"}, {"seat": "B2"}]"#
        let tickets = try ModelDecoder().decode([RuleTicket].self, from: json)
        #expect(tickets.map(\.seat) == ["A1", "B2"])
        #expect(tickets[0].id != tickets[1].id)
        #expect(tickets[0].id != UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
    }
}
