import Benchmark
import Foundation
import HandyStream

// HandyStream against Foundation on the bundled corpus (Benchmarks/Corpus, credited in its README), in one run.
// yajl's bare tokenizer is measured by `handystream bench` in the main package, which links it.

private let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus")

private func load(_ name: String) -> Data {
    (try? Data(contentsOf: corpus.appendingPathComponent(name))) ?? Data()
}

/// A generated stream of ~1 KB elements under data.items, made in memory (64 MB: the 1 GB figure is measured by
/// `handystream bench --stream-file`).
private func generatedStream(megabytes: Int) -> [UInt8] {
    var bytes = Array(#"{"status": "ok", "data": {"items": ["#.utf8)
    var index = 0
    while bytes.count < megabytes * 1_000_000 {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes += Array(
            """
            {"id":\(index),"name":"item \(index)","price":\(Double(index % 10_000) / 100 + 0.99),"active":true,\
            "tags":["a","b","c"],"owner":{"id":\(index % 5000),"name":"owner","email":"o@example.com"},\
            "description":"\(String(repeating: "lorem ipsum dolor sit amet ", count: 28))","ratings":[4.5,3.25,5]}
            """.utf8)
        index += 1
    }
    bytes += Array("]}}".utf8)
    return bytes
}

/// The elements at data.items of `stream`, fed in 64 KiB chunks; how many there were.
private func streamElements<T>(_ type: T.Type, of stream: [UInt8]) throws -> Int {
    let decoder = try ModelDecoder().elements(of: type, at: "data.items")
    var count = 0
    var offset = 0
    while offset < stream.count {
        let end = min(stream.count, offset + 65_536)
        count += try decoder.feed(stream[offset..<end]).count
        offset = end
    }
    return count + (try decoder.finish().count)
}

private func configuration(bytes: Int) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 200,
        thresholds: [
            // Allocation counts are exact and repeatable: a regression fails `benchmark baseline check`. Time
            // depends on the machine and its load, so it is reported, not checked.
            .mallocCountTotal: .init(relative: [.p50: 5.0], absolute: [.p50: 50]),
            .wallClock: .init(relative: [:], absolute: [:]),
            .throughput: .init(relative: [:], absolute: [:]),
            .peakMemoryResident: .init(relative: [:], absolute: [:]),
        ]
    )
}

let benchmarks: @Sendable () -> Void = {
    let twitter = load("twitter.json")
    let citm = load("citm_catalog.json")
    let canada = load("canada.json")

    Benchmark("twitter.json: HandyStream, full models", configuration: configuration(bytes: twitter.count)) { b in
        for _ in b.scaledIterations { blackHole(try ModelDecoder().decode(TwitterSearch.self, from: twitter)) }
    }
    Benchmark("twitter.json: Foundation JSONDecoder, full models", configuration: configuration(bytes: twitter.count)) {
        b in
        for _ in b.scaledIterations {
            blackHole(try JSONDecoder().decode(PlainCodable.TwitterSearch.self, from: twitter))
        }
    }
    Benchmark(
        "twitter.json: JSONSerialization, then the models from [String: Any]",
        configuration: configuration(bytes: twitter.count)
    ) { b in
        for _ in b.scaledIterations {
            let object = try JSONSerialization.jsonObject(with: twitter) as? [String: Any]
            blackHole(TwitterSearch.deserialize(from: object))
        }
    }
    Benchmark("twitter.json: HandyStream, partial model", configuration: configuration(bytes: twitter.count)) { b in
        for _ in b.scaledIterations { blackHole(try ModelDecoder().decode(TwitterSearchPartial.self, from: twitter)) }
    }
    Benchmark("twitter.json: Foundation JSONDecoder, partial model", configuration: configuration(bytes: twitter.count))
    { b in
        for _ in b.scaledIterations {
            blackHole(try JSONDecoder().decode(PlainCodable.TwitterSearchPartial.self, from: twitter))
        }
    }
    Benchmark(
        "twitter.json: HandyStream, designated path at the end", configuration: configuration(bytes: twitter.count)
    ) { b in
        for _ in b.scaledIterations {
            blackHole(try ModelDecoder().decode(SearchMetadata.self, from: twitter, at: "search_metadata"))
        }
    }
    Benchmark("citm_catalog.json: HandyStream", configuration: configuration(bytes: citm.count)) { b in
        for _ in b.scaledIterations { blackHole(try ModelDecoder().decode(Catalog.self, from: citm)) }
    }
    Benchmark("citm_catalog.json: Foundation JSONDecoder", configuration: configuration(bytes: citm.count)) { b in
        for _ in b.scaledIterations { blackHole(try JSONDecoder().decode(PlainCodable.Catalog.self, from: citm)) }
    }
    Benchmark("canada.json: HandyStream", configuration: configuration(bytes: canada.count)) { b in
        for _ in b.scaledIterations { blackHole(try ModelDecoder().decode(FeatureCollection.self, from: canada)) }
    }
    Benchmark("canada.json: Foundation JSONDecoder", configuration: configuration(bytes: canada.count)) { b in
        for _ in b.scaledIterations {
            blackHole(try JSONDecoder().decode(PlainCodable.FeatureCollection.self, from: canada))
        }
    }

    // The same documents as plain Codable types (no HandyJSON conformance): the Codable path, lenient and strict;
    // Foundation's JSONDecoder on the same types is the rows above.
    let strict = ModelDecoder(options: DecodingOptions(strict: true))
    Benchmark("twitter.json: HandyStream, plain Codable types", configuration: configuration(bytes: twitter.count)) {
        b in
        for _ in b.scaledIterations {
            blackHole(try ModelDecoder().decode(PlainCodable.TwitterSearch.self, from: twitter))
        }
    }
    Benchmark(
        "twitter.json: HandyStream strict, plain Codable types", configuration: configuration(bytes: twitter.count)
    ) { b in
        for _ in b.scaledIterations { blackHole(try strict.decode(PlainCodable.TwitterSearch.self, from: twitter)) }
    }
    Benchmark("citm_catalog.json: HandyStream, plain Codable types", configuration: configuration(bytes: citm.count)) {
        b in
        for _ in b.scaledIterations { blackHole(try ModelDecoder().decode(PlainCodable.Catalog.self, from: citm)) }
    }
    Benchmark("canada.json: HandyStream, plain Codable types", configuration: configuration(bytes: canada.count)) { b in
        for _ in b.scaledIterations {
            blackHole(try ModelDecoder().decode(PlainCodable.FeatureCollection.self, from: canada))
        }
    }
    if let plain = try? JSONDecoder().decode(PlainCodable.TwitterSearch.self, from: twitter) {
        Benchmark(
            "twitter.json Codable values to JSON: HandyStream ModelEncoder",
            configuration: configuration(bytes: twitter.count)
        ) { b in
            for _ in b.scaledIterations { blackHole(try ModelEncoder().encode(plain)) }
        }
    }

    let search = (try? ModelDecoder().decode(TwitterSearch.self, from: twitter)) ?? TwitterSearch()
    Benchmark("twitter.json models to JSON: HandyStream", configuration: configuration(bytes: twitter.count)) { b in
        for _ in b.scaledIterations { blackHole(try ModelEncoder().encode(search)) }
    }
    let plainSearch =
        (try? JSONDecoder().decode(PlainCodable.TwitterSearch.self, from: twitter)) ?? PlainCodable.TwitterSearch()
    Benchmark("twitter.json models to JSON: Foundation JSONEncoder", configuration: configuration(bytes: twitter.count))
    { b in
        for _ in b.scaledIterations { blackHole(try JSONEncoder().encode(plainSearch)) }
    }

    let stream = generatedStream(megabytes: 64)
    Benchmark(
        "64 MB stream: HandyStream element streaming, 64 KiB chunks",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
            maxDuration: .seconds(5), maxIterations: 5,
            thresholds: configuration(bytes: 0).thresholds)
    ) { b in
        for _ in b.scaledIterations { blackHole(try streamElements(GeneratedItem.self, of: stream)) }
    }
    Benchmark(
        "64 MB stream: HandyStream Codable element streaming, 64 KiB chunks",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
            maxDuration: .seconds(5), maxIterations: 5,
            thresholds: configuration(bytes: 0).thresholds)
    ) { b in
        for _ in b.scaledIterations { blackHole(try streamElements(PlainCodable.GeneratedItem.self, of: stream)) }
    }
}
