import Foundation
@testable import HandyStream
import Testing

@Suite("Caps, paths and error positions")
struct TrustTests {
    @Test("maximumDepth: .max is honoured without overflow; the stack grows with the nesting met")
    func unboundedDepth() throws {
        let options = DecodingOptions(maximumDepth: .max)
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        let value = try ModelDecoder(options: options).decode(JSONValue.self, from: deep)
        var level = 0
        var current = value
        while case .array(let elements) = current, let first = elements.first {
            level += 1
            current = first
        }
        #expect(level == 4_999)
        #expect(try ModelDecoder(options: options).decode(Everything.self, from: #"{"list": [1, 2]}"#).list == [1, 2])
        #expect(try ModelDecoder(options: DecodingOptions(maximumDepth: 0)).decode(Int.self, from: "7") == 7)
    }

    @Test("The depth cap holds for path and value together")
    func capAcrossStages() throws {
        let options = DecodingOptions(maximumDepth: 10)
        let path = Array(repeating: "a", count: 6).joined(separator: ".")
        func document(valueDepth: Int) -> String {
            String(repeating: #"{"a":"#, count: 6) + String(repeating: "[", count: valueDepth)
                + String(repeating: "]", count: valueDepth) + String(repeating: "}", count: 6)
        }
        #expect(try ModelDecoder(options: options).decode(JSONValue.self, from: document(valueDepth: 4), at: path)
            != .null)
        let error = decodingError(JSONValue.self, document(valueDepth: 5), at: path, options: options)
        #expect(error?.kind == .tooDeep)
        #expect(error?.message == "nesting deeper than 10 levels")
        let elements = try ModelDecoder(options: options).elements(of: JSONValue.self, at: path)
        #expect(throws: JSONDecodingError.self) { _ = try elements.feed(Array(document(valueDepth: 5).utf8)) }
    }

    @Test("A path with [*] anywhere but once at the end is refused, not read as another path")
    func wildcardPaths() throws {
        for path in ["a[*][*]", "a[*].b", "[*][*]", "a[*][*][*]"] {
            let error = decodingError(JSONValue.self, #"{"a": [[1]]}"#, at: path)
            #expect(error?.kind == .invalidPath, "\(path)")
        }
        #expect(try ModelDecoder().decode([Int].self, from: #"{"a": [1, 2]}"#, at: "a[*]") == [1, 2])
    }

    @Test("A dictionary value that doesn't fit is reported at its own key")
    func dictionaryErrorKey() throws {
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        let error = decodingError([String: Int].self, #"{"a":1,"b":"x"}"#, options: strict.options)
        #expect(error?.path == "$.b")
        let shape = decodingError([String: Int].self, #"{"a":1,"b":[1]}"#, options: strict.options)
        #expect(shape?.path == "$.b")
    }
}
