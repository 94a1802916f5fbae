import Foundation
import HandyStream
import Testing

// Strict mode is `JSONDecoder` through every entry point, not only `decode(_:from:)`: seeded random arrays of a model
// (nearly fitting, as in DifferentialTests) under a designated path, decoded whole at the path, element by element
// from chunks of random sizes, one element incrementally, and from the `[String: Any]` JSONSerialization makes of
// the document; each must give `JSONDecoder`'s values, or an error where `JSONDecoder` throws (its case and type,
// and its coding path below the designated path). Lenient mode must give the same values wherever `JSONDecoder`
// decodes.

@Suite struct EntryPointDifferentialTests {
    /// A decode's outcome at a designated path: the value, or the error's case and the end of its coding path that
    /// `JSONDecoder` would give for the value alone (ours starts at the document's root).
    static func outcome<T: Equatable>(_ body: () throws -> T) -> DiffOutcome<T> { DiffOutcome(body) }

    /// `ours` is `expected`, an error's path allowed to begin with the designated path's keys.
    static func same<T>(_ ours: DiffOutcome<T>, _ expected: DiffOutcome<T>, prefix: [String]) -> Bool {
        if ours == expected { return true }
        guard case .error(let kind, let path) = ours, case .error(let expectedKind, let expectedPath) = expected,
            kind == expectedKind
        else { return false }
        return path == prefix + expectedPath
    }

    @Test(arguments: [51, 52] as [UInt64])
    func arraysAtADesignatedPath(seed: UInt64) throws {
        var documents = RandomDocuments(seed: seed, mistakeRate: 0.04)
        var chunking = SplitMix64(seed: seed &+ 7)
        // forEachElement's chunk sizes: a generator of their own, so that the other cases stay the same.
        var fileChunking = SplitMix64(seed: seed &+ 13)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("handystream-entry-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let jsonDecoder = JSONDecoder()
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        let lenient = ModelDecoder()
        var decodedArrays = 0
        var failedArrays = 0
        for _ in 0..<(DifferentialTests.casesPerSeed / 4) {
            let elements = (0..<Int(chunking.next() % 4)).map { _ in documents.document(.tagged) }
            let items = "[" + elements.joined(separator: ", ") + "]"
            let text = #"{"meta": {"count": \#(elements.count)}, "data": {"items": \#(items), "after": [1, 2]}}"#
            let document = Data(text.utf8)
            let expected = DiffOutcome { try jsonDecoder.decode([DiffTagged].self, from: Data(items.utf8)) }
            if expected.isValue { decodedArrays += 1 } else { failedArrays += 1 }
            let prefix = ["data", "items"]

            // Whole, at the path.
            let whole = DiffOutcome { try strict.decode([DiffTagged].self, from: document, at: "data.items") }
            #expect(Self.same(whole, expected, prefix: prefix), "at the path: \(whole) / \(expected)\n\(text)")

            // From JSONSerialization's objects, where it reads the document (it refuses 1e400), against JSONDecoder
            // on the JSON those objects hold (of a key written twice they keep the last value, JSONDecoder the first).
            if let object = try? JSONSerialization.jsonObject(with: document),
                let items = ((object as? [String: Any])?["data"] as? [String: Any])?["items"],
                let itemsText = try? JSONSerialization.data(withJSONObject: items)
            {
                let expectedFromObject = DiffOutcome { try jsonDecoder.decode([DiffTagged].self, from: itemsText) }
                let fromObject = DiffOutcome {
                    try strict.decode([DiffTagged].self, fromJSONObject: object, at: "data.items")
                }
                #expect(
                    Self.same(fromObject, expectedFromObject, prefix: prefix),
                    "from objects: \(fromObject) / \(expectedFromObject)\n\(text)")
            }

            // Element by element, from chunks of random sizes: JSONDecoder's value of each element, up to the first
            // one it refuses, where the stream throws.
            let perElement = elements.map { element in
                DiffOutcome { try jsonDecoder.decode(DiffTagged.self, from: Data(element.utf8)) }
            }
            let firstRefused = perElement.firstIndex { !$0.isValue }
            let stream = try strict.elements(of: DiffTagged.self, at: "data.items")
            var streamed: [DiffTagged] = []
            var threw = false
            do {
                var offset = 0
                let bytes = Array(document)
                while offset < bytes.count {
                    let size = 1 + Int(chunking.next() % 40)
                    streamed += try stream.feed(bytes[offset..<min(offset + size, bytes.count)])
                    offset += size
                }
                streamed += try stream.finish()
            } catch {
                threw = true
            }
            let decodedPrefix = perElement[..<(firstRefused ?? perElement.count)].map { outcome -> DiffTagged? in
                if case .value(let value) = outcome { return value }
                return nil
            }
            #expect(streamed == decodedPrefix.compactMap { $0 }, "streamed\n\(text)")
            #expect(threw == (firstRefused != nil), "the stream threw: \(threw)\n\(text)")

            // The same through forEachElement, from a file read in chunks of a random size: each element JSONDecoder
            // decodes, up to the first it refuses, handed to the body, then the error.
            try document.write(to: file)
            var each: [DiffTagged] = []
            let eachThrew =
                (try? strict.forEachElement(
                    of: DiffTagged.self, at: "data.items", inFileAt: file.path,
                    chunkSize: 1 + Int(fileChunking.next() % 40)
                ) { each.append($0) }) == nil
            #expect(each == decodedPrefix.compactMap { $0 }, "forEachElement\n\(text)")
            #expect(eachThrew == (firstRefused != nil), "forEachElement threw: \(eachThrew)\n\(text)")

            // The first element, incrementally.
            if let first = perElement.first {
                let incremental = try strict.incremental(DiffTagged.self, at: "data.items[0]")
                let ours = DiffOutcome {
                    _ = try incremental.feed(document)
                    return try incremental.finish()
                }
                #expect(Self.same(ours, first, prefix: ["data", "items", "Index 0"]), "incremental \(ours) / \(first)")
            }

            // Lenient mode: the same values wherever JSONDecoder decodes.
            if case .value(let values) = expected {
                #expect(try lenient.decode([DiffTagged].self, from: document, at: "data.items") == values)
                let lenientStream = try lenient.elements(of: DiffTagged.self, at: "data.items")
                #expect(try lenientStream.feed(document) + lenientStream.finish() == values)
                var lenientEach: [DiffTagged] = []
                try lenient.forEachElement(of: DiffTagged.self, at: "data.items", inFileAt: file.path) {
                    lenientEach.append($0)
                }
                #expect(lenientEach == values)
            }
        }
        #expect(decodedArrays > DifferentialTests.casesPerSeed / 40)
        #expect(failedArrays > 0)
    }
}
