@testable import HandyStream
import HandyJSON
import Foundation
import Testing

@Suite("Designated paths")
struct DesignatedPathTests {
    @Test(
        "Parsing",
        arguments: [
            ("data.cat", "$.data.cat"),
            ("..data..cat.", "$.data.cat"),
            ("list[3].name", "$.list[3].name"),
            ("a\\.b.c", "$.a.b.c"),
            ("items[*]", "$.items[*]"),
            ("a[*][*].b.*", "$.a[*][*].b.*"),
            ("a.\\*", "$.a.*"),
            ("", "$"),
            ("[0][1]", "$[0][1]"),
        ])
    func parsing(text: String, jsonPath: String) throws {
        let path = try DesignatedPath(parsing: text)
        #expect(path.jsonPath == jsonPath)
    }

    @Test("An escaped dot is part of the key")
    func escapedDot() throws {
        #expect(try DesignatedPath(parsing: "a\\.b").segments == [.key(Array("a.b".utf8))])
        #expect(try ModelDecoder().decode(Int.self, from: #"{"a.b": 1, "a": {"b": 2}}"#, at: "a\\.b") == 1)
        #expect(try ModelDecoder().decode(Int.self, from: #"{"a.b": 1, "a": {"b": 2}}"#, at: "a.b") == 2)
    }

    @Test(
        "A mapped key is the same syntax with keys only: brackets, '*' and a trailing backslash are characters",
        arguments: [
            ("userInfo.age", ["userInfo", "age"]),
            ("a\\.b", ["a.b"]),
            ("..a..b.", ["a", "b"]),
            ("list[0]", ["list[0]"]),
            ("a[", ["a["]),
            ("*", ["*"]),
            ("a.\\*", ["a", "*"]),
            ("a\\", ["a\\"]),
            ("", []),
        ])
    func mappedKeys(text: String, segments: [String]) {
        #expect(DesignatedPath.mappedKey(text) == segments.map { Array($0.utf8) })
    }

    @Test("A mapped key with brackets reads the member of that name, in models and in Codable types")
    func mappedKeyWithBrackets() throws {
        final class Model: HandyJSON {
            var first = 0
            required init() {}
            func mapping(mapper: HelpingMapper) { mapper <<< self.first <-- "list[0]" }
        }
        struct Value: Decodable, HandyJSON {
            var first = 0
            mutating func mapping(mapper: HelpingMapper) { mapper <<< first <-- "list[0]" }
        }
        let json = #"{"list": [1], "list[0]": 2}"#
        #expect(Model.deserialize(from: json)?.first == 2)
        #expect(try ModelDecoder().decode(Value.self, from: json).first == 2)
    }

    @Test("Malformed paths", arguments: ["a[", "a[x]", "a\\", "a[*", "a[-1]"])
    func malformed(text: String) {
        expectError(.invalidPath) { try DesignatedPath(parsing: text) }
    }

    @Test("Siblings before the path are skipped, whatever they hold")
    func skipsSiblings() throws {
        let json =
            #"{"a": {"cat": {"name": "wrong"}}, "b": [[{"x": {}}], "s", null], "data": {"z": 1, "cat": {"name": "right"}}}"#
        #expect(try ModelDecoder().decode(Owner.self, from: json, at: "data.cat").name == "right")
        #expect(try ModelDecoder().decode(String.self, from: json, at: "b[1]") == "s")
        #expect(try ModelDecoder().decode(Owner.self, from: json, at: "b[0][0]").name == "")
    }

    @Test("A path twelve levels deep: the filter's levels grow and keep their keys and paths")
    func deepPath() throws {
        let keys = (0..<12).map { "k\($0)" }
        var json = #"[10, 20, {"found": 30}]"#
        for key in keys.reversed() { json = #"{"skip": {"x": [1]}, "\#(key)": \#(json), "after": 0}"# }
        let path = keys.joined(separator: ".")
        #expect(try ModelDecoder().decode(Int.self, from: json, at: path + "[1]") == 20)
        #expect(try ModelDecoder().decode(Int.self, from: json, at: path + "[2].found") == 30)
        let missing = expectError(.pathNotFound) {
            try ModelDecoder().decode(Owner.self, from: json, at: path + "[2].lost")
        }
        #expect(missing?.path == "$." + path + "[2]")
    }

    @Test("The first occurrence of a key on the path wins, and reading stops there")
    func firstOccurrence() throws {
        let json = #"{"data": {"v": 1}, "data": {"v": 2}}"#
        #expect(try ModelDecoder().decode(Int.self, from: json, at: "data.v") == 1)
    }

    @Test("Reading stops once the designated value is complete: 100 MB after it are never read")
    func stopsEarly() throws {
        let head = #"{"data": {"cat": {"name": "Tom", "age": 3}}, "rest": ["#
        var document = Array(head.utf8)
        let block = Array((String(repeating: #""0123456789abcdef", "#, count: 64)).utf8)
        document.reserveCapacity(100 * 1_048_576 + 1_024)
        while document.count < 100 * 1_048_576 { document += block }
        document += Array(#""end"]}"#.utf8)
        let codec = try #require(TypeRegistry.codec(for: Owner.self).codec)
        let path = try DesignatedPath(parsing: "data.cat")
        let pipeline = DecodingPipeline<Owner>(codec: codec, path: path, options: .init(), mode: .value)
        let value = try document.withUnsafeBytes { try pipeline.decode(document: $0) }
        #expect(value?.name == "Tom")
        #expect(value?.age == 3)
        #expect(pipeline.bytesRead == 42, "read up to the '}' that closes data.cat, not \(document.count) bytes")

        let small = Array(#"{"data": {"cat": {"name": "Tom", "age": 3}}}"#.utf8)
        let smallPipeline = DecodingPipeline<Owner>(codec: codec, path: path, options: .init(), mode: .value)
        _ = try small.withUnsafeBytes { try smallPipeline.decode(document: $0) }
        #expect(smallPipeline.bytesRead == 42)
    }
}
