import Foundation
@testable import HandyStream
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
        #expect(try decoder.decode(CandidateThroughPath.self,
                                   from: #"{"serializeKey": "top", "a": {"b": "deep"}}"#).p == "top")
        #expect(try decoder.decode(CandidateThroughPath.self,
                                   from: #"{"a": {"b": "deep"}, "serializeKey": "top"}"#).p == "top")
        #expect(CandidateThroughPath.deserialize(from: #"{"a": {"b": "x"}, "other": 2}"#)
            == CandidateThroughPath(p: "x", other: 2))
    }

    @Test("A candidate dropped because another property reads it leaves the rest working")
    func droppedCandidate() throws {
        let model = CandidateTaken.deserialize(from: #"{"id": 1, "cat_id": 2}"#)
        #expect(model == CandidateTaken(id: 1, catID: 2))
        #expect(throws: ModelDeclarationError.self) { try ModelDecoder().decode(CandidateTaken.self, from: "{}") }
    }

    @Test("Candidates on several levels, and 300 candidates for one property")
    func candidatesEverywhere() throws {
        let decoder = ModelDecoder()
        #expect(try decoder.decode(CandidatesEverywhere.self, from: #"{"x": {"w": "3", "y": {"z": "1"}}}"#).value == "1")
        #expect(try decoder.decode(CandidatesEverywhere.self, from: #"{"x": {"w": "3"}, "top": "2"}"#).value == "2")
        #expect(try decoder.decode(CandidatesEverywhere.self, from: #"{"top": "2", "x": {"w": "3"}}"#).value == "2")
        #expect(try decoder.decode(CandidatesEverywhere.self, from: #"{"k299": 9, "k3": 3, "k250": 7}"#).many == 3)
        #expect(try decoder.decode(CandidatesEverywhere.self, from: #"{"k299": 9, "k250": 7}"#).many == 7)
    }
}
