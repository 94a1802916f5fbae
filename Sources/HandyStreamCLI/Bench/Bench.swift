import ArgumentParser
import Foundation
import HandyStream

/// The main job: decode the bundled corpus with HandyStream, with Foundation's JSONDecoder and with yajl's bare
/// tokenizer, interleaved round by round, and report medians and ratios.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode the bundled corpus into models and compare with Foundation and with yajl's bare tokenizer.",
        discussion: """
            Each round decodes every document once with each contender, in turn, so that the machine's noise hits \
            them alike; the table shows the median throughput of all rounds.
            """
    )

    @Option(help: "The folder holding twitter.json, citm_catalog.json and canada.json.")
    var corpus = "Benchmarks/Corpus"

    @Option(help: "How many interleaved rounds to run.")
    var rounds = 15

    @Option(help: "Run only the documents whose file name contains this text.")
    var document: String?

    @Option(
        help: """
            Run only this contender (HandyStream, Foundation, yajl, or encode: HandyStream writing the decoded models \
            back to JSON; partial: the partial model; path: the path at the end; inline: canada.json's points as \
            InlineArray<2, Double>; arrays: canada.json's arrays made and freed, without JSON; codable, codable-strict, codable-foundation, codable-encode, \
            codable-jsonencoder: the plain Codable types; events-callbacks, events-batched: the batching prototype, \
            yajl's events delivered by callbacks or in batches), without the table: for profilers.
            """)
    var only: String?

    @Option(help: "Stream the elements at data.items of this file (see `handystream generate`) instead.")
    var streamFile: String?

    @Option(
        help: """
            Decode the JSON Lines of this file (see `handystream generate --lines`) on one thread and on --jobs \
            threads, interleaved, beside yajl's bare tokenizer, instead.
            """)
    var linesFile: String?

    @Option(
        help: """
            The same for the elements at data.items of this file (see `handystream generate`): one large array \
            split across the threads.
            """)
    var arrayFile: String?

    @Option(help: "With --lines-file or --array-file: the threads to compare with one.")
    var jobs = 2

    @Option(
        help: """
            Decode one string of this many megabytes whole and pushed in 4 KiB chunks, interleaved, instead: the \
            time a long token costs at a small chunk size.
            """)
    var longString: Int?

    /// What `--only` takes besides a prefix of a standard contender's name (HandyStream, Foundation, yajl bare).
    static let specialContenders = [
        "encode", "partial", "path", "inline", "arrays", "events-callbacks", "events-batched", "codable",
        "codable-strict", "codable-foundation", "codable-encode", "codable-jsonencoder",
    ]

    /// The runs of `--stream-file` (``runStream(_:)``), which `--only` picks by a prefix of their name.
    static let streamRuns = [
        "yajl bare", "HandyStream, typed elements", "HandyStream, Codable elements",
        "HandyStream, JSONText elements (extract)",
    ]

    /// Options that would measure nothing, or trap, are usage errors (exit status 64), told before any file is read.
    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1, not \(rounds).") }
        try checkJobs(jobs)
        if let only, linesFile != nil || arrayFile != nil {
            guard Self.linesRuns.contains(where: { $0.hasPrefix(only.lowercased()) }) else {
                throw ValidationError("--only \(only) names no run; one of: \(Self.linesRuns.joined(separator: ", ")).")
            }
            return
        }
        if let longString, longString <= 0 {
            throw ValidationError("--long-string takes a positive number of megabytes, not \(longString).")
        }
        let files = BenchDocument.all.map(\.file)
        if let document, streamFile == nil, longString == nil, !files.contains(where: { $0.contains(document) }) {
            throw ValidationError("--document \(document) names none of \(files.joined(separator: ", ")).")
        }
        if let only, longString == nil {
            let name = only.lowercased()
            let contenders = BenchDocument.all.flatMap { $0.contenders.map { $0.name.lowercased() } }
            let known =
                streamFile == nil
                ? Self.specialContenders.contains(name) || contenders.contains(where: { $0.hasPrefix(name) })
                : Self.streamRuns.contains(where: { $0.lowercased().hasPrefix(name) })
            guard !name.isEmpty && known else {
                let names =
                    streamFile == nil
                    ? ["HandyStream", "Foundation", "yajl"] + Self.specialContenders : Self.streamRuns
                throw ValidationError("--only \(only) names no contender; one of: \(names.joined(separator: ", ")).")
            }
        }
    }

    /// A file of the corpus, read whole. One that cannot be read is reported as every command reports it (exit
    /// status 1), with a hint when it is missing: the default corpus is found only from the repository's root.
    private func corpusFile(_ name: String) throws -> Data {
        let path = corpus.hasSuffix("/") ? corpus + name : corpus + "/" + name
        do {
            var data = Data()
            try ChunkReader.read(file: path) { chunk in
                if let base = chunk.baseAddress {
                    data.append(base.assumingMemoryBound(to: UInt8.self), count: chunk.count)
                }
                return true
            }
            return data
        } catch {
            let failure = ExitCode.report(error, file: path)
            if (error as? JSONDecodingError)?.kind == .unreadable, !FileManager.default.fileExists(atPath: path) {
                FileHandle.standardError.write(
                    Data(
                        ("handystream bench: the corpus is the repository's Benchmarks/Corpus: run bench from the "
                            + "repository's root, or pass --corpus FOLDER\n").utf8))
            }
            throw failure
        }
    }

    func run() throws {
        if let linesFile { return try runLines(linesFile) }
        if let arrayFile { return try runLines(arrayFile, at: "data.items[*]") }
        if let streamFile { return try runStream(streamFile) }
        if let longString { return try runLongString(megabytes: longString) }
        let selected = BenchDocument.all.filter { document.map($0.file.contains) ?? true }
        let documents = try selected.map { document in (document, try corpusFile(document.file)) }
        if let only {
            for (document, data) in documents {
                if only.lowercased() == "encode" {
                    let encode = try document.encoding(data)
                    for _ in 0..<rounds { _ = try encode() }
                    continue
                }
                if only.lowercased() == "partial" {
                    for _ in 0..<rounds { _ = try ModelDecoder().decode(TwitterSearchPartial.self, from: data) }
                    continue
                }
                if only.lowercased() == "events-callbacks" || only.lowercased() == "events-batched" {
                    // The batching prototype (EventDelivery): the same events delivered two ways.
                    let batched = only.lowercased() == "events-batched"
                    var events = 0
                    for _ in 0..<rounds {
                        events = data.withUnsafeBytes {
                            (batched ? EventDelivery.parseBatched($0) : EventDelivery.parseWithCallbacks($0)).events
                        }
                    }
                    print("\(document.file): \(events) events")
                    continue
                }
                if only.lowercased() == "arrays" {
                    // What making and freeing canada.json's arrays costs without reading any JSON: the floor under
                    // any decoder that makes `[[[Double]]]` coordinates. Decoded once; each round copies every array
                    // of the result anew (each `[x, y]` from an array literal, as the decoder makes it) and drops it.
                    let collection = try ModelDecoder().decode(FeatureCollection.self, from: data)
                    var points = 0
                    for _ in 0..<rounds { points = Self.copyArrays(collection) }
                    print("\(document.file): \(points) points copied per round")
                    continue
                }
                if only.lowercased() == "inline" {
                    for _ in 0..<rounds { _ = try ModelDecoder().decode(InlineFeatureCollection.self, from: data) }
                    continue
                }
                if only.lowercased() == "path" {
                    for _ in 0..<rounds {
                        _ = try ModelDecoder().decode(SearchMetadata.self, from: data, at: "search_metadata")
                    }
                    continue
                }
                if only.lowercased().hasPrefix("codable") {
                    let codable = try document.codable(data)
                    let contender =
                        codable.decoding.first { $0.name.lowercased() == only.lowercased() }
                        ?? codable.encoding.first { $0.name.lowercased() == only.lowercased() }
                    guard let contender else { throw ValidationError("no contender named \(only)") }
                    for _ in 0..<rounds { _ = try contender.run(data) }
                    continue
                }
                for contender in document.contenders where contender.name.lowercased().hasPrefix(only.lowercased()) {
                    for _ in 0..<rounds { _ = try contender.run(data) }
                }
            }
            return
        }
        print("HandyStream bench: \(rounds) interleaved rounds; MB/s are medians (1 MB = 10^6 bytes).\n")
        for (document, data) in documents {
            print("\(document.file) (\(data.count.formatted()) bytes): \(try document.summary(data))")
        }
        print("")

        var rows: [[String]] = []
        for (document, data) in documents {
            var seconds = Array(repeating: [Double](), count: document.contenders.count)
            for _ in 0..<rounds {
                for (index, contender) in document.contenders.enumerated() {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let found = try contender.run(data)
                    let elapsed = DispatchTime.now().uptimeNanoseconds - start
                    precondition(found > 0, "\(contender.name) found nothing in \(document.file)")
                    seconds[index].append(Double(elapsed) / 1e9)
                }
            }
            let throughput = seconds.map { Double(data.count) / median($0) / 1e6 }
            let ours = throughput[0]
            let foundation = throughput[1]
            let yajl = throughput[2]
            rows.append([
                document.file, format(ours), format(foundation), format(yajl),
                String(format: "%.2f×", ours / foundation), String(format: "%.0f%%", ours / yajl * 100),
            ])
        }
        printTable(
            header: ["document", "HandyStream", "Foundation", "yajl bare", "vs Foundation", "of yajl"], rows: rows)
        print("")
        try runCodable(documents)
        if document == nil {
            print("")
            try runComparisons()
        }
        print(
            """

            HandyStream and Foundation's JSONDecoder fill the same models (every field of the document); "yajl bare" \
            is yajl's tokenizer with callbacks that do nothing, the ceiling of a decoder built on it. "vs Foundation" \
            is HandyStream's throughput over JSONDecoder's; "of yajl" is HandyStream's share of the bare tokenizer's. \
            The comparisons measure what a feature costs: a partial model (three fields), a model whose properties \
            are renamed through mapping(mapper:), and a designated path at the end of the document; the \
            serialization rows write the decoded models back to JSON (MB/s of the source document).
            """)
    }

    /// One string of `megabytes` MB decoded as a `String` whole, and pushed through an incremental decoder in 4 KiB
    /// chunks as a server hands a body over: time linear in the token's length makes the two take about as long.
    private func runLongString(megabytes: Int) throws {
        guard megabytes > 0 else { throw ValidationError("--long-string takes a positive number of megabytes") }
        let json = Data(("\"" + String(repeating: "abcdefgh", count: megabytes * 1_000_000 / 8) + "\"").utf8)
        let chunkSize = 4096
        let contenders = [
            Contender(name: "whole") { data in try ModelDecoder().decode(String.self, from: data).utf8.count },
            Contender(name: "4 KiB chunks") { data in
                let decoder = try ModelDecoder().incremental(String.self)
                for start in stride(from: 0, to: data.count, by: chunkSize) {
                    _ = try decoder.feed(data[start..<min(data.count, start + chunkSize)])
                }
                return try decoder.finish().utf8.count
            },
        ]
        var seconds = Array(repeating: [Double](), count: contenders.count)
        for _ in 0..<max(1, rounds) {
            for (index, contender) in contenders.enumerated() {
                seconds[index].append(try self.seconds(contender, json))
            }
        }
        let medians = seconds.map(median)
        print("A string of \(json.count.formatted()) bytes, \(max(1, rounds)) interleaved rounds (medians):")
        printTable(
            header: ["contender", "seconds", "throughput"],
            rows: zip(contenders, medians).map { contender, median in
                [contender.name, String(format: "%.3f", median), format(Double(json.count) / median / 1e6)]
            })
        print(String(format: "4 KiB chunks take %.2f× the time of one chunk.", medians[1] / medians[0]))
    }

    /// The same documents as plain `Codable` types: HandyStream lenient and strict against `JSONDecoder`, and
    /// `ModelEncoder` against `JSONEncoder`, interleaved round by round.
    private func runCodable(_ documents: [(BenchDocument, Data)]) throws {
        var rows: [[String]] = []
        for (document, data) in documents {
            let codable = try document.codable(data)
            let contenders = codable.decoding + codable.encoding
            var seconds = Array(repeating: [Double](), count: contenders.count)
            for _ in 0..<rounds {
                for (index, contender) in contenders.enumerated() {
                    seconds[index].append(try self.seconds(contender, data))
                }
            }
            let rate = seconds.map { Double(data.count) / median($0) / 1e6 }
            rows.append([
                document.file, format(rate[0]), format(rate[1]), format(rate[2]),
                String(format: "%.2f×", rate[0] / rate[2]), String(format: "%.2f×", rate[1] / rate[2]),
                String(format: "%.0f%%", rate[0] / rate[1] * 100),
                format(rate[3]), format(rate[4]), String(format: "%.2f×", rate[3] / rate[4]),
            ])
        }
        printTable(
            header: [
                "Codable types", "lenient", "strict", "JSONDecoder", "lenient ×", "strict ×", "lenient/strict",
                "ModelEncoder", "JSONEncoder", "encode ×",
            ],
            rows: rows)
    }

    /// Element streaming over a large file, against yajl's bare tokenizer over the same chunks.
    private func runStream(_ file: String) throws {
        // A file that cannot be read is reported as every command reports it, not measured as 0 bytes.
        do {
            try ChunkReader.read(file: file, chunkSize: 1) { _ in false }
        } catch {
            throw ExitCode.report(error, file: file)
        }
        let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        // Named as in `streamRuns`, which `--only` is checked against.
        var runs: [(String, () throws -> Int)] = [
            (
                "yajl bare",
                {
                    try Self.bareTokenizer(file)
                }
            ),
            (
                "HandyStream, typed elements",
                {
                    var count = 0
                    try ModelDecoder().forEachElement(of: GeneratedItem.self, at: "data.items", inFileAt: file) {
                        item in
                        count += item.tags.count > 0 ? 1 : 0
                    }
                    return count
                }
            ),
            (
                "HandyStream, Codable elements",
                {
                    var count = 0
                    try ModelDecoder().forEachElement(
                        of: PlainCodable.GeneratedItem.self, at: "data.items", inFileAt: file
                    ) {
                        count += $0.tags.count > 0 ? 1 : 0
                    }
                    return count
                }
            ),
            (
                "HandyStream, JSONText elements (extract)",
                {
                    var count = 0
                    try ModelDecoder().forEachElement(of: JSONText.self, at: "data.items[*]", inFileAt: file) {
                        count += $0.bytes.isEmpty ? 0 : 1
                    }
                    return count
                }
            ),
        ]
        if let only { runs = runs.filter { $0.0.lowercased().hasPrefix(only.lowercased()) } }
        print("Streaming \(file) (\(size.formatted()) bytes) in 64 KiB chunks:")
        var yajlRate: Double?
        for (name, run) in runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let found = try run()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let rate = Double(size) / seconds / 1e6
            if name == "yajl bare" { yajlRate = rate }
            let ratio = yajlRate.map { String(format: ", %.0f%% of yajl", rate / $0 * 100) } ?? ""
            print("  \(name): \(format(rate))\(ratio) (\(found.formatted()) found)")
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("Peak resident memory of this process: \(usage.ru_maxrss / 1024) MB")
    }

    /// A copy of every array of `collection` (features, rings, points), made anew and then dropped; returns the number
    /// of points, so that the copy is made. Not inlined, so that the optimizer sees nothing to fold across rounds.
    @inline(never)
    static func copyArrays(_ collection: FeatureCollection) -> Int {
        let features = collection.features.map { feature in
            var copy = feature
            copy.geometry.coordinates = feature.geometry.coordinates.map { ring in
                ring.map { point in [point[0], point[1]] }
            }
            return copy
        }
        return features.reduce(0) { $0 + $1.geometry.coordinates.reduce(0) { $0 + $1.count } }
    }

    private static func bareTokenizer(_ file: String) throws -> Int {
        try BareTokenizer.parseFile(file)
    }

    /// Pairs of ways to decode the same document, measured the same way: what a feature costs.
    private func runComparisons() throws {
        let twitter = try corpusFile("twitter.json")
        let comparisons: [(String, Contender, Contender)] = [
            (
                "twitter.json, partial model: HandyStream vs Foundation",
                Contender(name: "HandyStream") {
                    try ModelDecoder().decode(TwitterSearchPartial.self, from: $0).statuses.count
                },
                Contender(name: "Foundation") {
                    try JSONDecoder().decode(PlainCodable.TwitterSearchPartial.self, from: $0).statuses.count
                }
            ),
            (
                "twitter.json, partial model with mappings vs without",
                Contender(name: "mapped") {
                    try ModelDecoder().decode(TwitterSearchMapped.self, from: $0).tweets.count
                },
                Contender(name: "plain") {
                    try ModelDecoder().decode(TwitterSearchPartial.self, from: $0).statuses.count
                }
            ),
            (
                "twitter.json, partial model vs yajl bare",
                Contender(name: "HandyStream") {
                    try ModelDecoder().decode(TwitterSearchPartial.self, from: $0).statuses.count
                },
                Contender(name: "yajl") { data in data.withUnsafeBytes { BareTokenizer.parse($0) ? data.count : 0 } }
            ),
            (
                "twitter.json, designated path at the end (search_metadata) vs yajl bare",
                Contender(name: "path") {
                    try ModelDecoder().decode(SearchMetadata.self, from: $0, at: "search_metadata").count
                },
                Contender(name: "yajl") { data in data.withUnsafeBytes { BareTokenizer.parse($0) ? data.count : 0 } }
            ),
        ]
        let canada = try corpusFile("canada.json")
        let points: [(String, Contender, Contender, Data)] = [
            (
                "canada.json, points as InlineArray<2, Double> vs [Double]",
                Contender(name: "inline") {
                    try ModelDecoder().decode(InlineFeatureCollection.self, from: $0).features.count
                },
                Contender(name: "array") { try ModelDecoder().decode(FeatureCollection.self, from: $0).features.count },
                canada
            )
        ]
        let search = try ModelDecoder().decode(TwitterSearch.self, from: twitter)
        let plainSearch = try JSONDecoder().decode(PlainCodable.TwitterSearch.self, from: twitter)
        let citm = try corpusFile("citm_catalog.json")
        let catalog = try ModelDecoder().decode(Catalog.self, from: citm)
        let plainCatalog = try JSONDecoder().decode(PlainCodable.Catalog.self, from: citm)
        // Each row's MB/s are of its own source document.
        let encodings: [(String, Contender, Contender, Data)] = [
            (
                "twitter.json models to JSON: HandyStream vs JSONEncoder",
                Contender(name: "HandyStream") { _ in try ModelEncoder().encode(search).count },
                Contender(name: "JSONEncoder") { _ in try JSONEncoder().encode(plainSearch).count }, twitter
            ),
            (
                "citm_catalog.json models to JSON: HandyStream vs JSONEncoder",
                Contender(name: "HandyStream") { _ in try ModelEncoder().encode(catalog).count },
                Contender(name: "JSONEncoder") { _ in try JSONEncoder().encode(plainCatalog).count }, citm
            ),
        ]
        // Codable elements streamed from a generated document in memory, against JSONDecoder on the whole array.
        let generated = Data(
            (#"{"data": {"items": ["#
                + (0..<20_000).map {
                    String(decoding: Generate.element($0), as: UTF8.self)
                }.joined(separator: ",") + "]}}").utf8)
        let badPrices = Data(
            String(decoding: generated, as: UTF8.self)
                .replacingOccurrences(of: #""price":"#, with: #""price":"n/a","was":"#).utf8)
        struct Items: Decodable {
            struct Inner: Decodable { var items: [PlainCodable.GeneratedItem] }
            var data: Inner
        }
        let streaming: [(String, Contender, Contender, Data)] = [
            (
                "generated 20,000 items, Codable: elements streamed vs JSONDecoder on the whole array",
                Contender(name: "HandyStream") { data in
                    let elements = try ModelDecoder().elements(of: PlainCodable.GeneratedItem.self, at: "data.items")
                    var count = 0
                    for start in stride(from: 0, to: data.count, by: 1 << 16) {
                        count += try elements.feed(data[start..<min(start + (1 << 16), data.count)]).count
                    }
                    return count + (try elements.finish().count)
                },
                Contender(name: "JSONDecoder") { try JSONDecoder().decode(Items.self, from: $0).data.items.count },
                generated
            ),
            // Lenient mode's cost when every element needs a rescue (its price is not a number), against the same
            // document without the mistakes (the MB/s of each are of the clean document's size).
            (
                "generated 20,000 items, Codable, lenient: one bad field in every element vs none",
                Contender(name: "rescued") { _ in
                    try ModelDecoder().decode(Items.self, from: badPrices).data.items.count
                },
                Contender(name: "clean") { try ModelDecoder().decode(Items.self, from: $0).data.items.count },
                generated
            ),
        ]
        var rows: [[String]] = []
        for (title, first, second, data) in comparisons.map({ ($0.0, $0.1, $0.2, twitter) }) + points + encodings
            + streaming
        {
            var times: ([Double], [Double]) = ([], [])
            for _ in 0..<rounds {
                times.0.append(try seconds(first, data))
                times.1.append(try seconds(second, data))
            }
            let a = Double(data.count) / median(times.0) / 1e6
            let b = Double(data.count) / median(times.1) / 1e6
            rows.append([
                title, "\(first.name) " + format(a), "\(second.name) " + format(b), String(format: "%.2f", a / b),
            ])
        }
        printTable(header: ["comparison", "first", "second", "first / second"], rows: rows)
    }

    private func seconds(_ contender: Contender, _ data: Data) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let found = try contender.run(data)
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        precondition(found > 0, "\(contender.name) found nothing")
        return Double(elapsed) / 1e9
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    func format(_ megabytesPerSecond: Double) -> String { String(format: "%.1f MB/s", megabytesPerSecond) }

    func printTable(header: [String], rows: [[String]]) {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == 0
                    ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[index] - cell.count) + cell
            }.joined(separator: "  ")
        }
        print(line(header))
        print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for row in rows { print(line(row)) }
    }
}

/// One way of decoding a document; returns a count of what it found, so nothing is optimized away.
struct Contender {
    var name: String
    var run: (Data) throws -> Int
}

struct BenchDocument {
    var file: String
    var summary: (Data) throws -> String
    /// HandyStream first, Foundation second, yajl's bare tokenizer third.
    var contenders: [Contender]
    /// Decodes the document once; the closure writes the models back to JSON.
    var encoding: (Data) throws -> () throws -> Int

    static var all: [BenchDocument] {
        [
            BenchDocument(
                file: "twitter.json",
                summary: { data in
                    let search = try ModelDecoder().decode(TwitterSearch.self, from: data)
                    let retweets = search.statuses.filter { $0.retweeted_status != nil }.count
                    let hashtags = search.statuses.reduce(0) { $0 + $1.entities.hashtags.count }
                    let users = Set(search.statuses.map(\.user.id)).count
                    return "\(search.statuses.count) statuses (\(retweets) retweets) by \(users) users, "
                        + "\(hashtags) hashtags"
                },
                contenders: standardContenders(
                    TwitterSearch.self, PlainCodable.TwitterSearch.self, { $0.statuses.count }
                ) {
                    $0.statuses.count
                },
                encoding: encoding(TwitterSearch.self)),
            BenchDocument(
                file: "citm_catalog.json",
                summary: { data in
                    let catalog = try ModelDecoder().decode(Catalog.self, from: data)
                    let prices = catalog.performances.reduce(0) { $0 + $1.prices.count }
                    return
                        "\(catalog.events.count) events, \(catalog.performances.count) performances, \(prices) prices"
                },
                contenders: standardContenders(Catalog.self, PlainCodable.Catalog.self, { $0.performances.count }) {
                    $0.performances.count
                },
                encoding: encoding(Catalog.self)),
            BenchDocument(
                file: "canada.json",
                summary: { data in
                    let collection = try ModelDecoder().decode(FeatureCollection.self, from: data)
                    let rings = collection.features.reduce(0) { $0 + $1.geometry.coordinates.count }
                    let points = collection.features.reduce(0) {
                        $0 + $1.geometry.coordinates.reduce(0) { $0 + $1.count }
                    }
                    return "\(collection.features.count) feature, \(rings) rings, \(points.formatted()) points"
                },
                contenders: standardContenders(
                    FeatureCollection.self, PlainCodable.FeatureCollection.self,
                    {
                        $0.features.count
                    }
                ) { $0.features.count },
                encoding: encoding(FeatureCollection.self)),
        ]
    }

    /// The document's plain Codable contenders: decoding (lenient, strict, JSONDecoder) and encoding (ModelEncoder,
    /// JSONEncoder, of values decoded once).
    func codable(_ data: Data) throws -> (decoding: [Contender], encoding: [Contender]) {
        switch file {
        case "twitter.json": try Self.codable(PlainCodable.TwitterSearch.self, data) { $0.statuses.count }
        case "citm_catalog.json": try Self.codable(PlainCodable.Catalog.self, data) { $0.performances.count }
        default: try Self.codable(PlainCodable.FeatureCollection.self, data) { $0.features.count }
        }
    }

    static func codable<Value: Codable>(_: Value.Type, _ data: Data, count: @escaping (Value) -> Int) throws
        -> (decoding: [Contender], encoding: [Contender])
    {
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        let value = try JSONDecoder().decode(Value.self, from: data)
        return (
            [
                Contender(name: "codable") { count(try ModelDecoder().decode(Value.self, from: $0)) },
                Contender(name: "codable-strict") { count(try strict.decode(Value.self, from: $0)) },
                Contender(name: "codable-foundation") { count(try JSONDecoder().decode(Value.self, from: $0)) },
            ],
            [
                Contender(name: "codable-encode") { _ in try ModelEncoder().encode(value).count },
                Contender(name: "codable-jsonencoder") { _ in try JSONEncoder().encode(value).count },
            ]
        )
    }

    static func encoding<Model: HandyJSON>(_: Model.Type) -> (Data) throws -> () throws -> Int {
        { data in
            let model = try ModelDecoder().decode(Model.self, from: data)
            return { try ModelEncoder().encode(model).count }
        }
    }

    /// The model by its field tables, and Foundation's JSONDecoder on its plain Codable twin (the same fields).
    static func standardContenders<Model: HandyJSON, Twin: Decodable>(
        _: Model.Type, _: Twin.Type, _ count: @escaping (Model) -> Int, twinCount: @escaping (Twin) -> Int
    ) -> [Contender] {
        [
            Contender(name: "HandyStream") { count(try ModelDecoder().decode(Model.self, from: $0)) },
            Contender(name: "Foundation") { twinCount(try JSONDecoder().decode(Twin.self, from: $0)) },
            Contender(name: "yajl bare") { data in data.withUnsafeBytes { BareTokenizer.parse($0) ? data.count : 0 } },
        ]
    }
}
