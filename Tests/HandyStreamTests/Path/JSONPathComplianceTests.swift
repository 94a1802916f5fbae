import Foundation
@testable import HandyStream
import Testing

/// The JSONPath Compliance Test Suite (github.com/jsonpath-standard/jsonpath-compliance-test-suite, BSD-2 licence,
/// copied in `Fixtures/jsonpath-cts` with its LICENSE and NOTICE, `cts.json` as built at commit 7be7c1f): every valid
/// query gives the suite's nodelist and normalized paths (one of its allowed orders where it lists several), every
/// invalid one is refused.
enum ComplianceSuite {
    struct Case: CustomTestStringConvertible {
        var name: String
        var selector: String
        var document: JSONValue?
        /// The allowed nodelists: values and normalized paths; empty for an invalid query.
        var results: [(values: [JSONValue], paths: [String])]
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/jsonpath-cts/cts.json")
        guard let data = try? Data(contentsOf: url), let suite = try? ModelDecoder().decode(JSONValue.self, from: data),
            case .array(let tests)? = suite["tests"]
        else { return [] }
        return tests.map { test in
            func strings(_ value: JSONValue?) -> [String] {
                guard case .array(let items)? = value else { return [] }
                return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
            }
            func values(_ value: JSONValue?) -> [JSONValue] {
                guard case .array(let items)? = value else { return [] }
                return items
            }
            var results: [(values: [JSONValue], paths: [String])] = []
            if test["invalid_selector"] == nil {
                if test["result"] != nil {
                    results = [(values(test["result"]), strings(test["result_paths"]))]
                } else {
                    results = zip(values(test["results"]), values(test["results_paths"])).map {
                        (values($0), strings($1))
                    }
                }
            }
            guard case .string(let name)? = test["name"], case .string(let selector)? = test["selector"] else {
                return Case(name: "unreadable case", selector: "", document: nil, results: [])
            }
            return Case(name: name, selector: selector, document: test["document"], results: results)
        }
    }()
}

@Suite("JSONPath compliance")
struct JSONPathComplianceTests {
    @Test("The suite is all there")
    func suiteLoaded() {
        #expect(ComplianceSuite.cases.count == 703)
        #expect(ComplianceSuite.cases.filter { $0.document == nil }.count == 247)
    }

    @Test("Each case, evaluated on a whole value", arguments: ComplianceSuite.cases)
    func wholeValue(_ test: ComplianceSuite.Case) {
        guard let document = test.document else {
            expectError(.invalidPath) { try JSONPath(parsing: test.selector) }
            return
        }
        let query: JSONPath
        do {
            query = try JSONPath(parsing: test.selector)
        } catch {
            Issue.record("\(test.selector): \(error)")
            return
        }
        let nodes = query.nodes(in: document)
        let values = nodes.map(\.value)
        let paths = nodes.map { JSONPath.normalized($0.location) }
        #expect(
            test.results.contains { $0.values == values && $0.paths == paths },
            "\(test.selector): got \(values) at \(paths), expected \(test.results.map(\.values))")
    }

    static let valid = ComplianceSuite.cases.filter { $0.document != nil }

    @Test("Each valid case gives the suite's nodelist on a stream, whole and in chunks of 1 and 7 bytes")
    func streamed() throws {
        #expect(Self.valid.count == 456)
        for test in Self.valid {
            let text = Array(try #require(test.document).description.utf8)
            for chunkSize in [text.count, 1, 7] {
                let decoder = try ModelDecoder().values(of: JSONValue.self, at: test.selector)
                var values: [JSONValue] = []
                var start = 0
                while start < text.count {
                    values += try decoder.feed(text[start..<min(start + chunkSize, text.count)])
                    start += chunkSize
                }
                values += try decoder.finish()
                #expect(
                    test.results.contains { $0.values == values },
                    "\(test.name): \(test.selector) in chunks of \(chunkSize): got \(values)")
            }
        }
    }

    @Test("A query decodes models: one value for a singular query, every match as an array for the others")
    func decodingAtQueries() throws {
        struct Book: HandyJSON, Equatable {
            var title = ""
            var price = 0.0
        }
        let json = #"{"store": {"book": [{"title": "A", "price": "8.5"}, {"title": "B", "price": 12}], "n": 2}}"#
        let decoder = ModelDecoder()
        #expect(try decoder.decode(Book.self, from: json, at: "$.store.book[1]") == Book(title: "B", price: 12))
        #expect(try decoder.decode([String].self, from: json, at: "$.store.book[*].title") == ["A", "B"])
        #expect(try decoder.decode([String].self, from: json, at: "$['store']['book'][*]['title']") == ["A", "B"])
        #expect(try decoder.decode([Int].self, from: json, at: "$.store.*.n") == [])
        #expect(try decoder.decode([Book].self, from: json, at: "$.nothing[*]") == [])
        expectError(.pathNotFound) { try decoder.decode(Book.self, from: json, at: "$.store.book[5]") }
    }

    @Test("A filter's matches come as their candidates end, before the array does; decode collects them")
    func filtersOnAStream() throws {
        let decoder = try ModelDecoder().elements(of: JSONValue.self, at: "$.items[?@.n > 2].n")
        #expect(try decoder.feed(Array(#"{"items": [{"n": 1}, {"n": 5}"#.utf8)) == [5])
        #expect(try decoder.feed(Array(#", {"n": 7, "m": [1]}, 3"#.utf8)) == [7])
        #expect(try decoder.feed(Array("]}".utf8)) == [])
        #expect(try decoder.finish() == [])
        let json = #"{"store": {"book": [{"title": "A", "price": 8.5}, {"title": "B", "price": 12}]}}"#
        let titles = try ModelDecoder().decode([String].self, from: json, at: "$.store.book[?@.price < 10].title")
        #expect(titles == ["A"])
        #expect(try ModelDecoder().decode([Int].self, from: json, at: "$.store.book[?@.pages].pages") == [])
        let members = try ModelDecoder().decode([Double].self, from: json, at: "$.store.book[*][?@ > 10]")
        #expect(members == [12])
    }

    @Test("Each valid case's normalized paths on a stream: the suite's, in chunks of 1 and 7 bytes and whole")
    func streamedPaths() throws {
        for test in Self.valid {
            let text = Array(try #require(test.document).description.utf8)
            let whole = try ModelDecoder().matches(of: test.selector, in: text)
            #expect(
                test.results.contains { $0.values == whole.map(\.value) && $0.paths == whole.map(\.path) },
                "\(test.name): \(test.selector) gave \(whole.map(\.path))")
            for chunkSize in [1, 7] {
                let decoder = try ModelDecoder().values(of: JSONValue.self, at: test.selector)
                decoder.recordPaths()
                var paths: [String] = []
                // Each chunk's paths are those of the values it gave, not of a match begun in it.
                for start in stride(from: 0, to: text.count, by: chunkSize) {
                    let values = try decoder.feed(text[start..<min(start + chunkSize, text.count)])
                    let taken = decoder.takePaths()
                    #expect(taken.count == values.count, "\(test.selector) in chunks of \(chunkSize)")
                    paths += taken
                }
                let values = try decoder.finish()
                let taken = decoder.takePaths()
                #expect(taken.count == values.count, "\(test.selector) in chunks of \(chunkSize)")
                paths += taken
                #expect(paths == whole.map(\.path), "\(test.selector) in chunks of \(chunkSize)")
            }
        }
        // The example in matches(of:in:)'s documentation, as written there.
        let example = try ModelDecoder().matches(of: "$..id", in: Data(#"{"a": [{"id": 1}]}"#.utf8))
        #expect(example.map(\.path) == ["$['a'][0]['id']"] && example.map(\.value) == [1])
        let items = Array(#"{"data": {"items": [{"id": 1}]}}"#.utf8)
        let dotted = try ModelDecoder().matches(of: "data.items[*].id", in: items)
        #expect(dotted.map(\.path) == ["$['data']['items'][0]['id']"] && dotted.map(\.value) == [1])
        let long = Array(("{\"a\": [" + (0...20).map(String.init).joined(separator: ", ") + "]}").utf8)
        let last = try ModelDecoder().matches(of: "$.a[-2:]", in: long)
        #expect(last.map(\.path) == ["$['a'][19]", "$['a'][20]"])
    }

    @Test("Each valid case decoded as one value: the node of a singular query (which must exist), else the nodelist")
    func decodedWhole() throws {
        for test in Self.valid {
            let text = try #require(test.document).description
            let singular = JSONPath.Query(
                isRelative: false, segments: try JSONPath(parsing: test.selector).segments
            ).isSingular
            if singular && test.results.allSatisfy(\.values.isEmpty) {
                // `JSONValue` is `Decodable`: the path's error comes as a `DecodingError`, as `JSONDecoder`'s would.
                #expect(throws: DecodingError.self, "\(test.selector)") {
                    try ModelDecoder().decode(JSONValue.self, from: text, at: test.selector)
                }
                expectError(.pathNotFound) { try ModelDecoder().decode(JSONText.self, from: text, at: test.selector) }
                continue
            }
            let value = try ModelDecoder().decode(JSONValue.self, from: text, at: test.selector)
            #expect(
                test.results.contains { singular ? [value] == $0.values : .array($0.values) == value },
                "\(test.name): \(test.selector) decoded \(value)")
        }
    }

    /// Runs `query` over `text` in chunks of 64 bytes, as `values(of:at:)` does, and gives what its stage held at most.
    static func peakHeld(_ query: String, over text: String) throws -> (values: [JSONValue], held: Int) {
        let pipeline = try ModelDecoder().pipeline(JSONValue.self, at: query, mode: .valuePerDocument)
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: 64) {
            try bytes[start..<min(start + 64, bytes.count)].withUnsafeBytes { try pipeline.feed($0) }
        }
        try pipeline.finish()
        return (pipeline.takeElements(), try #require(pipeline.query).peakHeld)
    }

    @Test("What a stream holds: one filter candidate at a time, the last N elements for [-N:], whole values otherwise")
    func streamingBounds() throws {
        let items = (0..<5_000).map { #"{"id": \#($0), "tags": ["a", "b"], "n": \#($0 % 7)}"# }
        let document = #"{"meta": {"count": 5000}, "items": ["# + items.joined(separator: ", ") + "]}"
        let filtered = try Self.peakHeld("$.items[?@.n == 3].id", over: document)
        #expect(filtered.values == stride(from: 3, to: 5_000, by: 7).map { JSONValue.number(String($0)) })
        #expect(filtered.held == 2, "the candidate's members the query reads, n and id; not the array's elements")
        let whole = try Self.peakHeld("$.items[?@.n == 3]", over: document)
        #expect(whole.values.count == filtered.values.count)
        #expect(whole.held == 3, "a candidate given whole is held whole")
        let last = try Self.peakHeld("$.items[-3:].id", over: document)
        #expect(last.values == ["4997", "4998", "4999"].map(JSONValue.number))
        #expect(last.held <= 16, "held \(last.held) elements of 5,000")
        let mixed = try Self.peakHeld("$.items[-1, -40:-38]['id']", over: document)
        #expect(mixed.values == ["4999", "4960", "4961"].map(JSONValue.number))
        #expect(mixed.held <= 80)
        // A slice from the start, or one stepping backwards, needs the array whole.
        let fromStart = try Self.peakHeld("$.items[:2].id", over: document)
        #expect(fromStart.values == ["0", "1"].map(JSONValue.number))
        #expect(fromStart.held == 5_000)
        // A filter reading `$` holds the document; its root is the document's.
        let rooted = try Self.peakHeld("$.items[?@.id >= $.meta.count]", over: document)
        #expect(rooted.values.isEmpty && rooted.held == 2, "the document's two members")
        // The document isn't cut to its last elements when a filter reads it.
        let byRoot = try Self.peakHeld("$[-1][?@ == $[0][0]]", over: "[[5], [1, 5]]")
        #expect(byRoot.values == ["5"].map(JSONValue.number))
    }

    @Test("A `..` segment holds its matches, not the document, and sends them once every container around is settled")
    func descendantsOnAStream() throws {
        let items = (0..<5_000).map { #"{"id": \#($0), "tags": [{"id": "t"}], "n": \#($0 % 7)}"# }
        let document = #"{"meta": {"count": 5000}, "items": ["# + items.joined(separator: ", ") + "]}"
        let inItems = try Self.peakHeld("$.items..id", over: document)
        #expect(inItems.values.count == 10_000)
        #expect(Array(inItems.values.prefix(4)) == ["0", "t", "1", "t"].map { $0 == "t" ? .string($0) : .number($0) })
        #expect(inItems.held <= 2, "held \(inItems.held): an item's id and its tag's, at most")
        // The document itself could end with an `id`, which would come first: every match waits for its end.
        let everywhere = try Self.peakHeld("$..id", over: document)
        #expect(everywhere.values == inItems.values)
        #expect(everywhere.held == 10_000)
        // Matches come as they end, before the array does.
        let decoder = try ModelDecoder().elements(of: Int.self, at: "$.items..n")
        #expect(try decoder.feed(Array(#"{"items": [{"n": 1, "m": {"n": 2}}, {"m": [{"n": 3}]}"#.utf8)) == [1, 2, 3])
        #expect(try decoder.feed(Array(#", {"n": 4}]}"#.utf8)) == [4])
        #expect(try decoder.finish() == [])
    }

    @Test("Random documents: `..`, indices and several selectors, streamed in chunks, give the whole-value nodelist")
    func randomDescendants() throws {
        let queries = [
            "$..a", "$..[0]", "$..['a','b']", "$..a..b", "$.a..[1,'b']", "$..[0].a", "$.*..a", "$..b[-1:]",
            "$..[2, 0]", "$[0]..c", "$..a[?@.b]", "$..['c', 'a', 'c']", "$[*][?@.a == 1].b", "$.a[?@.b]['c','a']",
            "$.*[?length(@.c) > 1 || @.d]['a','b']", "$[-2:].a", "$.*[-1:]['b','a']", "$[?match(@.a, 'a|b')].b",
            // Members read only by `length` are held as counts; one read another way too is held whole.
            "$[*][?length(@.a) == 2].b", "$.*[?length(@.a) > 1 && @.a[0]].a", "$.*[?length(@.c) == length(@.d)].b",
            "$[*][?length(@.a) >= 1 && match(@.b, 'ab*')].d",
        ]
        var generator = SplitMix64(seed: 43)
        func value(_ depth: Int) -> JSONValue {
            switch Int.random(in: 0..<(depth > 4 ? 3 : 6), using: &generator) {
            case 0: return .number(String(Int.random(in: 0..<100, using: &generator)))
            case 1: return .string(["a", "b", "x"].randomElement(using: &generator)!)
            case 2: return .null
            case 3, 4:
                let count = Int.random(in: 0...4, using: &generator)
                let keys = ["a", "b", "c", "d"].shuffled(using: &generator).prefix(count)
                return .object(keys.map { JSONValue.Member(key: $0, value: value(depth + 1)) })
            default:
                return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in value(depth + 1) })
            }
        }
        for round in 0..<300 {
            let document = value(0)
            let text = Array(document.description.utf8)
            for query in queries {
                let nodes = try JSONPath(parsing: query).nodes(in: document)
                let expected = nodes.map(\.value)
                let matched = try ModelDecoder().matches(of: query, in: text)
                #expect(matched.map(\.path) == nodes.map { JSONPath.normalized($0.location) }, "\(query) paths")
                let chunkSize = [1, 7, text.count][round % 3]
                let decoder = try ModelDecoder().values(of: JSONValue.self, at: query)
                var values: [JSONValue] = []
                for start in stride(from: 0, to: text.count, by: chunkSize) {
                    values += try decoder.feed(text[start..<min(start + chunkSize, text.count)])
                }
                values += try decoder.finish()
                #expect(values == expected, "\(query) on \(document)")
                let whole = try ModelDecoder().decode(JSONValue.self, from: text, at: query)
                #expect(whole == .array(expected), "\(query) decoded on \(document)")
            }
        }
    }

    @Test("Descendants, negative indices and several selectors, at every entry point, in the RFC's order")
    func heldQueries() throws {
        let json = #"{"a": {"x": {"a": 1}, "a": 2}, "list": [10, 20, 30], "b": {"a": [3]}}"#
        let decoder = ModelDecoder()
        #expect(try decoder.decode(JSONValue.self, from: json, at: "$..a") == [["x": ["a": 1], "a": 2], 2, 1, [3]])
        #expect(try decoder.decode(Int.self, from: json, at: "$.list[-1]") == 30)
        #expect(try decoder.decode([Int].self, from: json, at: "$.list[-2:]") == [20, 30])
        #expect(try decoder.decode([Int].self, from: json, at: "$.list[::-1]") == [30, 20, 10])
        #expect(try decoder.decode([Int].self, from: json, at: "$.list[2, 0, 0]") == [30, 10, 10])
        #expect(try decoder.decode([Int].self, from: json, at: "$.nothing[-1:]") == [])
        #expect(try decoder.decode([Int].self, from: json, at: "$.list[?@ > $.a.a]") == [10, 20, 30])
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: json, at: "$.list[-4]") }
        let missing = expectError(.pathNotFound) { try decoder.decode(JSONText.self, from: json, at: "$.list[-4]") }
        #expect(missing?.message == "path '$.list[-4]' not found: the query selects no node")
        // The `Codable` route reads the same nodes.
        struct Pair: Codable, Equatable { var a: Int }
        #expect(try decoder.decode([Pair].self, from: json, at: "$..x") == [Pair(a: 1)])
        let codable = try JSONDecoder().decode([Int].self, from: Data("[30, 10]".utf8))
        #expect(try decoder.decode([Int].self, from: json, at: "$.list[-1, 0]") == codable)
        // Foundation's objects go through the same stages, a query whose streamed part is empty too.
        #expect(try decoder.decode(Int.self, fromJSONObject: [1, 2, 3], at: "$[-1]") == 3)
        #expect(try decoder.decode([Int].self, fromJSONObject: ["a": 1, "b": ["a": 2]], at: "$..a") == [1, 2])
        // A HandyJSON path may begin with a `$` key.
        #expect(try decoder.decode(String.self, from: #"{"$oid": {"x": "y"}}"#, at: "$oid.x") == "y")
        // Numbers compare exactly, not as their `Double`s.
        let big = #"[{"id": 9007199254740992}, {"id": 9007199254740993}, {"id": 1e2}]"#
        #expect(try decoder.decode([Int].self, from: big, at: "$[?@.id == 9007199254740993].id") == [9007199254740993])
        #expect(try decoder.decode([Double].self, from: big, at: "$[?@.id == 100.0].id") == [100])
        #expect(JSONPathContext.sameNumber("-0.50e1", "-5") && !JSONPathContext.sameNumber("0.5", "-0.5"))
        #expect(JSONPathContext.sameNumber("0", "-0.0e5"))
        // Elements as they come: each node of each document, JSON Lines too.
        let lines = try decoder.values(of: Int.self, at: "$..n")
        #expect(try lines.feed(Array("{\"n\": 1, \"m\": {\"n\": 2}}\n{\"n\": 3}\n".utf8)) == [1, 2, 3])
        #expect(try lines.finish() == [])
    }

    @Test("A regular expression's repetition bound past 1,000 is refused, so match and search are false")
    func regexBounds() throws {
        let document: JSONValue = ["aa", .string(String(repeating: "a", count: 1001))]
        #expect(try JSONPath(parsing: "$[?match(@, 'a{2}')]").nodes(in: document).map(\.value) == ["aa"])
        #expect(try JSONPath(parsing: "$[?match(@, 'a{1000,}')]").nodes(in: document).count == 1)
        #expect(try JSONPath(parsing: "$[?match(@, 'a{1001}')]").nodes(in: document).isEmpty)
        #expect(try JSONPath(parsing: "$[?search(@, 'a{2,1001}')]").nodes(in: document).isEmpty)
    }

    @Test("A pattern's literal start is checked before the regex runs; a quantified last character isn't required")
    func regexLiteralStart() throws {
        let document: JSONValue = ["a", "ab", "abb", "b", "ba", "y", "xy", "xxy", "item 7", "item 70", "item 8", "é"]
        func matched(_ pattern: String) throws -> [JSONValue] {
            try JSONPath(parsing: "$[?match(@, '\(pattern)')]").nodes(in: document).map(\.value)
        }
        #expect(try matched("ab*") == ["a", "ab", "abb"])
        #expect(try matched("ab+") == ["ab", "abb"])
        #expect(try matched("x?y") == ["y", "xy"])
        #expect(try matched("ab{0,1}") == ["a", "ab"])
        #expect(try matched("item 7.*") == ["item 7", "item 70"])
        #expect(try matched("b|ab") == ["ab", "b"])
        #expect(try matched("é") == ["é"])
    }

    @Test("An invalid query names the column and the reason")
    func errorMessages() {
        let cases: [(String, String)] = [
            ("$.a[?@.b = 1]", "at column 10, '=' is not an operator; did you mean '=='?"),
            ("a.b", "at column 1, a JSONPath query begins with '$'"),
            ("$[01]", "at column 3, a leading zero"),
            ("$[?length(@.a)]", "at column 4, length() gives a value: compare it to make a test"),
            ("$[?@.* == 1]", "at column 4, a query that may select several nodes cannot be compared"),
        ]
        let deep = "$[?" + String(repeating: "(", count: 70) + "@" + String(repeating: ")", count: 70) + "]"
        #expect(throws: JSONDecodingError.self) { try JSONPath(parsing: deep) }
        for (query, reason) in cases {
            let error = expectError(.invalidPath) { try JSONPath(parsing: query) }
            #expect(error?.message == "invalid JSONPath '\(query)': \(reason)")
        }
    }

    @Test("Random queries, valid by construction or pieces thrown together, are parsed or refused without a trap")
    func randomQueries() throws {
        let filters = [
            "@.a", "@.b == 'ab'", "@ > 1", "length(@) >= 2", "count(@.*) > 1", "match(@, '[a-c]+')",
            "search(@.b, 'b')", "!@.a", "(@.a || @.b) && @.a", "value(@..a) == 2", "$.b.a == 'a'", "@[0] != null",
        ]
        let segments = [
            ".a", ".b", ".*", "..a", "..*", "[0]", "[-1]", "[1:]", "[::-1]", "['a','b']", "[0, 'a', 1:2]",
        ]
        let pieces = [
            "$", "@", ".", "..", "[", "]", "*", "?", "(", ")", ",", ":", "-1", "0", "'a'", "a", "==", "<", "&&",
            "||", "!", " ", "length(", "match(", "value(", "true", "null", "1.5e3", "'\\\\p{L}'",
        ]
        let document = try ModelDecoder().decode(
            JSONValue.self, from: #"{"a": [1, {"b": "ab", "a": [2, 3]}], "b": {"a": "a"}}"#)
        var generator = SplitMix64(seed: 41)
        for _ in 0..<2_000 {
            var valid = "$"
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                valid +=
                    Bool.random(using: &generator)
                    ? segments.randomElement(using: &generator)!
                    : "[?" + filters.randomElement(using: &generator)! + "]"
            }
            let query = try #require(try? JSONPath(parsing: valid), "\(valid)")
            _ = query.nodes(in: document)
            var thrown = "$"
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                thrown += pieces.randomElement(using: &generator)!
            }
            _ = (try? JSONPath(parsing: thrown))?.nodes(in: document)
        }
    }
}
