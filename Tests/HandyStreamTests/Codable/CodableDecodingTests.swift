import Foundation
import HandyJSON
import Testing

// Decodable types through the engine: lenient mode's rules, key mapping, defaults, the post-decode hook, and every
// entry point.

enum SeedCity: String, Codable {
    case beijing, shanghai, hangzhou
}

struct SeedPerson: Codable, Equatable {
    var name: String
    var city: SeedCity?
}

struct Convertible: Codable, Equatable {
    var count: Int
    var label: String
    var flag: Bool
    var ratio: Double
}

@Suite struct CodableDecodingTests {
    @Test func seedProblem() throws {
        let json = #"{"name": "lilei", "city": "shenzhen"}"#
        let person = try ModelDecoder().decode(SeedPerson.self, from: json)
        #expect(person == SeedPerson(name: "lilei", city: nil))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SeedPerson.self, from: Data(json.utf8)) }
    }

    @Test func conversions() throws {
        let json = #"{"count": "12", "label": 12, "flag": "true", "ratio": "2.5"}"#
        let value = try ModelDecoder().decode(Convertible.self, from: json)
        #expect(value == Convertible(count: 12, label: "12", flag: true, ratio: 2.5))
        let other = try ModelDecoder().decode(Convertible.self, from: #"{"count": 12.0, "label": true, "flag": 1}"#)
        #expect(other == Convertible(count: 12, label: "true", flag: true, ratio: 0))
    }
}

// MARK: - Lenient defaults, mapping, hook

enum CodableMood: String, Codable, EmptyInitializable {
    case happy, sad, unknown
    init() { self = .unknown }
}

struct CodableProfile: Codable, Equatable, HandyJSON {
    var nickname = ""
    var age = 0
    var mood = CodableMood()
    var tags: [String] = []
    var scores: [Int] = []
    var optionalScores: [Int?] = []
    var note: String?
    var visits = 1

    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< nickname <-- ["nickname", "nickName", "nick_name"]
        mapper <<< age <-- "userInfo.age"
    }

    mutating func didFinishMapping() { nickname = nickname.uppercased() }
}

struct ProfileHolder: Codable, Equatable {
    var profile: CodableProfile
    var count: Int
}

extension CodableDecodingTests {
    @Test func defaultsWhenMissingOrUnfit() throws {
        let profile = try ModelDecoder().decode(
            CodableProfile.self, from: #"{"nick_name": "li", "mood": "angry", "note": 5}"#)
        #expect(
            profile
                == CodableProfile(
                    nickname: "LI", age: 0, mood: .unknown, tags: [], scores: [], optionalScores: [], note: "5",
                    visits: 1))
    }

    @Test func candidateKeysAndNestedPaths() throws {
        let json = #"{"nickName": "b", "nick_name": "c", "userInfo": {"age": "31"}, "mood": "sad"}"#
        let profile = try ModelDecoder().decode(CodableProfile.self, from: json)
        #expect(profile.nickname == "B")
        #expect(profile.age == 31)
        #expect(profile.mood == .sad)
    }

    @Test func elementsThatDoNotFit() throws {
        let json = #"{"scores": [1, "x", 3, null, "4"], "optionalScores": [1, "x", null], "tags": ["a", 2, {}]}"#
        let profile = try ModelDecoder().decode(CodableProfile.self, from: json)
        #expect(profile.scores == [1, 3, 4])
        #expect(profile.optionalScores == [1, nil, nil])
        #expect(profile.tags == ["a", "2"])
    }

    @Test func diagnosticsHearEachFallback() throws {
        let log = DiagnosticLog()
        let decoder = ModelDecoder(options: log.options)
        _ = try decoder.decode(
            ProfileHolder.self, from: #"{"profile": {"scores": [1, "x"], "mood": 7}, "count": "many"}"#)
        let entries = log.all
        #expect(entries.contains { $0.hasPrefix("$.profile.scores[1]: ") && $0.contains("dropped") })
        #expect(entries.contains { $0.hasPrefix("$.profile.mood: ") })
        #expect(entries.contains { $0.hasPrefix("$.count: ") })
    }

    @Test func failureHandledOneLevelUp() throws {
        struct Strict: Codable { var city: SeedCity }
        struct Outer: Codable { var inner: Strict?; var name: String }
        let outer = try ModelDecoder().decode(Outer.self, from: #"{"inner": {"city": "shenzhen"}, "name": "n"}"#)
        #expect(outer.inner == nil)
        #expect(outer.name == "n")
        #expect(throws: DecodingError.self) {
            try ModelDecoder().decode(Strict.self, from: #"{"city": "shenzhen"}"#)
        }
    }
}

// MARK: - Every entry point

struct StreamedPoint: Codable, Equatable {
    var x: Int
    var y: Int
}

struct PlainModelWithCodable: HandyJSON {
    var name = ""
    var point = StreamedPoint(x: -1, y: -1)
    var city: SeedCity?
    var when: Date?
}

struct BothKinds: HandyJSON, Codable {
    var value = 0
    var label = "default"
    mutating func mapping(mapper: HelpingMapper) { mapper <<< label <-- "name" }
}

struct CodableWithModel: Codable {
    var model: BothKinds
    var count: Int
}

extension CodableDecodingTests {
    static let points = #"{"data": {"points": [{"x": 1, "y": 2}, {"x": "3", "y": 4}, {"x": "bad", "y": 5}, 7]}}"#

    @Test func designatedPathAndWildcards() throws {
        let decoder = ModelDecoder()
        #expect(try decoder.decode(StreamedPoint.self, from: Self.points, at: "data.points[1]") == .init(x: 3, y: 4))
        #expect(try decoder.decode([StreamedPoint].self, from: Self.points, at: "data.points").count == 3)
        #expect(try decoder.decode([Int].self, from: Self.points, at: "data.points[*].y") == [2, 4, 5])
    }

    @Test func elementStreamsAtEveryChunkSize() throws {
        let bytes = Array(Self.points.utf8)
        for size in [1, 2, 3, 7, 64] {
            let stream = try ModelDecoder().elements(of: StreamedPoint.self, at: "data.points")
            var points: [StreamedPoint] = []
            for chunk in chunks(bytes, size: size) { points += try stream.feed(chunk) }
            points += try stream.finish()
            // "bad" falls back to x's default (0); 7 is not an object and is dropped.
            #expect(points == [.init(x: 1, y: 2), .init(x: 3, y: 4), .init(x: 0, y: 5)], "chunk size \(size)")
            let incremental = try ModelDecoder().incremental(StreamedPoint.self, at: "data.points[0]")
            for chunk in chunks(bytes, size: size) where try incremental.feed(chunk) { break }
            #expect(try incremental.finish() == .init(x: 1, y: 2))
        }
    }

    @Test func jsonLinesAndFiles() throws {
        let lines = "{\"x\": 1, \"y\": 1}\n{\"x\": 2, \"y\": 2}\n"
        let stream = try ModelDecoder().elements(of: StreamedPoint.self)
        #expect(try stream.feed(Array(lines.utf8)) + stream.finish() == [.init(x: 1, y: 1), .init(x: 2, y: 2)])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("codable-\(UUID()).json")
        try Data(Self.points.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let first = try ModelDecoder().decode(
            StreamedPoint.self, fromFileAt: file.path, at: "data.points[0]", chunkSize: 5)
        #expect(first == .init(x: 1, y: 2))
        var seen: [StreamedPoint] = []
        try ModelDecoder().forEachElement(of: StreamedPoint.self, at: "data.points", inFileAt: file.path, chunkSize: 3)
        {
            seen.append($0)
        }
        #expect(seen.count == 3)
    }

    @Test func fromJSONObject() throws {
        let object: [String: Any] = ["name": "lilei", "city": "shenzhen"]
        #expect(try ModelDecoder().decode(SeedPerson.self, fromJSONObject: object) == SeedPerson(name: "lilei"))
        let parsed = try JSONSerialization.jsonObject(with: Data(Self.points.utf8))
        #expect(
            try ModelDecoder().decode(StreamedPoint.self, fromJSONObject: parsed, at: "data.points[0]")
                == .init(x: 1, y: 2))
    }

    @Test func codableInsideModelsAndModelsInsideCodable() throws {
        let json = #"{"name": "n", "point": {"x": 5, "y": 6}, "city": "hangzhou", "when": 10}"#
        let model = try ModelDecoder().decode(PlainModelWithCodable.self, from: json)
        #expect(model.point == .init(x: 5, y: 6))
        #expect(model.city == .hangzhou)
        #expect(model.when == Date(timeIntervalSinceReferenceDate: 10))
        // A Decodable property that doesn't fit keeps the model's default, as any property.
        let kept = try ModelDecoder().decode(PlainModelWithCodable.self, from: #"{"point": {"x": "no"}, "city": "x"}"#)
        #expect(kept.point == .init(x: 0, y: 0))
        #expect(kept.city == nil)
        let kept2 = try ModelDecoder().decode(PlainModelWithCodable.self, from: #"{"point": 3}"#)
        #expect(kept2.point == .init(x: -1, y: -1))
        // A type both HandyJSON and Decodable: ModelDecoder runs its init(from:), with its mapping (label <-- "name")
        // and init() giving the defaults; HandyJSON's API reads the same keys.
        let both = try ModelDecoder().decode(BothKinds.self, from: #"{"value": "4", "name": "mapped"}"#)
        #expect(both.value == 4 && both.label == "mapped")
        #expect(BothKinds.deserialize(from: #"{"value": "4", "name": "mapped"}"#)?.label == "mapped")
        let outer = try ModelDecoder().decode(CodableWithModel.self, from: #"{"model": {"name": "m"}, "count": 2}"#)
        #expect(outer.model.label == "m" && outer.model.value == 0 && outer.count == 2)
        let unmapped = try ModelDecoder().decode(CodableWithModel.self, from: #"{"model": {"label": "m"}, "count": 2}"#)
        #expect(unmapped.model.label == "default")
        #expect(try ModelDecoder().decode(SeedCity.self, from: #""beijing""#) == .beijing)
    }

    @Test func rootErrorsAreDecodingErrors() throws {
        // The root value can't fall back: its own error, located.
        let error = try #require(throws: DecodingError.self) {
            try ModelDecoder().decode(SeedCity.self, from: #"  "x""#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect((context.underlyingError as? JSONDecodingError)?.column == 6)
    }
}

// MARK: - Strategies and key strategies

indirect enum Nest: Codable, Sendable {
    case leaf
    case node([Nest])
}

struct Stamp: Codable, Equatable {
    var userName: String
    var createdAt: Date
    var token: UUID
    var link: URL
    var amount: Decimal
}

extension CodableDecodingTests {
    @Test func foundationTypesAndStrategies() throws {
        let json =
            #"{"user_name": "a", "created_at": "2026-11-22 10:00", "token": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "link": "http://x/y", "amount": 1.10}"#
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let options = DecodingOptions(
            strict: true, keyDecodingStrategy: .convertFromSnakeCase, dateDecodingStrategy: .formatted(formatter))
        let ours = try ModelDecoder(options: options).decode(Stamp.self, from: json)
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        foundation.dateDecodingStrategy = .formatted(formatter)
        #expect(ours == (try foundation.decode(Stamp.self, from: Data(json.utf8))))
        #expect(ours.amount == Decimal(string: "1.1"))

        let insensitive = ModelDecoder(options: DecodingOptions(keyDecodingStrategy: .caseInsensitive))
        #expect(try insensitive.decode(StreamedPoint.self, from: #"{"X": 1, "Y": 2}"#) == .init(x: 1, y: 2))
    }

    @Test func userInfoReachesInitFromDecoder() throws {
        struct Scaled: Decodable {
            var value: Double
            init(from decoder: any Decoder) throws {
                let factor = decoder.userInfo[CodingUserInfoKey(rawValue: "factor")!] as? Double ?? 1
                value = try decoder.singleValueContainer().decode(Double.self) * factor
            }
        }
        let options = DecodingOptions(userInfo: [CodingUserInfoKey(rawValue: "factor")!: 10.0])
        #expect(try ModelDecoder(options: options).decode([Scaled].self, from: "[1, 2]").map(\.value) == [10, 20])
    }

    @Test func deepCodableValues() throws {
        let depth = 150  // 450 levels of nesting, within the default cap of 512
        let json =
            String(repeating: #"{"node":{"_0":["#, count: depth) + #"{"leaf":{}}"#
            + String(repeating: "]}}", count: depth)
        @Sendable func levels() -> String {
            do {
                var current = try ModelDecoder().decode(Nest.self, from: json)
                var level = 0
                while case .node(let children) = current, let first = children.first {
                    level += 1
                    current = first
                }
                return "\(level) levels"
            } catch let error as DecodingError
                where (error.context?.underlyingError as? JSONDecodingError)?.kind == .tooDeep
            {
                return "refused"
            } catch {
                return "other: \(error)"
            }
        }
        // Each level of a Codable value is a call of its init(from:): on a large stack all 150 decode; on a small
        // one (256 KiB) the value decodes whole or is refused as too deep, never cut short (lenient mode must not pass over
        // it) and never a crash.
        let large = onLargeStack { levels() }
        #expect(large == "150 levels")
        let small = onSmallStack { levels() }
        #expect(small == "150 levels" || small == "refused", "\(small)")
    }

}

extension CodableDecodingTests {
    @Test func tooDeepForTheStackToEncode() throws {
        // 150 nested values on a 256 KiB thread: written whole or refused, never a crash. The value is built and freed
        // on that thread too (the runtime frees nested values recursively, a few hundred levels here).
        let encoded = onSmallStack { () -> String in
            var nest = Nest.leaf
            for _ in 0..<150 { nest = .node([nest]) }
            do {
                let bytes = try ModelEncoder().encode(nest)
                return bytes.count == 150 * 18 + 11 ? "encoded" : "wrong: \(bytes.count)"
            } catch {
                return "\(error)".contains("nests too deeply") ? "refused" : "other: \(error)"
            }
        }
        #expect(encoded == "refused" || encoded == "encoded", "\(encoded)")
    }
}

struct ModelWithDate: HandyJSON, Codable {
    var name = ""
    var when: Date?
    var city: SeedCity?
}

struct CodableHoldingModel: Codable {
    var inner: ModelWithDate
    var list: [ModelWithDate]
}

extension CodableDecodingTests {
    @Test func codableScalarsInsideAModelInsideCodable() throws {
        let json =
            #"{"inner": {"name": "a", "when": 5, "city": "beijing"}, "list": [{"when": "x", "city": "hangzhou"}]}"#
        let value = try ModelDecoder().decode(CodableHoldingModel.self, from: json)
        #expect(value.inner.when == Date(timeIntervalSinceReferenceDate: 5))
        #expect(value.inner.city == .beijing)
        #expect(value.list.first?.when == nil && value.list.first?.city == .hangzhou)
        var options = DecodingOptions()
        options.dateDecodingStrategy = .secondsSince1970
        let dated = try ModelDecoder(options: options).decode(CodableHoldingModel.self, from: json)
        #expect(dated.inner.when == Date(timeIntervalSince1970: 5))
    }
}

struct OwnError: Error, Equatable {
    var reason: String
}

struct Picky: Decodable {
    var value: Int
    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Int.self)
        if value < 0 { throw OwnError(reason: "negative") }
    }
}

struct HoldsPicky: Decodable {
    var picky: Picky
    var name: String
}

extension CodableDecodingTests {
    @Test func usersOwnErrorsPassThrough() throws {
        for strict in [false, true] {
            let decoder = ModelDecoder(options: DecodingOptions(strict: strict))
            #expect(throws: OwnError(reason: "negative")) { try decoder.decode(Picky.self, from: "-1") }
            #expect(throws: OwnError(reason: "negative")) {
                try decoder.decode(HoldsPicky.self, from: #"{"picky": -1, "name": "n"}"#)
            }
            #expect(try decoder.decode(HoldsPicky.self, from: #"{"picky": 1, "name": "n"}"#).picky.value == 1)
        }
    }
}

extension CodableDecodingTests {
    @Test func asyncElementsOfACodableType() async throws {
        let points = (0..<40).map { #"{"x": \#($0), "y": "\#($0 * 2)"}"# }.joined(separator: ",")
        let bytes = Array(#"{"data": {"points": [\#(points), {"x": "bad"}]}}"#.utf8)
        let source = AsyncStream<[UInt8]> { continuation in
            for chunk in chunks(bytes, size: 11) { continuation.yield(chunk) }
            continuation.finish()
        }
        var seen: [StreamedPoint] = []
        for try await point in ModelDecoder().elements(of: StreamedPoint.self, at: "data.points", from: source) {
            seen.append(point)
        }
        // Lenient: "y" strings become Ints; the last element's x falls back to 0 and its missing y to 0.
        #expect(seen.count == 41)
        #expect(seen[7] == StreamedPoint(x: 7, y: 14))
        #expect(seen.last == StreamedPoint(x: 0, y: 0))

        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        let again = AsyncStream<[UInt8]> { continuation in
            continuation.yield(bytes)
            continuation.finish()
        }
        await #expect(throws: DecodingError.self) {
            for try await _ in strict.elements(of: StreamedPoint.self, at: "data.points", from: again) {}
        }
    }
}
