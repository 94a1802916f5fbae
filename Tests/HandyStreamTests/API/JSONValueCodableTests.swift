import Foundation
import HandyStream
import Testing

struct WithPayload: Codable, Equatable {
    var id: Int
    var payload: JSONValue
    var extras: [JSONValue]?
}

/// JSONValue is `Codable`: Foundation's coders read and write it, and HandyStream's keep numbers' text and members'
/// order exactly, inside `Codable` values and at the root.
@Suite struct JSONValueCodableTests {
    let json =
        #"{"id": 1, "payload": {"z": 1.50, "a": [true, null, "x", 12345678901234567890], "m": {}}, "extras": [-0.0, 1e2]}"#

    @Test func foundationReadsAndWritesIt() throws {
        let value = try JSONDecoder().decode(WithPayload.self, from: Data(json.utf8))
        #expect(value.payload["a"]?[0] == true && value.payload["a"]?[2] == "x" && value.payload["a"]?[1] == .null)
        #expect(value.payload["a"]?[3] == .number("12345678901234567890"))
        let again = try JSONDecoder().decode(WithPayload.self, from: JSONEncoder().encode(value))
        #expect(again.payload["a"] == value.payload["a"])
    }

    @Test func handyStreamKeepsTextAndOrder() throws {
        for strict in [true, false] {
            let value = try ModelDecoder(options: DecodingOptions(strict: strict)).decode(WithPayload.self, from: json)
            // Numbers as written, members in document order.
            guard case .object(let members) = value.payload else { Issue.record("not an object"); return }
            #expect(members.map(\.key) == ["z", "a", "m"])
            #expect(value.payload["z"] == .number("1.50"))
            #expect(value.extras == [.number("-0.0"), .number("1e2")])
            let written = try ModelEncoder().encodeToString(value)
            #expect(
                written
                    == #"{"id":1,"payload":{"z":1.50,"a":[true,null,"x",12345678901234567890],"m":{}},"extras":[-0.0,1e2]}"#
            )
        }
        // A missing payload is a DecodingError, as for any property.
        #expect(throws: DecodingError.self) {
            try ModelDecoder(options: DecodingOptions(strict: true)).decode(WithPayload.self, from: #"{"id": 1}"#)
        }
    }

    @Test func rootValuesStillStream() throws {
        let value = try ModelDecoder().decode(JSONValue.self, from: json)
        #expect(value["payload"]?["z"] == .number("1.50"))
        let elements = try ModelDecoder().elements(of: JSONValue.self, at: "payload.a")
        let first = try elements.feed(Array(json.utf8))
        #expect(first.count + (try elements.finish()).count == 4)
        #expect(try ModelDecoder().decode([JSONValue].self, from: "[1, {\"b\": 2}]") == [1, ["b": 2]])
    }
}
