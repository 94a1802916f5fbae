import Foundation
@testable import HandyStream
import HandyJSON
import Testing

/// One candidate is a plain key, the next a nested key path: the path's table holds a key of priority 1 alone.
struct CandidateThroughPath: HandyJSON, Equatable {
    var p = ""
    var other = 0
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.p <-- ["serializeKey", "a.b"]
    }
}

/// The first candidate is taken by another property, so the second is the only key left for `catID`.
struct CandidateTaken: HandyJSON, Equatable {
    var id = 0
    var catID = 0
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.catID <-- ["id", "cat_id"]
    }
}

/// Candidates on three levels, and more candidates than a byte can rank.
struct CandidatesEverywhere: HandyJSON, Equatable {
    var value = ""
    var many = 0
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.value <-- ["x.y.z", "top", "x.w"]
        mapper <<< self.many <-- (0..<300).map { "k\($0)" }
    }
}

@Suite("Mappings that reach across levels")
struct MappingSafetyTests {
    @Test("A plain key before a nested key path: both orders, either present")
    func plainKeyThenPath() throws {
        let decoder = ModelDecoder()
        #expect(try decoder.decode(CandidateThroughPath.self, from: #"{"a": {"b": "deep"}}"#).p == "deep")
        #expect(try decoder.decode(CandidateThroughPath.self, from: #"{"serializeKey": "top"}"#).p == "top")
        // The first candidate wins whichever comes first in the document.
        #expect(
            try decoder.decode(
                CandidateThroughPath.self,
                from: #"{"serializeKey": "top", "a": {"b": "deep"}}"#
            ).p == "top")
        #expect(
            try decoder.decode(
                CandidateThroughPath.self,
                from: #"{"a": {"b": "deep"}, "serializeKey": "top"}"#
            ).p == "top")
        #expect(
            CandidateThroughPath.deserialize(from: #"{"a": {"b": "x"}, "other": 2}"#)
                == CandidateThroughPath(p: "x", other: 2))
    }

    @Test("A candidate dropped because another property reads it leaves the rest working")
    func droppedCandidate() throws {
        let model = CandidateTaken.deserialize(from: #"{"id": 1, "cat_id": 2}"#)
        #expect(model == CandidateTaken(id: 1, catID: 2))
        expectError(.invalidModel) { try ModelDecoder().decode(CandidateTaken.self, from: "{}") }
    }

    @Test("Candidates on several levels, and 300 candidates for one property")
    func candidatesEverywhere() throws {
        let decoder = ModelDecoder()
        #expect(
            try decoder.decode(CandidatesEverywhere.self, from: #"{"x": {"w": "3", "y": {"z": "1"}}}"#).value == "1")
        #expect(try decoder.decode(CandidatesEverywhere.self, from: #"{"x": {"w": "3"}, "top": "2"}"#).value == "2")
        #expect(try decoder.decode(CandidatesEverywhere.self, from: #"{"top": "2", "x": {"w": "3"}}"#).value == "2")
        #expect(try decoder.decode(CandidatesEverywhere.self, from: #"{"k299": 9, "k3": 3, "k250": 7}"#).many == 3)
        #expect(try decoder.decode(CandidatesEverywhere.self, from: #"{"k299": 9, "k250": 7}"#).many == 7)
    }
}

struct Empty {}

/// A zero-sized property shares its offset with the next one.
struct WithEmpty: HandyJSON, Equatable {
    var cache = Empty()
    var name = ""
    var count = 0
    static func == (lhs: WithEmpty, rhs: WithEmpty) -> Bool { lhs.name == rhs.name && lhs.count == rhs.count }
    mutating func mapping(mapper: HelpingMapper) {
        mapper >>> self.cache
    }
}

final class Target {}

final class PassedAsCopies: HandyJSON {
    lazy var label = 7
    weak var owner: Target?
    var plain = 0.5
    var watched = "" { willSet { _ = newValue } }
    var other = ""
    required init() {}
    func mapping(mapper: HelpingMapper) {
        mapper >>> self.label
        mapper >>> self.owner
        mapper <<< self.watched <-- "w"
    }
}

final class LazyRenamed: HandyJSON {
    lazy var label = "lazy"
    var count = 0
    required init() {}
    func mapping(mapper: HelpingMapper) {
        mapper <<< self.label <-- "title"
    }
}

actor Account: HandyJSON {
    var balance = 0
    init() {}
}

extension MappingSafetyTests {
    @Test("A zero-sized property excluded: the property at the same offset still decodes and encodes")
    func zeroSizedProperty() throws {
        let model = try ModelDecoder().decode(WithEmpty.self, from: #"{"name": "a", "count": 2}"#)
        #expect(model == WithEmpty(name: "a", count: 2))
        #expect(model.toJSONString() == #"{"name":"a","count":2}"#)
    }

    @Test("Lazy and weak properties are found by type; an observed one is named in the report")
    func propertiesPassedAsCopies() throws {
        let error = expectError(.invalidModel) {
            try ModelDecoder().decode(PassedAsCopies.self, from: #"{"label": 1, "w": "y"}"#)
        }
        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.contains("maps a property of type String") == true)
        #expect(error?.problems.first?.contains("it may be watched, or other") == true)
        let quiet = PassedAsCopies.deserialize(from: #"{"label": 1, "plain": 3}"#)
        #expect(quiet?.label == 7)  // excluded
        #expect(quiet?.plain == 3)
        let renamed = try ModelDecoder().decode(LazyRenamed.self, from: #"{"title": "t", "label": "l", "count": 1}"#)
        #expect(renamed.label == "t")
        #expect(renamed.count == 1)
    }

    @Test("An actor is refused by name, not filled")
    func actorRefused() throws {
        let error = expectError(.invalidModel) {
            try ModelDecoder().decode(Account.self, from: #"{"balance": 5}"#)
        }
        #expect(error?.description.contains("Account: an actor can't be filled from JSON") == true)
        #expect(Account.deserialize(from: #"{"balance": 5}"#) == nil)
    }
}

/// Neither a model nor `Decodable`: what `decode` can't take (the type system can't say "Decodable, or a HandyJSON
/// model, or Any" in one constraint, so the call compiles).
struct NeitherModelNorDecodable {
    var x = 1
}

extension MappingSafetyTests {
    @Test("A type HandyStream can't decode is refused before any input is read, with its name")
    func notDecodableRefusedByName() throws {
        let error = expectError(.invalidModel) {
            try ModelDecoder().decode(NeitherModelNorDecodable.self, from: #"{"x": 2}"#)
        }
        #expect(
            error?.description.contains("NeitherModelNorDecodable is not a type HandyStream can decode") == true,
            "\(String(describing: error))")
        expectError(.invalidModel) { try ModelDecoder().incremental(NeitherModelNorDecodable.self) }
        expectError(.invalidModel) { try ModelDecoder().elements(of: NeitherModelNorDecodable.self) }
    }
}
