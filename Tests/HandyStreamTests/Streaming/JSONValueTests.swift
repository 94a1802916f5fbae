import Foundation
import HandyStream
import Testing

@Suite("JSONValue and JSONText")
struct JSONValueTests {
    static let json =
        #"{"b": 1, "a": [12345678901234567890123, -0.0, 1e400, "s\u00e9", true, null, {}], "b": {"z": 2}}"#

    @Test("JSONValue keeps number text and key order, duplicates included")
    func value() throws {
        let value = try ModelDecoder().decode(JSONValue.self, from: Self.json)
        guard case .object(let members) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a", "b"])
        #expect(value["a"]?[0] == .number("12345678901234567890123"))
        #expect(value["a"]?[1] == .number("-0.0"))
        #expect(value["a"]?[2] == .number("1e400"))
        #expect(value["a"]?[3] == .string("sé"))
        #expect(value["a"]?[4] == .bool(true))
        #expect(value["a"]?[5] == .null)
        #expect(value["a"]?[6] == .object([]))
        #expect(
            try ModelEncoder().encodeToString(value)
                == #"{"b":1,"a":[12345678901234567890123,-0.0,1e400,"sé",true,null,{}],"b":{"z":2}}"#)
        let inModel = try ModelDecoder().decode(JSONValue.self, from: Self.json, at: "a[6]")
        #expect(inModel == .object([]))
    }

    @Test("JSONText gives the compact text of a subtree, exactly as written")
    func extract() throws {
        let decoder = ModelDecoder()
        #expect(
            try decoder.decode(JSONText.self, from: Data(Self.json.utf8), at: "a").string
                == #"[12345678901234567890123,-0.0,1e400,"sé",true,null,{}]"#)
        #expect(
            try decoder.decode(JSONText.self, from: Data(#" { "x" : [ 1 , { "y" : "\"q\"" } ] } "#.utf8), at: "").string
                == #"{"x":[1,{"y":"\"q\""}]}"#)
        #expect(try decoder.decode(JSONText.self, from: Data(Self.json.utf8), at: "a[3]").string == #""sé""#)
        let elements = try decoder.elements(of: JSONText.self, at: "a[*]")
        #expect(
            try elements.feed(Data(Self.json.utf8)).map(\.string)
                == ["12345678901234567890123", "-0.0", "1e400", #""sé""#, "true", "null", "{}"])
    }

    @Test("Extracted strings and keys are written alike whether they had escapes or not, in any chunks")
    func extractEscapesInChunks() throws {
        // A string without escapes is copied as it is written; one with escapes, or cut by the end of a chunk, is
        // decoded by yajl and written again: the same text either way, JSONEncoder's without escaping slashes.
        let strings = [
            "plain", "a/b", "é日😀", "", #"q"uote"#, "back\\slash", "new\nline", "tab\tand\u{1}",
            "long " + String(repeating: "text ", count: 20),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        func written(_ string: String) throws -> String { String(decoding: try encoder.encode(string), as: UTF8.self) }
        // In the document: each string raw where it can be, and escaped (`\/`, `\u00e9` forms included).
        var members: [String] = []
        var expected: [String] = []
        for (index, string) in strings.enumerated() {
            let escaped = try written(string)
            let forced =
                "\"" + string.unicodeScalars.map { String(format: "\\u%04x", $0.value & 0xFFFF) }.joined() + "\""
            let plainEnough = !string.unicodeScalars.contains { $0.value > 0xFFFF }
            members.append("\(escaped): \(escaped)")
            expected.append("{\(escaped):\(escaped)}")
            if plainEnough {
                members.append("\(forced): \(forced)")
                expected.append("{\(escaped):\(escaped)}")
            }
            members.append(#""k\#(index)\/x": "\/\#(index)""#)
            expected.append(#"{"k\#(index)/x":"/\#(index)"}"#)
        }
        let json = Array(("[" + members.map { "{\($0)}" }.joined(separator: ", ") + "]").utf8)
        for size in [1, 2, 3, 5, 8, 13, 64, json.count] {
            let decoder = try ModelDecoder().elements(of: JSONText.self, at: "[*]")
            var found: [String] = []
            for chunk in chunks(json, size: size) { found += try decoder.feed(chunk).map(\.string) }
            found += try decoder.finish().map(\.string)
            #expect(found == expected, "chunks of \(size)")
        }
    }

    @Test("validate accepts well-formed documents and reports the first error")
    func validate() throws {
        try ModelDecoder().validate(Data(Self.json.utf8))
        try ModelDecoder().validate(try Corpus.data("citm_catalog.json"))
        #expect(throws: JSONDecodingError.self) { try ModelDecoder().validate(Data("[1, 2".utf8)) }
        #expect(throws: JSONDecodingError.self) {
            try ModelDecoder().validate(Data(String(repeating: "[", count: 600).utf8))
        }
        #expect(throws: JSONDecodingError.self) { try ModelDecoder().validate(Data("{} {}".utf8)) }
    }
}

@Suite struct JSONValueValueTests {
    @Test func literalsHashingAndPrinting() throws {
        let value: JSONValue = [
            "name": "a/b", "count": 2, "ratio": 0.5, "ok": true, "none": nil, "list": [1, 2.0, "x"],
        ]
        #expect(value.description == #"{"name":"a/b","count":2,"ratio":0.5,"ok":true,"none":null,"list":[1,2,"x"]}"#)
        #expect(value["list"]?[2] == "x")
        #expect(value["count"] == .number("2"))
        let decoded = try ModelDecoder().decode(JSONValue.self, from: value.description)
        #expect(decoded == value)
        #expect(Set([value, decoded, JSONValue.null]).count == 2)
        #expect("\(JSONValue.number("1e400"))" == "1e400")
    }
}
