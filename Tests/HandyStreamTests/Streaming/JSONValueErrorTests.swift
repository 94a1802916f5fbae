import Foundation
import HandyStream
import Testing

/// `JSONValue` is `Decodable`: whatever the entry point (the root, a designated path, a push decoder, a stream of
/// elements), bad input is a `DecodingError.dataCorrupted` at the empty coding path carrying HandyStream's location,
/// as for `[JSONValue]` and as `JSONDecoder` throws it.
@Suite struct JSONValueDecodingErrorTests {
    /// The location a `DecodingError.dataCorrupted` at the empty coding path carries; `nil` for any other outcome.
    static func located(_ body: () throws -> Void) -> JSONDecodingError? {
        do {
            try body()
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            return context.underlyingError as? JSONDecodingError
        } catch {
            Issue.record("not a DecodingError.dataCorrupted: \(error)")
        }
        return nil
    }

    static let strict = ModelDecoder(options: DecodingOptions(strict: true))

    @Test func malformedTruncatedAndTrailingCommas() throws {
        let cases: [(json: String, kind: JSONDecodingError.Kind)] = [
            ("[1, tru]", .malformed), ("[1,", .truncated), ("[1,]", .malformed), (#"{"a": 1,}"#, .malformed),
        ]
        for (json, kind) in cases {
            // `[JSONValue]` already throws so; `JSONValue` at the root must too.
            #expect(Self.located { _ = try Self.strict.decode([JSONValue].self, from: json) }?.kind == kind)
            #expect(Self.located { _ = try Self.strict.decode(JSONValue.self, from: json) }?.kind == kind, "\(json)")
            #expect(Self.located { _ = try ModelDecoder().decode(JSONValue.self, from: json) }?.kind == kind)
            let incremental = try Self.strict.incremental(JSONValue.self)
            let pushed = Self.located {
                try incremental.feed(Array(json.utf8))
                _ = try incremental.finish()
            }
            #expect(pushed?.kind == kind, "\(json), pushed")
            let elements = try Self.strict.elements(of: JSONValue.self, at: "[*]")
            let streamed = Self.located {
                _ = try elements.feed(Array("[0, \(json)\(kind == .truncated ? "" : "]")".utf8))
                _ = try elements.finish()
            }
            #expect(streamed?.kind == kind, "\(json), streamed")
        }
        // JSONDecoder throws a DecodingError for JSONValue too (it accepts trailing commas).
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(JSONValue.self, from: Data("[1, tru]".utf8)) }
    }

    @Test func missingPath() throws {
        let json = #"{"a": {"b": 1}}"#
        let atPath = Self.located { _ = try Self.strict.decode(JSONValue.self, from: json, at: "a.c") }
        #expect(atPath?.kind == .pathNotFound)
        let array = Self.located { _ = try Self.strict.decode([JSONValue].self, from: json, at: "c") }
        #expect(array?.kind == .pathNotFound)
        let values = try Self.strict.values(of: JSONValue.self, at: "c")
        let missing = Self.located {
            _ = try values.feed(Array(json.utf8))
            _ = try values.finish()
        }
        #expect(missing?.kind == .pathNotFound)
    }
}
