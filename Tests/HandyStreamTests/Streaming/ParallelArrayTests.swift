import Foundation
import HandyJSON
import Testing

@testable import HandyStream

// One large array's elements (`data.items[*]`) decoded on 1, 2, 3 and 8 threads, its chunks cut at every size down
// to one byte, against one decoder reading the whole input: the same values in the same order, the same paths and
// diagnostics, the same first error. Each check also asserts that the array was split across the workers, not read
// in order after a failure. Run under ThreadSanitizer in CI.

@Suite struct ParallelArrayTests {
    typealias Lines = ParallelLinesTests

    /// Counts how a source is read: chunks at offsets (the array split) or spans in order (one reading).
    final class Counted: LineSource {
        let source: LineSource
        var chunks = 0
        var inOrder = 0
        /// Spans given out and not recycled: a file's buffers, which would leak.
        var held = 0
        init(_ source: LineSource) { self.source = source }
        func next() throws -> LineSpan? {
            inOrder += 1
            return counted(try source.next())
        }
        func readInOrder() { source.readInOrder() }
        func rereads(from offset: Int) -> Bool { source.rereads(from: offset) }
        func recycle(_ span: LineSpan) {
            held -= 1
            source.recycle(span)
        }
        var spanSize: Int { source.spanSize }
        func chunk(at offset: Int, count: Int) throws -> LineSpan? {
            chunks += 1
            return counted(try source.chunk(at: offset, count: count))
        }
        private func counted(_ span: LineSpan?) -> LineSpan? {
            if span != nil { held += 1 }
            return span
        }
    }

    struct Run<T> {
        var outcome = Lines.Outcome<T>()
        var diagnostics: [String] = []
        /// Whether one decoder read the input in order (after a failure, or when it isn't one large array).
        var readInOrder = false
        /// Spans the run didn't give back to the source.
        var held = 0
    }

    static func parallel<T>(
        _ type: T.Type, at path: String, _ input: [UInt8], jobs: Int, spanSize: Int, paths: Bool = false,
        longestSpan: Int = ModelDecoder.longestLine, options: DecodingOptions = DecodingOptions()
    ) -> Run<T> {
        var run = Run<T>()
        let told = Told()
        var options = options
        options.diagnostics = { told.add($0.description) }
        do {
            try input.withUnsafeBytes { bytes in
                let source = Counted(MemoryLines(bytes, spanSize: spanSize))
                defer {
                    run.readInOrder = source.inOrder > 0
                    run.held = source.held
                }
                try ModelDecoder(options: options).forEachValue(
                    of: type, at: path, lines: source, jobs: jobs, paths: paths, longestSpan: longestSpan
                ) { value, path in
                    run.outcome.values.append(value)
                    if let path { run.outcome.paths.append(path) }
                    // Each value's diagnostics are told before it.
                    run.diagnostics = told.all
                }
            }
        } catch {
            run.outcome.error = Lines.describe(error)
        }
        run.diagnostics = told.all
        return run
    }

    final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var told: [String] = []
        func add(_ text: String) { lock.withLock { told.append(text) } }
        var all: [String] { lock.withLock { told } }
    }

    /// One reading of the whole input, and the diagnostics it told.
    static func oneReading<T>(
        _ type: T.Type, at path: String, _ input: [UInt8], paths: Bool = false,
        options: DecodingOptions = DecodingOptions()
    ) -> (Lines.Outcome<T>, [String]) {
        let told = Told()
        var options = options
        options.diagnostics = { told.add($0.description) }
        return (Lines.oneReading(type, at: path, input, paths: paths, options: options), told.all)
    }

    /// Checks every span size and number of jobs against one reading; `split`: the array must have been split (the
    /// input is good and its array longer than a span) for spans up to `splitBelow` bytes.
    static func agree<T: Equatable>(
        _ type: T.Type, at path: String, _ input: [UInt8], paths: Bool = false, split: Bool, splitBelow: Int = 13,
        spans: [Int] = [1, 5, 13, 64], jobs: [Int] = [1, 2, 3, 8], options: DecodingOptions = DecodingOptions()
    ) {
        let (expected, told) = oneReading(type, at: path, input, paths: paths, options: options)
        for spanSize in spans {
            for jobs in jobs {
                let got = parallel(
                    type, at: path, input, jobs: jobs, spanSize: spanSize, paths: paths, options: options)
                let text = String(decoding: input, as: UTF8.self)
                #expect(
                    got.outcome.values == expected.values && got.outcome.error == expected.error
                        && got.outcome.paths == expected.paths,
                    "jobs \(jobs), spans of \(spanSize): \(got.outcome), expected \(expected), in \(text)")
                #expect(got.diagnostics == told, "jobs \(jobs), spans of \(spanSize), in \(text)")
                #expect(got.held == 0, "jobs \(jobs), spans of \(spanSize), in \(text)")
                if split && jobs > 1 && spanSize <= splitBelow {
                    #expect(!got.readInOrder, "not split: jobs \(jobs), spans of \(spanSize), in \(text)")
                }
            }
        }
    }

    /// A document with its array of awkward elements at `data.items`, other members around it.
    static func document(seed: UInt64, pretty: Bool = false) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let elements = (0..<Int.random(in: 8...30, using: &random)).map { _ in
            Lines.value(&random, depth: 1)
        }
        let separator = pretty ? ",\n    " : (Bool.random(using: &random) ? "," : " , ")
        let items = "[" + (pretty ? "\n    " : "") + elements.joined(separator: separator) + (pretty ? "\n  ]" : "]")
        let before = Lines.value(&random, depth: 1)
        let after = Lines.value(&random, depth: 1)
        let text = #"{"meta": \#(before), "data": {"n\"x": 1, "items": \#(items), "x": \#(after)}, "z": [1]}"#
        return Array(text.utf8)
    }

    @Test func randomArraysGiveOneReadingsValues() {
        for seed in 0..<24 as Range<UInt64> {
            let input = Self.document(seed: seed, pretty: seed % 3 == 0)
            Self.agree(JSONValue.self, at: "data.items[*]", input, split: true)
            Self.agree(JSONValue.self, at: "$.data.items[*]", input, paths: true, split: true, spans: [3, 64])
            Self.agree(JSONText.self, at: "$.data.items.*", input, split: true, spans: [7], jobs: [2])
        }
    }

    /// Paths that go on into each element (a member, a filter, descendants, several values or none from one element)
    /// split the array too, as a `..` of names right after the keys does; one that needs the array whole (`[-2:]`), a
    /// `..` with an index or one above the array read it in order.
    @Test func pathsIntoElements() {
        for seed in 0..<16 as Range<UInt64> {
            let input = Self.document(seed: seed, pretty: seed % 4 == 0)
            for path in [
                "data.items[*].id", "data.items[*].tags[*]", "$.data.items[*].a", "$.data.items.*.*",
                "$.data.items[*]..id", "$.data.items[?@.id].a", "$.data.items[?length(@.tags) > 1]",
                "$.data.items[*][-1]", "$.data.items..id", "$.data.items..['a','tags']",
            ] {
                Self.agree(JSONValue.self, at: path, input, paths: true, split: true, spans: [3, 64], jobs: [1, 2, 3])
            }
            Self.agree(JSONValue.self, at: "$.data.items[-2:]", input, paths: true, split: false, spans: [5])
            Self.agree(JSONValue.self, at: "$.data.items..[0]", input, paths: true, split: false, spans: [5])
            Self.agree(JSONValue.self, at: "$..id", input, paths: true, split: false, spans: [5])
            let damaged = Lines.damaged(input, seed: seed)
            Self.agree(JSONValue.self, at: "data.items[*].id", damaged, split: false, spans: [1, 7, 64], jobs: [2])
            Self.agree(JSONValue.self, at: "$.data.items[*]..a", damaged, split: false, spans: [7, 64], jobs: [2, 3])
        }
    }

    @Test func topLevelArrays() {
        for seed in 0..<10 as Range<UInt64> {
            var random = SplitMix64(seed: seed)
            let elements = (0..<40).map { _ in Lines.value(&random, depth: 1) }
            let input = Array((" [" + elements.joined(separator: ",\n") + "]\n").utf8)
            Self.agree(JSONValue.self, at: "[*]", input, paths: true, split: true)
            // Another document after it is read in order, after the array.
            Self.agree(JSONValue.self, at: "[*]", input + Array("[1, 2]\n[]".utf8), split: true, spans: [5])
        }
    }

    @Test func randomDamageGivesOneReadingsFirstError() {
        for seed in 0..<60 as Range<UInt64> {
            let input = Lines.damaged(Self.document(seed: seed), seed: seed)
            Self.agree(JSONValue.self, at: "data.items[*]", input, split: false, spans: [1, 7, 64], jobs: [2, 3])
        }
    }

    @Test func unusualArrays() {
        // Trailing commas, empty elements, an array that never closes, a second `items`, deep elements.
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        for text in [
            #"{"items": [1, 2, 3, 4, 5, 6, 7,]}"#, #"{"items": [1, 2, , 4, 5, 6, 7]}"#, #"{"items": [1, 2, 3, 4, 5, 6"#,
            #"{"items": [1, 2, 3, 4, 5, 6, 7], "items": [8, 9, 10, 11]}"#,
            #"{"items": [\#(deep), \#(deep), \#(deep)]}"#, #"{"items": [1, 2, 3, 4, 5, 6, 7]} x"#,
            #"{"items": [1, 2, 3, 4, 5, 6, 7]}{"items": [8]}"#, #"{"items": [1, 2, 3, 4, 5, 6, 7]"#,
            #"{"items": ["\\", "\\\"", "]", "[", "\"]\"", 1, 2, 3]}"#, #"{"it\u0065ms": [1, 2, 3, 4, 5, 6, 7]}"#,
        ] {
            Self.agree(JSONValue.self, at: "items[*]", Array(text.utf8), split: false)
        }
        // The path's keys written with escapes: still split. A duplicate key: the first one's value counts.
        let numbers = (0..<40).map(String.init).joined(separator: ", ")
        Self.agree(
            JSONValue.self, at: "data.items[*]", Array(#"{"d\u0061ta": {"it\u0065ms": [\#(numbers)]}}"#.utf8),
            split: true)
        Self.agree(
            JSONValue.self, at: "items[*]", Array(#"{"items": 1, "items": [\#(numbers)]}"#.utf8), split: false)
        Self.agree(
            JSONValue.self, at: "items[*]", Array(#"{"items": [\#(numbers)], "items": [\#(numbers)]}"#.utf8),
            split: true)
        // Nesting past the cap inside an element: the error one reading gives.
        var options = DecodingOptions()
        options.maximumDepth = 30
        Self.agree(
            JSONValue.self, at: "items[*]", Array(#"{"items": [1, 2, \#(deep), 3, 4, 5]}"#.utf8), split: false,
            options: options)
    }

    final class Item: HandyJSON, Equatable {
        var id = 0
        var name = ""
        required init() {}
        static func == (left: Item, right: Item) -> Bool { left.id == right.id && left.name == right.name }
    }

    struct Plain: Decodable, Equatable {
        var id: Int
        var name: String
    }

    /// Models and `Decodable` types; a value that doesn't fit is a diagnostic (models) or the first error.
    @Test func modelsCodableTypesAndDiagnostics() {
        let items = (0..<200).map { index in
            index % 37 == 5 ? #"{"id": "x\#(index)", "name": "n]"}"# : #"{"id": \#(index), "name": "n\"\#(index)"}"#
        }
        let input = Array(#"{"data": {"items": [\#(items.joined(separator: ", "))]}}"#.utf8)
        Self.agree(
            Item.self, at: "data.items[*]", input, split: true, splitBelow: 100, spans: [16, 100], jobs: [2, 3])
        Self.agree(Plain.self, at: "data.items[*]", input, split: false, spans: [16, 100], jobs: [2, 3])
        Self.agree(
            Plain.self, at: "$.data.items[?@.id > 150 || @.id < 20]", input, paths: true, split: true, splitBelow: 100,
            spans: [16, 100], jobs: [2, 3])
        Self.agree(String.self, at: "data.items[*].name", input, split: true, splitBelow: 100, spans: [16], jobs: [2])
        // One reading tells a `..`'s diagnostics at the array it starts from, not at an element.
        Self.agree(Int.self, at: "$.data.items..id", input, split: true, splitBelow: 100, spans: [16, 100], jobs: [2])
        let (models, told) = Self.oneReading(Item.self, at: "data.items[*]", input)
        #expect(models.values.count == 200 && told.count == 6 && told[0].hasPrefix("$.data.items[5].id"), "\(told)")
        // Elements that aren't objects: what each gives, its path and its diagnostic, as one reading.
        let odd = (0..<120).map { index in
            [#"{"id": \#(index), "name": "n"}"#, "5", #""x""#, "null", "[1, {}]"][index % 5]
        }
        let mixed = Array(#"{"data": {"items": [\#(odd.joined(separator: ",\n  "))]}}"#.utf8)
        Self.agree(
            Item.self, at: "data.items[*]", mixed, paths: true, split: false, spans: [16, 64], jobs: [2])
        // A value passed over has no path: each model's path is its element's.
        let (passedOver, _) = Self.oneReading(Item.self, at: "data.items[*]", mixed, paths: true)
        let expectedPaths = stride(from: 0, to: 120, by: 5).map { "$['data']['items'][\($0)]" }
        #expect(passedOver.paths == expectedPaths, "\(passedOver.paths)")
        // An element passed over (a diagnostic) before an error: told once, when one reading starts again.
        let objects = (0..<60).map { #"{"id": \#($0), "name": "n"}"# }.joined(separator: ", ")
        for text in [
            #"{"items": [\#(objects), 5]} x"#, #"{"items": [\#(objects), 5, \#(objects), 1,]}"#,
            #"{"items": [5, \#(objects)]} {"items": [5, 6]}"#, #"{"items": [\#(objects), 5, 6, 7]}, "x": [8]}"#,
        ] {
            Self.agree(Item.self, at: "items[*]", Array(text.utf8), split: false, spans: [16, 64], jobs: [2, 3])
        }
        Self.agree(
            JSONValue.self, at: "data.items[*]", mixed, paths: true, split: true, splitBelow: 64, spans: [16, 64],
            jobs: [2])
    }

    /// More threads than a span's cap holds chunks of (a 64-core server's window of 129 MiB against a 64 MiB cap):
    /// the array is still split, and no span already cut is lost when guessed cuts stop recurring.
    @Test func windowsLongerThanASpan() {
        // The first window (up to 81 chunks, 5 KB) ends in the short elements: the guess stops recurring after it.
        for count in [120, 600] {
            let short = (0..<count).map { #"{"id":\#($0)}"# }
            let long = (count..<count + 300).map { #"{"x":\#($0),"pad":"\#(String(repeating: "p", count: $0 % 9))"}"# }
            let input = Array(#"{"items": [\#((short + long).joined(separator: ","))]}"#.utf8)
            let (expected, _) = Self.oneReading(JSONValue.self, at: "items[*]", input, paths: true)
            #expect(expected.values.count == count + 300)
            for jobs in [8, 20, 40] {
                let got = Self.parallel(
                    JSONValue.self, at: "items[*]", input, jobs: jobs, spanSize: 64, paths: true, longestSpan: 256)
                #expect(
                    got.outcome.values == expected.values && got.outcome.paths == expected.paths
                        && got.outcome.error == nil, "\(count), jobs \(jobs)")
                #expect(!got.readInOrder && got.held == 0, "\(count), jobs \(jobs)")
            }
        }
    }

    /// A body that throws partway through a split array stops the run there, and every chunk is given back.
    @Test func bodyErrorsInAnArray() {
        struct Enough: Error {}
        let items = (0..<400).map { #"{"id": \#($0), "name": "a string long enough to be allocated \#($0)"}"# }
        let input = Array(#"{"data": {"items": [\#(items.joined(separator: ", "))]}}"#.utf8)
        for jobs in [2, 8] {
            var seen = 0
            var source: Counted?
            #expect(throws: Enough.self) {
                try input.withUnsafeBytes { bytes in
                    let counted = Counted(MemoryLines(bytes, spanSize: 256))
                    source = counted
                    try ModelDecoder().forEachValue(of: Plain.self, at: "data.items[*]", lines: counted, jobs: jobs) {
                        value, _ in
                        #expect(value.id == seen && value.name.hasSuffix(" \(seen)"))
                        seen += 1
                        if seen == 321 { throw Enough() }
                    }
                }
            }
            #expect(seen == 321)
            #expect(source?.held == 0 && source?.inOrder == 0, "jobs \(jobs)")
        }
    }

    /// JSON Lines: each value's diagnostics too are told in order, before it, on any number of threads.
    @Test func diagnosticsOfLinesInOrder() {
        let lines = (0..<300).map { #"{"id": \#($0 % 11 == 3 ? "\"x\"" : "\($0)"), "name": "a"}"# }
        let input = Array(lines.joined(separator: "\n").utf8)
        let (expected, told) = Self.oneReading(Item.self, at: "", input)
        for jobs in [2, 8] {
            let got = Self.parallel(Item.self, at: "", input, jobs: jobs, spanSize: 64)
            #expect(got.outcome.values == expected.values && got.diagnostics == told && told.count == 27)
        }
    }

    /// From a file, as a user calls it; the chunks are read at their offsets. Then the file mapped into memory.
    @Test func filesAsAUserReadsThem() throws {
        let items = (0..<3000).map { #"{"id": \#($0), "name": "\#(String(repeating: "q", count: $0 % 300))"}"# }
        let text = #"{"data": {"items": [\#(items.joined(separator: ",\n"))]}, "end": true}"#
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-array-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        for input in [Array(text.utf8), Lines.damaged(Array(text.utf8), seed: 3)] {
            try Data(input).write(to: url)
            let (expected, _) = Self.oneReading(Plain.self, at: "data.items[*]", input)
            for jobs in [1, 2, 3] {
                var got = Lines.Outcome<Plain>()
                do {
                    try ModelDecoder().forEachValue(of: Plain.self, at: "data.items[*]", inFileAt: url.path, jobs: jobs)
                    {
                        got.values.append($0)
                    }
                } catch {
                    got.error = Lines.describe(error)
                }
                #expect(got.values == expected.values && got.error == expected.error, "\(jobs): \(got)")
            }
            // Mapped, as a 50 GB export would be given: the pages are read where the threads touch them.
            let mapped = try Data(contentsOf: url, options: .alwaysMapped)
            // Read to its end: the file's reported size is 0, and a whole test run maps many threads' stacks.
            let maps = try String(
                decoding: FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data(),
                as: UTF8.self)
            #expect(maps.contains(url.lastPathComponent), "the file isn't mapped")
            for jobs in [1, 2, 3] {
                var got = Lines.Outcome<Plain>()
                do {
                    try ModelDecoder().forEachValue(
                        of: Plain.self, at: "data.items[*]", in: mapped, jobs: jobs, spanSize: 4096
                    ) { got.values.append($0) }
                } catch {
                    got.error = Lines.describe(error)
                }
                #expect(got.values == expected.values && got.error == expected.error, "mapped, \(jobs): \(got)")
            }
            let descriptor = open(url.path, O_RDONLY)
            defer { close(descriptor) }
            let source = Counted(
                DescriptorLines(descriptor: descriptor, name: url.path, spanSize: 4096, longestLine: 1 << 20))
            var count = 0
            try? ModelDecoder().forEachValue(of: Plain.self, at: "data.items[*]", lines: source, jobs: 2) { _, _ in
                count += 1
            }
            #expect(count == expected.values.count)
            #expect((source.inOrder == 0) == (expected.error == nil), "\(source.inOrder)")
        }
    }

    /// `validate --jobs`: a document's large array checked on several threads, wherever it is; what one reading says
    /// of the whole, and the same first error.
    @Test func validationSplitsALargeArray() {
        func outcome(_ check: () throws -> Void) -> String? {
            do {
                try check()
                return nil
            } catch {
                return Lines.describe(error)
            }
        }
        let deep = String(repeating: "[", count: 30) + String(repeating: "]", count: 30)
        var inputs = (0..<24 as Range<UInt64>).map { Self.document(seed: $0, pretty: $0 % 2 == 0) }
        inputs += inputs.indices.map { Lines.damaged(inputs[$0], seed: UInt64($0)) }
        inputs += [
            Array("[\((0..<50).map(String.init).joined(separator: ","))] ".utf8),
            Array("[1, 2, [\(deep), 3, 4, 5, 6]]".utf8), Array("[1, 2, 3, 4, 5, 6, 7] [1]".utf8),
        ]
        var options = DecodingOptions()
        options.maximumDepth = 30
        for input in inputs {
            for decoder in [ModelDecoder(), ModelDecoder(options: options)] {
                let expected = outcome { try decoder.validate(input) }
                for (spanSize, jobs) in [(1, 2), (7, 3), (64, 2)] {
                    var inOrder = false
                    let got = outcome {
                        try input.withUnsafeBytes { bytes in
                            try decoder.validate(MemoryLines(bytes, spanSize: spanSize), jobs: jobs) {
                                inOrder = true
                                try decoder.validate(input)
                            }
                        }
                    }
                    #expect(got == expected, "\(spanSize) \(jobs): \(String(decoding: input, as: UTF8.self))")
                    if expected == nil && spanSize == 1 { #expect(!inOrder) }
                }
            }
        }
    }
}
