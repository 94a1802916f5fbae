@testable import HandyStream
import Foundation
import Testing

/// Decodes and returns the thrown `JSONDecodingError` (for a `Decodable` type, the location its `DecodingError`
/// carries as its underlying error), recording an issue when there is none.
func decodingError<T>(
    _ type: T.Type, _ json: String, at path: String = "", options: DecodingOptions = DecodingOptions(),
    sourceLocation: SourceLocation = #_sourceLocation
) -> JSONDecodingError? {
    do {
        let value = try ModelDecoder(options: options).decode(type, from: json, at: path)
        Issue.record("expected an error, decoded \(value)", sourceLocation: sourceLocation)
    } catch let error as JSONDecodingError {
        return error
    } catch let error as DecodingError {
        if let location = error.context?.underlyingError as? JSONDecodingError { return location }
        Issue.record("a DecodingError without its location: \(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

@Suite("ModelDecoder")
struct ModelDecoderTests {
    @Test("Decodes models, arrays and scalars from String, Data and [UInt8]")
    func decodes() throws {
        let decoder = ModelDecoder()
        #expect(try decoder.decode(Owner.self, from: #"{"name": "A"}"#).name == "A")
        #expect(try decoder.decode(Owner.self, from: Data(#"{"age": 1}"#.utf8)).age == 1)
        #expect(try decoder.decode([Owner].self, from: Array(#"[{"age": 2}]"#.utf8)).map(\.age) == [2])
        #expect(try decoder.decode(Int.self, from: #"{"a": [10, 20]}"#, at: "a[1]") == 20)
        #expect(try decoder.decode([String: Int].self, from: #"{"x": 1}"#) == ["x": 1])
        #expect(try decoder.decode(String.self, from: #"{"deep": {"er": "s"}}"#, at: "deep.er") == "s")
    }

    @Test("Malformed JSON: kind, message, offset, line, column, path and snippet")
    func malformed() throws {
        let json = "{\"data\": {\"items\": [\n  {\"price\": 1},\n  {\"price\": 2 \"x\": 3}\n]}}"
        let error = try #require(decodingError(Page<Owner>.self, json))
        #expect(error.kind == .malformed)
        // yajl stops inside the offending token (the "x" where a ',' belongs); `data` is not a property of Page,
        // so the builder was skipping it.
        #expect(error.description == "3:17: expected ',' or '}' after an object member at $.data")
        #expect(error.offset == 53)
        #expect(error.line == 3 && error.column == 17)
        #expect(error.snippet == "  {\"price\": 2 \"x\": 3}\n                ^")
    }

    @Test("Errors inside a designated path carry the JSON path")
    func pathInErrors() throws {
        let json = #"{"data": {"items": [{"name": "a"}, {"name": "b", "age": tru}]}}"#
        let error = try #require(decodingError([Owner].self, json, at: "data.items"))
        #expect(error.description == "1:60: invalid literal (expected true, false or null) at $.data.items[1].age")
    }

    @Test("Truncated input and empty input")
    func truncated() throws {
        let error = try #require(decodingError(Owner.self, #"{"name": "Ann", "age": 3"#))
        #expect(error.kind == .truncated)
        #expect(error.description == "1:25: unexpected end of input at $")
        let empty = try #require(decodingError(Owner.self, ""))
        #expect(empty.description == "1:1: unexpected end of input at $")
    }

    @Test("A path that isn't there")
    func pathNotFound() throws {
        let json = #"{"data": {"cat": {"name": "Tom"}, "list": [1]}}"#
        let missingKey = try #require(decodingError(Owner.self, json, at: "data.dog"))
        #expect(missingKey.kind == .pathNotFound)
        #expect(missingKey.description == "1:47: path 'data.dog' not found: no key 'dog' in the object at $.data")
        let missingIndex = try #require(decodingError(Int.self, json, at: "data.list[3]"))
        #expect(
            missingIndex.description
                == "1:46: path 'data.list[3]' not found: no element [3] in the array at $.data.list")
        let wrongShape = try #require(decodingError(Owner.self, json, at: "data.cat.name.first"))
        #expect(
            wrongShape.description
                == "1:32: path 'data.cat.name.first' not found: found a scalar value instead of an object at $.data.cat.name"
        )
        let invalid = expectError(.invalidPath) {
            try ModelDecoder().decode(Owner.self, from: json, at: "data[x]")
        }
        #expect(
            invalid?.description
                == "invalid path 'data[x]': '[x]' is neither an index nor [*]; write \\[ for a key containing '['")
    }

    @Test("The root value must fit the type asked for")
    func rootMismatch() throws {
        let error = try #require(decodingError(Owner.self, "[1, 2]"))
        #expect(error.kind == .typeMismatch)
        #expect(error.description == "1:2: expected an object, found an array at $")
        // Where the value is (just past its first token), not at the start of the document.
        let scalar = try #require(decodingError(Int.self, #"{"a": "x"}"#, at: "a"))
        #expect(scalar.description.hasPrefix("1:10: "))
        #expect(scalar.description.hasSuffix(" at $.a"))
    }

    @Test("Invalid UTF-8 in a string")
    func invalidUTF8() throws {
        let bytes: [UInt8] = Array(#"{"name": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        do {
            _ = try ModelDecoder().decode(Owner.self, from: bytes)
            Issue.record("expected an error")
        } catch let error as JSONDecodingError {
            #expect(error.kind == .invalidUTF8)
            #expect(error.description == "1:11: invalid UTF-8 in a string at $.name")
        }
    }

    @Test("Nesting past the cap is an error, not a stack overflow")
    func tooDeep() throws {
        let deep = String(repeating: "[", count: 100_000)
        let error = try #require(decodingError([Any].self, deep))
        #expect(error.kind == .tooDeep)
        #expect(error.message == "nesting deeper than 512 levels")
        let skipped = try #require(decodingError(Owner.self, #"{"x": "# + deep))
        #expect(skipped.kind == .tooDeep, "skipped subtrees count too")
        let custom = try #require(decodingError([Any].self, "[[[[1]]]]", options: DecodingOptions(maximumDepth: 3)))
        // Errors found by the builder point just past the token that caused them: here the fourth '['.
        #expect(custom.description == "1:5: nesting deeper than 3 levels at $[0][0][0]")
    }

    @Test("Strict mode turns every fallback into an error with its path, saying what was found (nothing was kept)")
    func strict() throws {
        let strict = DecodingOptions(strict: true)
        let error = try #require(
            decodingError(
                Containers.self, #"{"owners": [{"name": "a"}, {"age": "old"}]}"#, options: strict))
        #expect(error.kind == .typeMismatch)
        #expect(
            error.description
                == "1:41: expected an integer that fits Int, found a string at $.owners[1].age")
        let dropped = try #require(decodingError(Containers.self, #"{"ints": [1, "x"]}"#, options: strict))
        #expect(
            dropped.description
                == "1:17: expected an integer that fits Int, found a string at $.ints[1]")
        let scalarForArray = try #require(decodingError(Containers.self, #"{"owners": 3}"#, options: strict))
        #expect(scalarForArray.description.hasSuffix(": expected an array, found the number 3 at $.owners"))
        #expect(try ModelDecoder(options: strict).decode(Owner.self, from: #"{"age": "3", "other": [1]}"#).age == 3)
    }

    @Test("Diagnostics hear of every fallback without changing the result")
    func diagnostics() throws {
        let heard = Locked<[String]>([])
        let options = DecodingOptions(diagnostics: { diagnostic in
            heard.withLock { $0.append(diagnostic.description) }
        })
        let model = try ModelDecoder(options: options).decode(
            Containers.self, #"{"ints": [1, "x"], "species": "bird", "owners": 3}"#)
        #expect(model.ints == [1])
        #expect(
            heard.withLock { $0 } == [
                "$.ints[1]: expected an integer that fits Int, found a string; the element was dropped",
                "$.species: expected a raw value of Species, found a string; the default was kept",
                "$.owners: expected an array, found the number 3; the default was kept",
            ])
    }
}

/// A `Codable` type that refuses some values itself (no mode can rescue them).
private struct Span: Codable, Equatable {
    var start: Int
    var end: Int

    init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decode(Int.self, forKey: .start)
        end = try container.decode(Int.self, forKey: .end)
        guard start <= end else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "end < start"))
        }
    }
}

private struct Interval: HandyJSON {
    var span = Span(start: 0, end: 0)
}

@Suite("Fallback paths")
struct FallbackPathTests {
    @Test("A container that does not fit its property is reported at the property's path")
    func containerPath() throws {
        let heard = Locked<[String]>([])
        let options = DecodingOptions(diagnostics: { diagnostic in
            heard.withLock { $0.append(diagnostic.description) }
        })
        let interval = try ModelDecoder(options: options).decode(
            Interval.self, from: #"{"span": {"start": 2, "end": 1}}"#)
        #expect(interval.span == Span(start: 0, end: 0))
        let messages = heard.withLock { $0 }
        #expect(messages.last?.hasPrefix("$.span: ") == true, "\(messages)")
        #expect(messages.last?.hasSuffix("; the default was kept") == true, "\(messages)")
    }
}

extension ModelDecoder {
    fileprivate func decode<T>(_ type: T.Type, _ json: String) throws -> T { try decode(type, from: json) }
}

extension DecodingError {
    /// The error's context, whatever its case.
    var context: DecodingError.Context? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context
        @unknown default: nil
        }
    }
}
