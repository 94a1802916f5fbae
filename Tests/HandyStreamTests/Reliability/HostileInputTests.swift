import Foundation
@testable import HandyStream
import HandyJSON
import Testing

struct Everything: HandyJSON {
    var int = 0
    var double = 0.0
    var string = ""
    var bool = false
    var optional: Int?
    var list: [Int] = []
    var nested: Owner?
    var any: Any?
    var map: [String: Double] = [:]
}

/// Reads the resident memory of this process, in bytes, from /proc.
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

@Suite("Hostile and broken input")
struct HostileInputTests {
    @Test("A document cut at every byte position is an error, never a crash")
    func truncatedEverywhere() throws {
        let document = Array(try Corpus.data("twitter_timeline.json").prefix(2_500))
        // The prefix itself is cut mid-document, so no prefix of it is a complete document.
        for cut in 0..<document.count {
            let prefix = Array(document[..<cut])
            #expect(throws: JSONDecodingError.self, "cut at \(cut)") {
                try ModelDecoder().decode(Any.self, from: prefix)
            }
        }
        let full = Array(try Corpus.data("github_events.json"))
        for cut in stride(from: 0, to: full.count - 1, by: 409) {
            let error = decodingError([Any].self, String(decoding: full[..<cut], as: UTF8.self))
            #expect(error?.kind == .truncated || error?.kind == .malformed || error?.kind == .invalidUTF8, "\(cut)")
        }
    }

    @Test("400-digit numbers: exact text for String, the default for numbers")
    func hugeNumbers() throws {
        let digits = "9" + String(repeating: "8", count: 399)
        let model = try ModelDecoder().decode(
            Everything.self,
            from: #"{"int": \#(digits), "double": \#(digits), "string": \#(digits), "optional": -\#(digits)}"#)
        #expect(model.int == 0)
        #expect(model.double == 0)
        #expect(model.string == digits)
        #expect(model.optional == nil)
        #expect(try ModelDecoder().decode(JSONValue.self, from: "[\(digits)]")[0] == .number(digits))
        let small = "0." + String(repeating: "0", count: 400) + "1"
        #expect(try ModelDecoder().decode(Double.self, from: small) == 0)
        #expect(throws: JSONDecodingError.self) {
            try ModelDecoder(options: DecodingOptions(strict: true)).decode(
                Everything.self, from: #"{"int": \#(digits)}"#)
        }
    }

    @Test("A 100 MB string")
    func hugeString() throws {
        let count = 100 * 1_048_576
        var document = Array(#"{"string": ""#.utf8)
        document.reserveCapacity(count + 32)
        document.append(contentsOf: repeatElement(UInt8(ascii: "a"), count: count))
        document.append(contentsOf: Array(#"", "int": 3}"#.utf8))
        let model = try ModelDecoder().decode(Everything.self, from: document)
        #expect(model.string.utf8.count == count)
        #expect(model.int == 3)
    }

    @Test("NUL: raw in a string or outside is malformed; escaped it is a character")
    func nulBytes() throws {
        #expect(decodingError(Everything.self, "{\"string\": \"a\u{0}b\"}")?.kind == .malformed)
        #expect(decodingError(Everything.self, "{\"int\": 1}\u{0}")?.kind == .malformed)
        let escaped = try ModelDecoder().decode(Everything.self, from: #"{"string": "a\u0000b"}"#)
        #expect(escaped.string == "a\u{0}b")
    }

    @Test("Empty and whitespace-only input")
    func empty() throws {
        #expect(decodingError(Everything.self, "")?.description == "1:1: unexpected end of input at $")
        #expect(decodingError(Everything.self, " \n\t\r\n ")?.description == "3:2: unexpected end of input at $")
    }

    @Test("Invalid UTF-8 in a key is an error too")
    func invalidKey() throws {
        let bytes: [UInt8] = Array(#"{""#.utf8) + [0xFF, 0xFE] + Array(#"": 1}"#.utf8)
        do {
            _ = try ModelDecoder().decode(Everything.self, from: bytes)
            Issue.record("expected an error")
        } catch let error as JSONDecodingError {
            #expect(error.kind == .invalidUTF8)
        }
    }

    @Test("Wrong types everywhere keep the defaults and never trap")
    func wrongTypes() throws {
        let model = try ModelDecoder().decode(
            Everything.self,
            from: """
                {"int": {"a": [1]}, "double": [1, 2], "string": {}, "bool": [], "optional": "x", "list": {"a": 1},
                 "nested": [1], "map": [1], "any": {"deep": [[[]]]}}
                """)
        #expect(model.int == 0 && model.double == 0 && model.string == "" && model.bool == false)
        #expect(model.optional == nil && model.list.isEmpty && model.nested == nil && model.map.isEmpty)
        #expect((model.any as? [String: Any])?["deep"] != nil)
    }

    @Test("Decoded models are released: nothing keeps them alive, in a loop or after an error")
    func released() throws {
        let data = try Corpus.data("twitter.json")
        weak var shelter: Shelter?
        weak var node: Node?
        for _ in 0..<20 {
            try autoreleasepoolIfAvailable {
                let decoded = try #require(Shelter.deserialize(from: #"{"name": "S", "owners": [{"age": 1}]}"#))
                shelter = decoded
                let tree = try ModelDecoder().decode(Node.self, from: #"{"children": [{"value": 1}], "parent": {}}"#)
                node = tree.children.first
                _ = try ModelEncoder().encode(tree)
                _ = try ModelDecoder().decode(SearchResult.self, from: data)
                // A document that fails half-way leaves nothing behind either.
                _ = try? ModelDecoder().decode(Node.self, from: #"{"children": [{"value": 1}, {"value": "#)
            }
            #expect(shelter == nil)
            #expect(node == nil)
        }
    }
}

/// Runs `body` (there is no autorelease pool on Linux).
func autoreleasepoolIfAvailable(_ body: () throws -> Void) rethrows { try body() }

extension HostileInputTests {
    /// A run that decoded a `Decodable` scalar frees what its `Decodable` values shared: the scalar decoder it keeps
    /// holds that context, which must not keep itself alive.
    @Test("A run's Codable context is freed after a Decodable scalar")
    func codableContextFreed() throws {
        enum Mood: String, Decodable { case happy }
        weak var context: CodableContext?
        do {
            let run = DecodingRun(options: DecodingOptions())
            context = run.codable
            _ = context?.decoderForScalar()
        }
        #expect(context == nil)
        #expect(try ModelDecoder().decode(Mood.self, from: #""happy""#) == .happy)
    }
}
