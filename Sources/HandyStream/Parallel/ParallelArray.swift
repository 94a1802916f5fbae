#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the array is: its `[` at `start`, after `keys` from the top-level value.
struct ArrayPlace {
    var start: Int
    var keys: [[UInt8]]
    /// The path is a `..` from the array (``DesignatedPath/fromSegment(_:eachElement:)``): one reading hands the
    /// array on as one value, and tells its diagnostics there, not at an element.
    var descendants = false
}

/// One large array's elements decoded on the workers, in order.
///
///     prefix ─▶ this thread's decoder (up to the array's `[`)
///     chunks ─▶ workers: structure (ChunkStructure) ─▶ this thread: cuts, in order (ArrayCuts); after the first
///               window of chunks, this thread: cuts where the bytes around its last cut recur (Separator)
///     spans between cuts ─▶ workers: each read as an array of its own ─▶ this thread: values, in order ─▶ body
///     `]` and the rest ─▶ this thread's decoder, which has read an empty array where the elements were
///
/// A span that fails while cuts are guessed has the structure read again from its start. Whatever else fails (a span
/// that isn't whole elements, bad input anywhere, a cut the structure can't give) hands the input to one decoder
/// reading it all from the start (or to `inOrder`), which skips the values and diagnostics already handed over: the
/// values, their order and the first error are then one reading's by construction.
extension ParallelLines {
    /// Reads `source` (from its start; random access) with the array at `place` split across the workers.
    /// `longestSpan`: the most bytes one span may hold (checked before each chunk is read) before the array is read
    /// in order instead. `inOrder`: what reads the input instead, if not one decoder
    /// (``readInOrder(_:then:lineFeedsBefore:skipping:skippingDiagnostics:spanRead:_:)``);
    /// without a path to confirm (`confirmsPath` false), any array of the document may be split.
    func run(
        array place: ArrayPlace, in source: LineSource, spanSize: Int, longestSpan: Int, confirmsPath: Bool = true,
        inOrder: (() throws -> Void)? = nil, spanRead: (Int) -> Void, _ body: (T, String?) throws -> Void
    ) throws {
        handedOver = Array(repeating: [], count: jobs)
        var delivered = 0
        var chunks: [LineSpan] = []
        /// Stops the workers and gives back the chunks they read from.
        func release() {
            stopWorkers()
            for chunk in chunks { source.recycle(chunk) }
            chunks = []
        }
        defer { release() }
        func readInOrder() throws {
            release()
            if let inOrder { return try inOrder() }
            try self.readInOrder(
                [], then: source, lineFeedsBefore: 0, skipping: delivered, skippingDiagnostics: diagnosticsTold,
                spanRead: spanRead, body)
        }
        func deliver(_ values: [T], paths: [String]) throws {
            for (index, value) in values.enumerated() {
                delivered += 1
                try body(value, recordsPaths ? paths[index] : nil)
            }
        }

        // The values before the array, as one reading makes them; its bytes after the array come last.
        // What it tells is counted, as the workers' is: one reading from the start tells it only once.
        var counted: (@Sendable (DecodingDiagnostic) -> Void)?
        if let tell = diagnostics {
            counted = { [self] diagnostic in
                diagnosticsTold += 1
                tell(diagnostic)
            }
        }
        let outer = try makeDecoder(counted)
        guard let prefix = try source.chunk(at: 0, count: place.start + 1) else { return try readInOrder() }
        guard prefix.bytes.count == place.start + 1 else {
            source.recycle(prefix)
            return try readInOrder()
        }
        var before: [T] = []
        // UTF-8, as the first bytes showed: a short prefix isn't held back to decide it.
        outer.engine.resume(atOffset: 0, newlines: 0)
        do {
            try outer.feed(prefix.bytes) { before.append($0) }
        } catch {
            source.recycle(prefix)
            return try readInOrder()
        }
        source.recycle(prefix)
        // One reading is where the array's elements are the path's matches, or the array isn't the one.
        guard !confirmsPath || outer.engine.opensEveryElement(afterKeys: place.keys.count) else {
            return try readInOrder()
        }
        try deliver(before, paths: recordsPaths ? outer.takePaths() : [])

        var cuts = ArrayCuts()
        var numbered = 0
        var readTo = place.start + 1
        var escaped = false
        var ended = false
        /// Chunks read whose structure isn't known yet, by their work's number.
        var scans: [Int] = []
        /// Spans given to the workers, in order: their work's number and bytes.
        var spans: [(number: Int, range: Range<Int>)] = []
        var spanStart = place.start + 1
        var arrayEnd: Int?
        var element = 0
        /// Cuts guessed where the bytes around a comma of the array recur (see ``Separator``); `nil`: each chunk's
        /// structure is read. Once guessing stops (a wrong guess, or none within a span's cap), structure only.
        var separator: Separator?
        var guesses = true

        func cut(at end: Int) {
            var pieces: [UnsafeRawBufferPointer] = []
            for chunk in chunks {
                let low = max(spanStart, chunk.offset)
                let high = min(end, chunk.offset + chunk.bytes.count)
                if low < high {
                    pieces.append(
                        UnsafeRawBufferPointer(rebasing: chunk.bytes[(low - chunk.offset)..<(high - chunk.offset)]))
                }
            }
            enqueue(numbered, .elements(pieces))
            spans.append((numbered, spanStart..<end))
            numbered += 1
            spanStart = end + 1
        }

        /// A guessed cut proved wrong, guesses stopped recurring within a span's cap, or the array's end wasn't
        /// found by guessing: its structure is read from `offset`, where the spans handed over end (after a comma
        /// between two elements, or the array's `[`). The spans waiting are dropped: each must start at or after
        /// `offset`, to be cut again.
        func readStructure(from offset: Int) {
            release()
            (scans, spans) = ([], [])
            (separator, guesses, cuts, escaped, ended) = (nil, false, ArrayCuts(), false, false)
            (readTo, spanStart) = (offset, offset)
        }

        while true {
            while arrayEnd == nil && !ended && (chunks.count < window || (spans.isEmpty && scans.isEmpty)) {
                if readTo - spanStart > longestSpan {
                    // The structure of the chunks read may cut the span yet, and the spans already cut are handed
                    // over before any are dropped.
                    if !scans.isEmpty || !spans.isEmpty { break }
                    // Guesses that never recur are left for the structure; one element longer than a span can hold
                    // is read in order, with all the rest.
                    if separator != nil {
                        readStructure(from: spanStart)
                        continue
                    }
                    return try readInOrder()
                }
                guard let chunk = try source.chunk(at: readTo, count: spanSize) else {
                    ended = true
                    break
                }
                guard !chunk.bytes.isEmpty else {
                    source.recycle(chunk)
                    ended = true
                    break
                }
                chunks.append(chunk)
                if let separator {
                    if let comma = separator.first(in: chunk, from: spanStart) { cut(at: comma) }
                } else {
                    enqueue(numbered, .scan(chunk.bytes, startsEscaped: escaped, base: readTo))
                    scans.append(numbered)
                    numbered += 1
                    escaped = ChunkStructure.endsEscaped(chunk.bytes, startsEscaped: escaped)
                }
                readTo += chunk.bytes.count
            }
            if let number = scans.first {
                scans.removeFirst()
                guard arrayEnd == nil else { continue }
                guard case .success(let scanned) = result(of: number), let structure = scanned.structure else {
                    return try readInOrder()
                }
                let finding = cuts.next(structure)
                if finding.unknown { return try readInOrder() }
                if let comma = finding.comma {
                    cut(at: comma)
                    // Guesses start after the last chunk whose structure was asked for.
                    if guesses && scans.isEmpty && finding.end == nil,
                        let chunk = chunks.last(where: { $0.offset <= comma })
                    {
                        separator = Separator(around: comma, in: chunk)
                    }
                }
                if let end = finding.end {
                    cut(at: end)
                    arrayEnd = end
                }
                continue
            }
            guard let (number, range) = spans.first else {
                // Guessing finds no end: the rest is read by its structure.
                if separator != nil && arrayEnd == nil {
                    readStructure(from: spanStart)
                    continue
                }
                break
            }
            spans.removeFirst()
            guard case .success(var decoded) = result(of: number) else {
                // A span that fails while cuts are guessed is read again by its structure; one after that, in order.
                if separator != nil {
                    readStructure(from: range.lowerBound)
                    continue
                }
                return try readInOrder()
            }
            let first = element
            element += decoded.elements
            try handOver(&decoded, rebase: { Self.rebase($0, normalized: $1, at: place, first: first) }) {
                value, path in
                delivered += 1
                try body(value, path)
            }
            spanRead(range.count + 1)
            // Chunks wholly before the next span are done with.
            while let chunk = chunks.first, chunk.offset + chunk.bytes.count <= range.upperBound + 1 {
                source.recycle(chunk)
                chunks.removeFirst()
            }
        }
        // The input ended inside the array.
        guard let arrayEnd else { return try readInOrder() }
        release()

        // The outer decoder has read an empty array where the elements were: it reads on from its `]`.
        var after: [T] = []
        do {
            var offset = arrayEnd
            while let chunk = try source.chunk(at: offset, count: spanSize) {
                defer { source.recycle(chunk) }
                if chunk.bytes.isEmpty { break }
                try outer.feed(chunk.bytes) { after.append($0) }
                offset += chunk.bytes.count
            }
            try outer.finish { after.append($0) }
        } catch {
            return try readInOrder()
        }
        try deliver(after, paths: recordsPaths ? outer.takePaths() : [])
    }

    /// A path in a span read alone (`$[2].price`, or normalized, `$[2]`) as one reading gives it
    /// (`$.data.items[7].price`, `$['data']['items'][7]`; a `..` from the array gives diagnostics no index).
    private static func rebase(_ path: String, normalized: Bool, at place: ArrayPlace, first: Int) -> String {
        guard path.hasPrefix("$["), let close = path.firstIndex(of: "]"),
            let index = Int(path[path.index(path.startIndex, offsetBy: 2)..<close])
        else { return path }
        let keys = place.keys.map { String(decoding: $0, as: UTF8.self) }
        let element = first + index
        let start =
            normalized
            ? JSONPath.normalized(keys.map { .key($0) } + [.index(element)])
            : keys.reduce("$") { $0 + "." + $1 } + (place.descendants ? "" : "[\(element)]")
        return start + path[path.index(after: close)...]
    }
}

/// The bytes around a comma of an array (`},{"id":`, `}, {` and the indent, `","`): where they recur, another
/// comma between two elements is likely. A guess: the span it ends is decoded as whole elements, or the array's
/// structure is read from there instead (``ParallelLines/run(array:in:spanSize:longestSpan:confirmsPath:inOrder:spanRead:_:)``).
struct Separator {
    let bytes: [UInt8]
    /// Where the comma is in `bytes`.
    let comma: Int

    /// From the last byte of the element before `comma` through the next one's first byte (for an object, through
    /// its first key's colon); `nil` when they aren't all in `chunk`.
    init?(around comma: Int, in chunk: LineSpan) {
        let bytes = chunk.bytes
        let at = comma - chunk.offset
        var start = at
        while start > 0, ASCII.isJSONSpace(bytes[start - 1]) { start -= 1 }
        guard start > 0 else { return nil }
        start -= 1
        var end = at + 1
        while end < bytes.count, ASCII.isJSONSpace(bytes[end]) { end += 1 }
        guard end < bytes.count else { return nil }
        if bytes[end] == UInt8(ascii: "{") {
            // Through the first key's colon, at most 32 bytes on.
            guard let colon = bytes[end..<min(bytes.count, end + 32)].firstIndex(of: UInt8(ascii: ":")) else {
                return nil
            }
            end = colon
        }
        // A number or a literal starts with what varies: only the bytes before it.
        let first = bytes[end]
        if first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            || [UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n")].contains(first)
        {
            end -= 1
        }
        let tail = bytes[start]
        if tail == UInt8(ascii: "}") || tail == UInt8(ascii: "]") || tail == UInt8(ascii: "\"") {
            self.bytes = Array(bytes[start...end])
            self.comma = at - start
        } else {
            self.bytes = Array(bytes[at...end])
            self.comma = 0
        }
    }

    /// The comma of the first place in `chunk`, at or after `offset`, where the bytes recur whole.
    func first(in chunk: LineSpan, from offset: Int) -> Int? {
        let bytes = chunk.bytes
        var index = max(0, offset - chunk.offset)
        while index + self.bytes.count <= bytes.count, let base = bytes.baseAddress {
            guard let found = memchr(base + index, Int32(self.bytes[0]), bytes.count - self.bytes.count + 1 - index)
            else { return nil }
            index = base.distance(to: UnsafeRawPointer(found))
            if memcmp(base + index, self.bytes, self.bytes.count) == 0 { return chunk.offset + index + comma }
            index += 1
        }
        return nil
    }
}
