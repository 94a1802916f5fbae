import Foundation
import HandyJSON
import Testing

@testable import HandyStream

// JSON Lines decoded on 1, 2, 3 and 8 threads, in spans cut at every size down to one byte, against one decoder
// reading the whole input (`values(of:at:)`): the same values in the same order, the same paths, the same first error
// (kind, message, offset, line, column, path, snippet), and nothing after it. Run under ThreadSanitizer in CI.

@Suite struct ParallelLinesTests {
    /// What one decoder reading all of `input` at once hands over (as `forEachElement` does: each value as it is
    /// complete, also those the input's end completes before an error), then the error if any.
    struct Outcome<T>: CustomStringConvertible {
        var values: [T] = []
        var paths: [String] = []
        var error: String?
        var description: String { "\(values.count) values, error: \(error ?? "none")" }
    }

    static func oneReading<T>(
        _ type: T.Type, at path: String, _ input: [UInt8], paths: Bool = false,
        options: DecodingOptions = DecodingOptions()
    ) -> Outcome<T> {
        var outcome = Outcome<T>()
        guard let decoder = try? ModelDecoder(options: options).values(of: type, at: path) else { return outcome }
        if paths { decoder.recordPaths() }
        do {
            try input.withUnsafeBytes { try decoder.feed($0) { outcome.values.append($0) } }
            try decoder.finish { outcome.values.append($0) }
        } catch {
            outcome.error = Self.describe(error)
        }
        // A value the error cut short may have its path recorded already.
        if paths { outcome.paths = Array(decoder.takePaths().prefix(outcome.values.count)) }
        return outcome
    }

    static func parallel<T>(
        _ type: T.Type, at path: String, _ input: [UInt8], jobs: Int, spanSize: Int, paths: Bool = false
    ) -> Outcome<T> {
        var outcome = Outcome<T>()
        do {
            try input.withUnsafeBytes { bytes in
                try ModelDecoder().forEachValue(
                    of: type, at: path, lines: MemoryLines(bytes, spanSize: spanSize), jobs: jobs, paths: paths
                ) { value, path in
                    outcome.values.append(value)
                    if let path { outcome.paths.append(path) }
                }
            }
        } catch {
            outcome.error = Self.describe(error)
        }
        return outcome
    }

    /// Every field of a `JSONDecodingError` (its `description` leaves out the position); others as they print.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? JSONDecodingError else { return String(describing: error) }
        return
            "\(error.kind) \(error.offset) \(error.line):\(error.column) \(error.path) \(error.message)\n\(error.snippet)"
    }

    // MARK: - Random JSON Lines

    /// Strings whose bytes look like structure: brackets, quotes, escaped quotes and backslashes, escaped line feeds.
    static let awkwardStrings = [
        #"a,b"#, #"]}"#, #"{["#, #"\""#, #"\\"#, #"\\\""#, #"\n"#, #"x\\"#, #"\u005c"#, "é😀", #"},{"#, #""#,
        #"\"},{\""#, #"\\\\"#, #"\u000a"#,
    ]

    static func value(_ random: inout SplitMix64, depth: Int) -> String {
        switch Int.random(in: 0..<(depth > 6 ? 4 : 7), using: &random) {
        case 0: return "\"" + awkwardStrings.randomElement(using: &random)! + "\""
        case 1: return String(Int.random(in: -1000...1000, using: &random))
        case 2: return ["true", "false", "null", "1.5e3", "-0.25"].randomElement(using: &random)!
        case 3: return "\"" + String(repeating: "w", count: Int.random(in: 0...40, using: &random)) + "\""
        case 4, 5:
            let members = (0..<Int.random(in: 0...4, using: &random)).map { index in
                let key = ["id", "a", #"k\"q"#, "tags", "\(index)"].randomElement(using: &random)!
                return "\"\(key)\": " + value(&random, depth: depth + 1)
            }
            return "{" + members.joined(separator: ", ") + "}"
        default:
            let elements = (0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth + 1) }
            return "[" + elements.joined(separator: ",") + "]"
        }
    }

    static func lines(seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var text = ""
        for _ in 0..<Int.random(in: 1...40, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: text += "\n"  // an empty line
            case 1: text += "  \t" + value(&random, depth: 0) + " \r\n"
            case 2:
                // Deep nesting on one line.
                let depth = Int.random(in: 20...80, using: &random)
                text += String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
            default: text += value(&random, depth: 0) + "\n"
            }
        }
        if Bool.random(using: &random) { text.removeLast() }  // no line feed after the last line
        return Array(text.utf8)
    }

    /// `input` broken at a random place: a byte dropped or added, a raw line feed in a string, bad UTF-8, a cut.
    static func damaged(_ input: [UInt8], seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed ^ 0x5555)
        var bytes = input
        guard !bytes.isEmpty else { return [UInt8(ascii: "]")] }
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(UInt8(ascii: ","), at: at)
        case 2: bytes.insert(0x0A, at: at)
        case 3: bytes.insert(0xFF, at: at)
        case 4: bytes.removeSubrange(at...)
        default: bytes.insert(UInt8(ascii: "\""), at: at)
        }
        return bytes
    }

    static func agree<T: Equatable>(
        _ type: T.Type, at path: String, _ input: [UInt8], paths: Bool = false,
        spans: [Int] = [1, 2, 5, 13, 64, 1 << 20],
        jobs: [Int] = [1, 2, 3, 8]
    ) {
        let expected = oneReading(type, at: path, input, paths: paths)
        for spanSize in spans {
            for jobs in jobs {
                let got = parallel(type, at: path, input, jobs: jobs, spanSize: spanSize, paths: paths)
                #expect(
                    got.values == expected.values && got.error == expected.error && got.paths == expected.paths,
                    "jobs \(jobs), spans of \(spanSize): \(got), expected \(expected), in \(String(decoding: input, as: UTF8.self))"
                )
            }
        }
    }

    @Test func randomLinesGiveOneReadingsValues() {
        for seed in 0..<120 as Range<UInt64> {
            let input = Self.lines(seed: seed)
            Self.agree(JSONValue.self, at: "", input)
        }
    }

    @Test func randomDamageGivesOneReadingsFirstError() {
        for seed in 0..<200 as Range<UInt64> {
            let input = Self.damaged(Self.lines(seed: seed), seed: seed)
            Self.agree(JSONValue.self, at: "", input, spans: [1, 7, 64, 1 << 20], jobs: [2, 3, 8])
        }
    }

    @Test func pathsAndWildcardsInEachLine() {
        for seed in 0..<60 as Range<UInt64> {
            let input = Self.damaged(Self.lines(seed: seed), seed: seed &* 3)
            Self.agree(JSONValue.self, at: "$..id", Self.lines(seed: seed), paths: true, spans: [3, 64], jobs: [2, 8])
            Self.agree(JSONValue.self, at: "[*]", input, paths: true, spans: [3, 64], jobs: [2, 8])
        }
    }

    final class Item: HandyJSON {
        var id = 0
        var tags: [String] = []
        required init() {}
    }

    struct Plain: Decodable, Equatable {
        var id: Int
    }

    @Test func modelsAndCodableTypes() {
        var text = ""
        for index in 0..<300 { text += #"{"id": "\#(index)", "tags": ["a\"]", "b"]}"# + "\n" }
        let input = Array(text.utf8)
        for jobs in [2, 3, 8] {
            let models = Self.parallel(Item.self, at: "", input, jobs: jobs, spanSize: 100)
            #expect(models.error == nil && models.values.map(\.id) == Array(0..<300))
            #expect(models.values.allSatisfy { $0.tags == ["a\"]", "b"] })
        }
        // `Decodable`: a `DecodingError` at line 301, as one reading throws it, after the 300 values before it.
        let mismatched = input + Array(#"{"id": 1,}"#.utf8) + [0x0A] + input
        Self.agree(Plain.self, at: "", mismatched, spans: [5, 300, 1 << 20])
        let expected = Self.oneReading(Plain.self, at: "", mismatched)
        #expect(expected.values.count == 300 && expected.error?.contains("DecodingError") == true, "\(expected)")
    }

    @Test func inputThatIsNotOneValuePerLine() throws {
        // A pretty-printed document, UTF-16, a byte order mark, and a line that begins with one.
        let pretty = Array(#"[\#n  {"a": [1,\#n 2]},\#n  "x"\#n]\#n{"b": 1}\#n"#.utf8)
        Self.agree(JSONValue.self, at: "", pretty)
        Self.agree(JSONValue.self, at: "[*]", pretty)
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "{\"a\": 1}\n[2]\n3\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        Self.agree(JSONValue.self, at: "", utf16)
        Self.agree(JSONValue.self, at: "", [0xEF, 0xBB, 0xBF] + Array("1\n2\n".utf8))
        Self.agree(JSONValue.self, at: "", Array("1\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("2\n".utf8))
        Self.agree(JSONValue.self, at: "", [])
        Self.agree(JSONValue.self, at: "", Array("\n\n".utf8))
    }

    /// From a file: spans cut in the middle of lines too long to hold, then read on in order.
    @Test func filesWithLinesLongerThanASpan() throws {
        var text = ""
        for index in 0..<200 {
            let long = index % 50 == 7 ? String(repeating: "z", count: 3000) : "s"
            text += #"{"id": \#(index), "text": "\#(long)"}"# + "\n"
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-lines-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        // A first line longer than a span is taken for one document, read in order from the start.
        let longFirst =
            Array(#"{"id": -1, "text": "\#(String(repeating: "y", count: 700))"}"#.utf8) + [0x0A] + Array(text.utf8)
        for input in [
            Array(text.utf8), Self.damaged(Array(text.utf8), seed: 11), Self.damaged(Array(text.utf8), seed: 4),
            longFirst, Self.damaged(longFirst, seed: 5),
        ] {
            try Data(input).write(to: url)
            let expected = Self.oneReading(JSONValue.self, at: "id", input)
            for (spanSize, longestLine) in [(64, 64), (100, 1000), (1 << 20, 1 << 20)] {
                for jobs in [1, 2, 8] {
                    var got = Outcome<JSONValue>()
                    do {
                        let descriptor = open(url.path, O_RDONLY)
                        defer { close(descriptor) }
                        let lines = DescriptorLines(
                            descriptor: descriptor, name: url.path, spanSize: spanSize, longestLine: longestLine)
                        try ModelDecoder().forEachValue(of: JSONValue.self, at: "id", lines: lines, jobs: jobs) {
                            value, _ in got.values.append(value)
                        }
                    } catch {
                        got.error = Self.describe(error)
                    }
                    #expect(got.values == expected.values && got.error == expected.error, "\(spanSize) \(jobs): \(got)")
                }
            }
            // The public entry point, as a user calls it.
            var ids: [JSONValue] = []
            var failure: String?
            do {
                try ModelDecoder().forEachValue(of: JSONValue.self, at: "id", inFileAt: url.path, jobs: 3) {
                    ids.append($0)
                }
            } catch {
                failure = Self.describe(error)
            }
            #expect(ids == expected.values && failure == expected.error)
        }
    }

    /// Hands out another source's spans, noting the largest.
    final class Measured: LineSource {
        let source: LineSource
        var largest = 0
        init(_ source: LineSource) { self.source = source }
        func next() throws -> LineSpan? {
            let span = try source.next()
            largest = max(largest, span?.bytes.count ?? 0)
            return span
        }
        func readInOrder() { source.readInOrder() }
        func rereads(from offset: Int) -> Bool { source.rereads(from: offset) }
        func recycle(_ span: LineSpan) { source.recycle(span) }
        var spanSize: Int { source.spanSize }
        func chunk(at offset: Int, count: Int) throws -> LineSpan? {
            let chunk = try source.chunk(at: offset, count: count)
            largest = max(largest, chunk?.bytes.count ?? 0)
            return chunk
        }
    }

    /// One document on one line (a minified export): read in spans of the span's size from the start, never held
    /// whole up to the longest line. Split as one array, its first 64 KiB are read at once to find the array.
    @Test func oneLineDocumentsAreNotHeldWhole() throws {
        let document = "[" + (0..<8000).map { #"{"id": \#($0)}"# }.joined(separator: ",") + "]"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("one-line-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(document.utf8).write(to: url)
        for (path, largest) in [("$[-500:].id", 64), ("[*].id", 1 << 16)] {
            let expected = Self.oneReading(JSONValue.self, at: path, Array(document.utf8))
            let descriptor = open(url.path, O_RDONLY)
            defer { close(descriptor) }
            let source = Measured(
                DescriptorLines(descriptor: descriptor, name: url.path, spanSize: 64, longestLine: 1 << 20))
            var ids: [JSONValue] = []
            try ModelDecoder().forEachValue(of: JSONValue.self, at: path, lines: source, jobs: 2) { value, _ in
                ids.append(value)
            }
            #expect(ids == expected.values && !ids.isEmpty, "\(path)")
            #expect(source.largest == largest, "\(path)")
        }
    }

    /// A body that throws stops the workers and the error is the body's; no value after it is handed over.
    @Test func bodyErrorsStopTheWorkers() {
        struct Enough: Error {}
        let input = Array((0..<5000).map { "\($0)\n" }.joined().utf8)
        for jobs in [2, 8] {
            var seen = 0
            var held = -1
            #expect(throws: Enough.self) {
                try input.withUnsafeBytes { bytes in
                    let source = ParallelArrayTests.Counted(MemoryLines(bytes, spanSize: 16))
                    defer { held = source.held }
                    try ModelDecoder().forEachValue(of: Int.self, at: "", lines: source, jobs: jobs) { value, _ in
                        #expect(value == seen)
                        seen += 1
                        if seen == 1234 { throw Enough() }
                    }
                }
            }
            #expect(seen == 1234)
            // Every span is given back, the one whose value the body threw on too (a file's buffer otherwise leaks).
            #expect(held == 0)
        }
        // Values that own memory: each is lent to the body and put back for its worker to free, also the one the
        // body throws on.
        let strings = Array((0..<5000).map { "\"a string long enough to be allocated \($0)\"\n" }.joined().utf8)
        var seen = 0
        #expect(throws: Enough.self) {
            try strings.withUnsafeBytes { bytes in
                try ModelDecoder().forEachValue(
                    of: String.self, at: "", lines: MemoryLines(bytes, spanSize: 256), jobs: 2
                ) { value, _ in
                    #expect(value == "a string long enough to be allocated \(seen)")
                    seen += 1
                    if seen == 3210 { throw Enough() }
                }
            }
        }
        #expect(seen == 3210)
    }
}
