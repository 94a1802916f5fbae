import Foundation
@testable import HandyStream
import Synchronization
import Testing

/// Splits `bytes` into chunks of `size` bytes.
func chunks(_ bytes: [UInt8], size: Int) -> [[UInt8]] {
    stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min(bytes.count, $0 + size)]) }
}

struct Item: HandyJSON, Equatable {
    var id = 0
    var name = ""
}

/// An async sequence of chunks that counts how many were pulled.
struct CountingChunks: AsyncSequence {
    typealias Element = [UInt8]
    let chunks: [[UInt8]]
    let pulled: Pulled

    struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: [[UInt8]]
        let pulled: Pulled
        var index = 0
        mutating func next() async -> [UInt8]? {
            guard index < chunks.count else { return nil }
            defer { index += 1 }
            pulled.count.withLock { $0 += 1 }
            return chunks[index]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks, pulled: pulled) }
}

final class Pulled: Sendable {
    let count = Locked(0)
}

@Suite("Streaming")
struct StreamingTests {
    static let tricky = """
        {"data": {"items": [{"id": 1, "name": "caf\\u00e9 \\ud83d\\ude00 ü日本"}, {"id": -12345678901234, "name": "x\\"y"},
         {"id": 3, "name": "\\n\\t"}], "\\u006bey": 1.5e-3}, "after": [true, false, null]}
        """

    @Test("A split at every byte gives the same result as one chunk")
    func everySplitPoint() throws {
        let bytes = Array(Self.tricky.utf8)
        let whole = try canonical(try ModelDecoder().decode(Any.self, from: bytes))
        for split in 0...bytes.count {
            let decoder = try ModelDecoder().incremental(Any.self)
            try decoder.feed(Array(bytes[..<split]))
            try decoder.feed(Array(bytes[split...]))
            #expect(try canonical(try decoder.finish()) == whole, "split at \(split)")
        }
    }

    @Test(
        "Every chunk size gives the same models, on every corpus document",
        arguments: [
            "github_events.json", "twitter_timeline.json", "twitter.json", "citm_catalog.json", "canada.json",
            "apache_builds.json", "instruments.json", "numbers.json", "random.json", "update-center.json",
            "twitterescaped.json", "mesh.json",
        ])
    func chunkSizes(name: String) throws {
        let bytes = Array(try Corpus.data(name))
        let whole = try canonical(try ModelDecoder().decode(Any.self, from: bytes))
        let sizes = bytes.count < 100_000 ? [1, 2, 3, 7, 64, 4096] : [3, 17, 1000, 65536]
        for size in sizes {
            let decoder = try ModelDecoder().incremental(Any.self)
            for chunk in chunks(bytes, size: size) { try decoder.feed(chunk) }
            #expect(try canonical(try decoder.finish()) == whole, "\(name), chunks of \(size)")
        }
        if name == "twitter.json" {
            let models = try ModelDecoder().decode(SearchResult.self, from: bytes)
            let decoder = try ModelDecoder().incremental(SearchResult.self)
            for chunk in chunks(bytes, size: 5) { try decoder.feed(chunk) }
            #expect(try canonical(try decoder.finish()) == (try canonical(models)))
        }
    }

    @Test("Elements are handed over as the chunk that completes them arrives")
    func elementsAsTheyComplete() throws {
        let decoder = try ModelDecoder().elements(of: Item.self, at: "data.items")
        var seen: [[Int]] = []
        for chunk in chunks(Array(Self.tricky.utf8), size: 40) { seen.append(try decoder.feed(chunk).map(\.id)) }
        seen.append(try decoder.finish().map(\.id))
        #expect(seen.flatMap { $0 } == [1, -12345678901234, 3])
        #expect(seen.filter { !$0.isEmpty }.count == 3, "each element came with its own chunk: \(seen)")
        let starred = try ModelDecoder().elements(of: Item.self, at: "data.items[*]")
        #expect(try starred.feed(Array(Self.tricky.utf8)).map(\.name) == ["café 😀 ü日本", "x\"y", "\n\t"])
    }

    @Test("A top-level array streams with [*]; elements that don't fit are dropped (or an error when strict)")
    func topLevelArray() throws {
        let json = #"[{"id": 1}, 2, {"id": 3}, [4]]"#
        let decoder = try ModelDecoder().elements(of: Item.self, at: "[*]")
        #expect(try decoder.feed(Array(json.utf8)).map(\.id) == [1, 3])
        #expect(try decoder.finish().isEmpty)
        // Strict: the element before the one that doesn't fit, then the error.
        let strict = try ModelDecoder(options: DecodingOptions(strict: true)).elements(of: Item.self, at: "[*]")
        #expect(try strict.feed(Array(json.utf8)).map(\.id) == [1])
        #expect(throws: JSONDecodingError.self) { try strict.finish() }
    }

    @Test("Streamed elements of every kind: scalars, optionals, models, and those that don't fit, at every chunk size")
    func elementsOfEveryKind() throws {
        let json = #"[1, "2", null, 4.5, {"id": 5}, [6], true, "", -7, 123456789012]"#
        let bytes = Array(json.utf8)
        for size in 1...bytes.count {
            // `Int`: a string holding an integer and `true` adapt; the rest don't fit and are dropped.
            #expect(try Self.streamed(Int.self, bytes, size: size) == [1, 2, 1, -7, 123_456_789_012], "\(size)")
            // `Int?`: what doesn't fit becomes nil, and `null` is nil.
            #expect(
                try Self.streamed(Int?.self, bytes, size: size)
                    == [1, 2, nil, nil, nil, nil, 1, nil, -7, 123_456_789_012], "\(size)")
            #expect(
                try Self.streamed(String.self, bytes, size: size) == [
                    "1", "2", "4.5", "true", "", "-7", "123456789012",
                ])
            #expect(try Self.streamed(Item.self, bytes, size: size).map(\.id) == [5])
            #expect(
                try Self.streamed(Item?.self, bytes, size: size).map { $0?.id ?? -1 } == [
                    -1, -1, -1, -1, 5, -1, -1, -1, -1, -1,
                ])
            #expect(try Self.streamed([Int].self, bytes, size: size) == [[6]])
        }
        // Each element that doesn't fit is heard once, with its index.
        let heard = DiagnosticsHeard()
        var options = DecodingOptions()
        options.diagnostics = { heard.append($0.path) }
        let decoder = try ModelDecoder(options: options).elements(of: Int.self, at: "[*]")
        _ = try decoder.feed(bytes)
        _ = try decoder.finish()
        #expect(heard.all == ["$[2]", "$[3]", "$[4]", "$[5]", "$[7]"])
    }

    private static func streamed<T>(_: T.Type, _ bytes: [UInt8], size: Int) throws -> [T] {
        let decoder = try ModelDecoder().elements(of: T.self, at: "[*]")
        var values: [T] = []
        for chunk in chunks(bytes, size: size) { values += try decoder.feed(chunk) }
        return values + (try decoder.finish())
    }

    @Test("JSON Lines: the empty path yields each top-level value; a path applies to each line")
    func jsonLines() throws {
        let lines = "{\"id\": 1}\n{\"id\": 2, \"name\": \"b\"}\n\n{\"id\": 3}\n"
        let decoder = try ModelDecoder().elements(of: Item.self)
        var ids: [Int] = []
        for chunk in chunks(Array(lines.utf8), size: 7) { ids += try decoder.feed(chunk).map(\.id) }
        ids += try decoder.finish().map(\.id)
        #expect(ids == [1, 2, 3])
        let nested = "{\"page\": 1, \"items\": [{\"id\": 1}, {\"id\": 2}]}\n{\"items\": [{\"id\": 3}], \"page\": 2}\n"
        let perLine = try ModelDecoder().elements(of: Item.self, at: "items")
        #expect(try perLine.feed(Array(nested.utf8)).map(\.id) == [1, 2, 3])
        #expect(try perLine.finish().isEmpty)
        let missing = try ModelDecoder().elements(of: Item.self, at: "items")
        #expect(try missing.feed(Array("{\"items\": [{\"id\": 1}]}\n{\"other\": 1}".utf8)).map(\.id) == [1])
        #expect(throws: JSONDecodingError.self) { try missing.finish() }
    }

    @Test("JSON Lines: a string the input's end leaves open, after whole values, is cut short, not nothing")
    func jsonLinesEndingInsideAString() throws {
        for (text, line, column) in [("1\n\"", 2, 2), ("1 \"ab", 1, 6), ("{\"a\": 1}\n\"x\\\"", 2, 5)] {
            for size in [1, 3, 100] {
                let decoder = try ModelDecoder().values(of: JSONValue.self)
                var values: [JSONValue] = []
                var failure: JSONDecodingError?
                do {
                    for chunk in chunks(Array(text.utf8), size: size) {
                        try chunk.withUnsafeBytes { try decoder.feed($0) { values.append($0) } }
                    }
                    try decoder.finish { values.append($0) }
                } catch let error as DecodingError {
                    if case .dataCorrupted(let context) = error {
                        failure = context.underlyingError as? JSONDecodingError
                    }
                }
                #expect(values.count == 1, "\(text.debugDescription) in chunks of \(size)")
                #expect(
                    failure?.kind == .truncated && failure?.line == line && failure?.column == column,
                    "\(text.debugDescription): \(String(describing: failure))")
            }
        }
    }

    @Test("One document: a string left open after the value, whole or in chunks, is cut short, not nothing")
    func oneDocumentEndingInsideAString() throws {
        for text in ["1 \"ab", "1\"[Ji\\n", "{\"a\": 1} \"x\\\"", "[] \"\\u12"] {
            let bytes = Array(text.utf8)
            #expect(throws: JSONDecodingError.self, "\(text)") { try ModelDecoder().validate(bytes) }
            #expect(throws: DecodingError.self, "\(text)") { try ModelDecoder().decode(JSONValue.self, from: bytes) }
            for size in [1, 2, 100] {
                let decoder = try ModelDecoder().incremental(JSONText.self)
                #expect(throws: JSONDecodingError.self, "\(text) in chunks of \(size)") {
                    for chunk in chunks(bytes, size: size) { _ = try decoder.feed(chunk) }
                    _ = try decoder.finish()
                }
            }
        }
        #expect(try ModelDecoder().decode(Int.self, from: Array("1 \t\n ".utf8)) == 1)
    }

    @Test("JSON Lines: an error in a new object names no key of the object before it")
    func jsonLinesErrorPathsStartAfresh() throws {
        let decoder = try ModelDecoder().values(of: JSONValue.self)
        #expect(try decoder.feed(Array("{\"a\": 1}\n{".utf8)) == [["a": 1]])
        do {
            _ = try decoder.finish()
            Issue.record("a cut object is an error")
        } catch DecodingError.dataCorrupted(let context) {
            #expect((context.underlyingError as? JSONDecodingError)?.path == "$")
        }
    }

    @Test("A designated value is complete before the document is: feed says so, and the rest is not read")
    func incrementalStopsEarly() throws {
        let head = #"{"data": {"cat": {"id": 7, "name": "Tom"}}, "rest": ["#
        let decoder = try ModelDecoder().incremental(Item.self, at: "data.cat")
        #expect(try decoder.feed(Array(head.utf8)) == true)
        #expect(try decoder.feed(Array(String(repeating: "\"padding\", ", count: 1000).utf8)) == true)
        #expect(try decoder.finish() == Item(id: 7, name: "Tom"))
        #expect(decoder.bytesFed == head.utf8.count, "the padding fed after the value was not taken")
        let valueEnd = head.utf8.count - #", "rest": ["#.utf8.count - 1
        #expect(decoder.bytesRead == valueEnd, "read up to the '}' that closes data.cat, not the rest of the chunk")
        let unfinished = try ModelDecoder().incremental(Item.self, at: "data.cat")
        #expect(try unfinished.feed(Array(#"{"data": {"cat": {"id": 7"#.utf8)) == false)
        #expect(throws: JSONDecodingError.self) { try unfinished.finish() }
    }

    @Test("Errors in streamed input: line and column across chunks")
    func errorsAcrossChunks() throws {
        let text = "{\n  \"data\": {\n    \"items\": [\n      {\"id\": 1},\n      {\"id\": tru}\n    ]\n  }\n}"
        let decoder = try ModelDecoder().elements(of: Item.self, at: "data.items")
        do {
            for chunk in chunks(Array(text.utf8), size: 9) { _ = try decoder.feed(chunk) }
            _ = try decoder.finish()
            Issue.record("expected an error")
        } catch let error as JSONDecodingError {
            #expect(error.description == "5:17: invalid literal (expected true, false or null) at $.data.items[1].id")
            let whole = decodingError([Item].self, text, at: "data.items")
            #expect(error.description == whole?.description, "streamed and whole, the same error")
        }
        let truncated = try ModelDecoder().elements(of: Item.self, at: "data.items")
        _ = try truncated.feed(Array("{\"data\": {\"items\": [{\"id\": 1}".utf8))
        #expect(throws: JSONDecodingError.self) { try truncated.finish() }
    }

    /// A `\u` escape cut by a chunk is held back with the bytes after it: when a line feed among them is where the
    /// escape fails, the error is on the line that feed ends, at the column one whole reading gives.
    @Test("A bad escape held across chunks before a line feed: the whole reading's line and column")
    func heldEscapeBeforeALineFeed() throws {
        for text in ["[\"ab\\u00\n1\"]", "{\"k\": [1,\n \"é\\u0\n\"]}", "[\"x\\u\n\"]", "[\"a\\u0041\n\"]"] {
            let bytes = Array(text.utf8)
            let whole = try #require(decodingError(JSONText.self, text))
            for size in 1..<bytes.count {
                let decoder = try ModelDecoder().incremental(JSONText.self)
                let error = #expect(throws: JSONDecodingError.self) {
                    for chunk in chunks(bytes, size: size) { _ = try decoder.feed(chunk) }
                    _ = try decoder.finish()
                }
                #expect(error?.description == whole.description, "\(text.debugDescription) in chunks of \(size)")
            }
        }
    }

    @Test("Async chunks: elements as they complete, no faster than they are taken")
    func asyncElements() async throws {
        let items = (0..<50).map { #"{"id": \#($0), "name": "item \#($0)"}"# }.joined(separator: ",")
        let bytes = Array(#"{"data": {"items": [\#(items)]}}"#.utf8)
        let pulled = Pulled()
        let source = CountingChunks(chunks: chunks(bytes, size: 16), pulled: pulled)
        var ids: [Int] = []
        for try await item in ModelDecoder().elements(of: Item.self, at: "data.items", from: source) {
            ids.append(item.id)
            if item.id == 4 {
                // Back-pressure: only the chunks needed for the first five elements have been read.
                #expect(pulled.count.withLock { $0 } < 20)
            }
        }
        #expect(ids == Array(0..<50))
        #expect(pulled.count.withLock { $0 } == (bytes.count + 15) / 16)
    }

    @Test("Cancelling the task ends the iteration")
    func cancellation() async throws {
        let items = (0..<1000).map { #"{"id": \#($0)}"# }.joined(separator: ",")
        let bytes = Array("[\(items)]".utf8)
        let pulled = Pulled()
        let source = CountingChunks(chunks: chunks(bytes, size: 8), pulled: pulled)
        let task = Task {
            var count = 0
            for try await _ in ModelDecoder().elements(of: Item.self, at: "[*]", from: source) {
                count += 1
                if count == 10 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(pulled.count.withLock { $0 } < bytes.count / 8)
    }

    /// Instances alive, counted by ``TrackedItem``'s initializer and deinitializer.
    final class TrackedItem: HandyJSON {
        static let live = Mutex(0)
        var id = 0
        required init() { Self.live.withLock { $0 += 1 } }
        deinit { Self.live.withLock { $0 -= 1 } }
    }

    @Test("forEachElement: a body that throws stops the stream, and the elements not handed over are destroyed")
    func throwingBodyLeavesNoElementBehind() throws {
        struct Stop: Error {}
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("handystream-\(UUID()).json")
        let items = (0..<10).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        try Data(#"{"items":[\#(items)]}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        // The whole file is one chunk: its ten elements are complete when the body first runs.
        var all: [Int] = []
        try ModelDecoder().forEachElement(of: TrackedItem.self, at: "items", inFileAt: url.path) { all.append($0.id) }
        #expect(all == Array(0..<10))
        let before = TrackedItem.live.withLock { $0 }
        var seen: [Int] = []
        #expect(throws: Stop.self) {
            try ModelDecoder().forEachElement(of: TrackedItem.self, at: "items", inFileAt: url.path) { item in
                seen.append(item.id)
                if item.id == 3 { throw Stop() }
            }
        }
        #expect(seen == [0, 1, 2, 3])
        #expect(TrackedItem.live.withLock { $0 } == before)
    }

    /// A `Decodable` class counting its instances alive.
    final class CountedElement: Decodable {
        static let live = Mutex(0)
        let id: Int
        enum CodingKeys: String, CodingKey { case id }
        init(from decoder: any Decoder) throws {
            id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
            Self.live.withLock { $0 += 1 }
        }
        deinit { Self.live.withLock { $0 -= 1 } }
    }

    @Test("Decodable elements: each value decoded is handed over once and destroyed once, also when a stream fails")
    func decodableElementsAreHandedOverOnce() throws {
        let items = (0..<10).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        let before = CountedElement.live.withLock { $0 }
        do {
            // In chunks of 7 bytes; the last element needs lenient mode's rescue (`"x"` as an `Int` is 0).
            let document = Array(#"{"items":[\#(items),{"id":"x"}]}"#.utf8)
            let decoder = try ModelDecoder().elements(of: CountedElement.self, at: "items")
            var ids: [Int] = []
            for chunk in chunks(document, size: 7) { ids += try decoder.feed(chunk).map(\.id) }
            ids += try decoder.finish().map(\.id)
            #expect(ids == Array(0..<10) + [0])
            // Bad input after five elements: those five are handed over, then the error.
            let broken = Array(#"{"items":[\#(items.prefix(45))#]}"#.utf8)
            var streamed: [Int] = []
            let failing = try ModelDecoder().elements(of: CountedElement.self, at: "items")
            #expect(throws: (any Error).self) {
                for chunk in chunks(broken, size: 5) { streamed += try failing.feed(chunk).map(\.id) }
                streamed += try failing.finish().map(\.id)
            }
            #expect(streamed == Array(0..<5))
        }
        #expect(CountedElement.live.withLock { $0 } == before)
    }

    @Test("Files are read in chunks")
    func files() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("handystream-\(UUID()).json")
        try Data(Self.tricky.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let items = try ModelDecoder().decode([Item].self, fromFileAt: url.path, at: "data.items", chunkSize: 5)
        #expect(items.map(\.id) == [1, -12345678901234, 3])
        var streamed: [Int] = []
        try ModelDecoder().forEachElement(of: Item.self, at: "data.items", inFileAt: url.path, chunkSize: 3) {
            streamed.append($0.id)
        }
        #expect(streamed == [1, -12345678901234, 3])
        #expect(try ModelDecoder().decode(Double.self, fromFileAt: url.path, at: "data.key", chunkSize: 4) == 0.0015)
        #expect(throws: (any Error).self) { try ModelDecoder().decode(Item.self, fromFileAt: "/nonexistent/x.json") }
    }
}
