import Foundation
@testable import HandyStream
import Testing

/// The grammar's meaning, written as plainly as possible over a parsed value: the reference the streaming matcher is
/// checked against. A key takes its first occurrence; wildcards take every element or member, in order.
func referenceMatches(_ segments: ArraySlice<DesignatedPath.Segment>, in value: JSONValue) -> [JSONValue] {
    guard let first = segments.first else { return [value] }
    let rest = segments.dropFirst()
    switch (first, value) {
    case (.key(let key), .object(let members)):
        return members.first { Array($0.key.utf8) == key }.map { referenceMatches(rest, in: $0.value) } ?? []
    case (.everyMember, .object(let members)):
        return members.flatMap { referenceMatches(rest, in: $0.value) }
    case (.index(let index), .array(let elements)):
        return index < elements.count ? referenceMatches(rest, in: elements[index]) : []
    case (.everyElement, .array(let elements)):
        return elements.flatMap { referenceMatches(rest, in: $0) }
    default:
        return []
    }
}

@Suite("Wildcard paths")
struct WildcardPathTests {
    static let document = """
        {"data": [{"id": 1, "items": [{"n": "a"}, {"n": "b"}], "tags": {"x": 1, "y": [2]}},
                  {"id": 2, "items": [], "tags": {}},
                  {"id": 3, "items": [{"n": "c"}, 7, {"m": "d"}], "tags": {"z": null}},
                  "no object", [1, 2],
                  {"id": 4, "items": {"n": "not an array"}}],
         "rates": {"EUR": 1.1, "GBP": {"v": 1.3}, "JPY": [0.007]}, "after": true}
        """

    static let paths = [
        "data[*].id", "data[*].items[*]", "data[*].items[*].n", "data[*].tags.*", "rates.*", "rates.*.v",
        "data[*].items[0].n", "data[2].items[*]", "data[*]", "*", "*[*]", "data[*].*", "rates.*[*]",
    ]

    @Test(
        "Every match, in document order, at every chunk size: streamed, and collected into an array",
        arguments: paths)
    func matchesReference(path: String) throws {
        let bytes = Array(Self.document.utf8)
        let parsed = try DesignatedPath(parsing: path)
        let whole = try ModelDecoder().decode(JSONValue.self, from: bytes)
        let expected = referenceMatches(parsed.segments[...], in: whole)
        #expect(try ModelDecoder().decode([JSONValue].self, from: bytes, at: path) == expected)
        for size in 1...bytes.count {
            let stream = try ModelDecoder().elements(of: JSONValue.self, at: path)
            var found: [JSONValue] = []
            for chunk in chunks(bytes, size: size) { found += try stream.feed(chunk) }
            found += try stream.finish()
            #expect(found == expected, "\(path), chunks of \(size)")
            let collected = try ModelDecoder().incremental([JSONValue].self, at: path)
            for chunk in chunks(bytes, size: size) where try collected.feed(chunk) { break }
            #expect(try collected.finish() == expected, "\(path) collected, chunks of \(size)")
        }
    }

    @Test("The corpus: every status's user, every hashtag of every status, the members of an object")
    func corpus() throws {
        let twitter = try Corpus.data("twitter.json")
        let whole = try ModelDecoder().decode(JSONValue.self, from: twitter)
        for path in [
            "statuses[*].user.screen_name", "statuses[*].entities.hashtags[*].text", "search_metadata.*",
            "statuses[*].entities.*[*].indices[0]",
        ] {
            let expected = referenceMatches(try DesignatedPath(parsing: path).segments[...], in: whole)
            #expect(!expected.isEmpty)
            #expect(try ModelDecoder().decode([JSONValue].self, from: twitter, at: path) == expected, "\(path)")
            var streamed: [JSONValue] = []
            try ModelDecoder().forEachElement(
                of: JSONValue.self, at: path, inFileAt: Corpus.path("twitter.json"),
                chunkSize: 4_096
            ) { streamed.append($0) }
            #expect(streamed == expected, "\(path)")
        }
        let users = try ModelDecoder().decode([TwitterUserName].self, from: twitter, at: "statuses[*].user")
        #expect(users.count == 100)
        #expect(users.first?.screen_name.isEmpty == false)
    }

    @Test("Before the first wildcard the path must be there; after it, what lacks the rest is no match")
    func missingParts() throws {
        let error = decodingError([JSONValue].self, #"{"a": {"b": [1]}}"#, at: "a.c[*]")
        #expect(error?.description == "1:17: path 'a.c[*]' not found: no key 'c' in the object at $.a")
        let shape = decodingError([JSONValue].self, #"{"a": {"b": 1}}"#, at: "a[*]")
        #expect(shape?.kind == .pathNotFound)
        #expect(
            try ModelDecoder().decode(
                [Int].self, from: #"{"a": [{"b": 1}, {"c": 2}, 3, {"b": "x"}]}"#,
                at: "a[*].b") == [1])
    }

    @Test("A streamed match's path names its own array and index, however many arrays the matches come from")
    func pathsOfMatchesInSeveralArrays() throws {
        // Two levels of arrays: each element of `items` is handed on from the array it is in, and the next array,
        // at the same depth, has another path. Every element here has an `n` that doesn't fit.
        let json = #"""
            {"data": [{"items": [{"n": "a"}, {"n": "b"}]}, {"items": []}, {"items": [{"n": "c"}]},
                      {"other": [{"n": "x"}]}, {"items": [{"n": "d"}, {"n": "e"}, {"n": "f"}]}]}
            """#
        let heard = DiagnosticsHeard()
        var options = DecodingOptions()
        options.diagnostics = { heard.append($0.path) }
        let bytes = Array(json.utf8)
        for size in [1, 5, bytes.count] {
            heard.removeAll()
            let stream = try ModelDecoder(options: options).elements(of: WildcardNumbered.self, at: "data[*].items[*]")
            var count = 0
            for chunk in chunks(bytes, size: size) { count += try stream.feed(chunk).count }
            count += try stream.finish().count
            #expect(count == 6)
            #expect(
                heard.all == [
                    "$.data[0].items[0].n", "$.data[0].items[1].n", "$.data[2].items[0].n", "$.data[4].items[0].n",
                    "$.data[4].items[1].n", "$.data[4].items[2].n",
                ], "chunks of \(size)")
        }
        // Strict mode: the first element that doesn't fit, in the second array, stops the stream with its path,
        // after the elements completed before it.
        let strict = try ModelDecoder(options: DecodingOptions(strict: true)).elements(
            of: WildcardNumbered.self, at: "data[*].items[*]")
        let input = #"{"data": [{"items": [{"n": 1}, {"n": 2}]}, {"items": [{"n": 3}, {"n": "x"}]}]}"#
        var delivered: [Int] = []
        var thrown: JSONDecodingError?
        do {
            delivered += try strict.feed(Array(input.utf8)).map(\.n)
            delivered += try strict.finish().map(\.n)
        } catch let error as JSONDecodingError {
            thrown = error
        }
        #expect(delivered == [1, 2, 3])
        #expect(thrown?.path == "$.data[1].items[1].n", "\(String(describing: thrown))")
    }

    @Test("Collecting stops reading once nothing more can match")
    func collectingStopsEarly() throws {
        let head = #"{"list": [{"v": 1}, {"v": 2}], "rest": ["#
        let decoder = try ModelDecoder().incremental([Int].self, at: "list[*].v")
        #expect(try decoder.feed(Array(head.utf8)) == true)
        #expect(try decoder.finish() == [1, 2])
        #expect(decoder.bytesFed == head.utf8.count)
        let listEnd = head.utf8.count - #", "rest": ["#.utf8.count
        #expect(decoder.bytesRead == listEnd, "read up to the ']' that closes the list")
    }
}

struct WildcardNumbered: HandyJSON {
    var n = 0
}

/// The paths of the diagnostics heard (the handler is `@Sendable`).
final class DiagnosticsHeard: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String] = []
    func append(_ path: String) { lock.withLock { paths.append(path) } }
    func removeAll() { lock.withLock { paths.removeAll() } }
    var all: [String] { lock.withLock { paths } }
}

struct TwitterUserName: HandyJSON {
    var screen_name = ""
}
