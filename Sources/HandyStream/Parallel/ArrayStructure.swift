import Foundation

/// Where a large array's elements part, found chunk by chunk on any thread (the speculative pre-scan of Pison and
/// simdjson): a chunk's quotes, brackets and commas are read once for both states it may start in (inside a string
/// or not), then, in order, the state known at its start picks one reading (``ArrayCuts``). For the first window of
/// chunks, and once guessing (``Separator``) stops.
///
/// Only where elements part is taken from here: each span between two cuts is then decoded as a whole JSON array of
/// its own, so bytes the scan misread (invalid JSON) make a span fail to decode, never a value that isn't there.
struct ChunkStructure {
    /// Nesting levels below the chunk's start whose commas and closes are kept; deeper cuts are not looked for.
    static let levels = 64

    /// Whether the chunk holds an odd number of unescaped quotes: its end is then in the other state than its start.
    var quotesAreOdd = false
    /// Per start state (0: outside a string, 1: inside): the level at the chunk's end, relative to its start.
    var endLevel = (0, 0)
    /// Per start state: the lowest level reached (0 or below).
    var lowest = (0, 0)
    /// Per start state, at `level * 2 + state`: the offset of the first comma at relative level `-level` with no
    /// lower level before it (a comma of the container the chunk starts in, or of one it closes into); -1 if none.
    var firstComma: [Int]
    /// Per start state, at `level * 2 + state`: the offset of the bracket that first brought the level to
    /// `-level` (the close of the container `level - 1` levels up); -1 if none.
    var firstClose: [Int]

    /// Reads `bytes`, whose offsets are `base + index`; `startsEscaped`: the first byte is escaped.
    init(_ bytes: UnsafeRawBufferPointer, base: Int, startsEscaped: Bool) {
        // Both readings at once: `outside` is the reading (0 or 1) for which the byte is outside a string, and a
        // bracket moves that reading's level only.
        var level0 = 0
        var level1 = 0
        var lowest0 = 0
        var lowest1 = 0
        var outside = 0
        var escaped = startsEscaped ? 1 : 0
        var index = 0
        let end = bytes.count
        let commas = UnsafeMutableBufferPointer<Int>.allocate(capacity: 2 * Self.levels)
        let closes = UnsafeMutableBufferPointer<Int>.allocate(capacity: 2 * (Self.levels + 1))
        commas.initialize(repeating: -1)
        closes.initialize(repeating: -1)
        defer {
            commas.deallocate()
            closes.deallocate()
        }
        let classes = Self.classes
        // No load depends on the byte before, so the loads run ahead; only a new lowest level or a comma on it
        // branches.
        while index < end {
            // A byte's class (256 entries, any byte is in range); nothing after a backslash, which in valid JSON is
            // only ever inside a string.
            let kind = Int(classes[Int(bytes[index])]) & (escaped &- 1)
            escaped = (kind >> 1) & 1
            outside ^= kind & 1
            let change = (kind >> 3) & 1 &- (kind >> 4) & 1
            level0 &+= change & (outside &- 1)
            level1 &+= change & (0 &- outside)
            let now = outside == 0 ? level0 : level1
            let low = outside == 0 ? lowest0 : lowest1
            if now < low {
                // A close that takes this reading lower than ever in the chunk.
                if outside == 0 { lowest0 = now } else { lowest1 = now }
                if -now <= Self.levels { closes[-now * 2 + outside] = base + index }
            } else if kind & 4 & (now == low ? 4 : 0) != 0 && -now < Self.levels && commas[-now * 2 + outside] < 0 {
                commas[-now * 2 + outside] = base + index
            }
            index &+= 1
        }
        firstComma = Array(commas)
        firstClose = Array(closes)
        // Under the "inside" reading, the chunk's quotes flip the other way: `outside` counts them either way.
        quotesAreOdd = outside == 1
        endLevel = (level0, level1)
        lowest = (lowest0, lowest1)
    }

    /// Per byte: bit 0 a quote, 1 a backslash, 2 a comma, 3 an opening bracket, 4 a closing one. Allocated once.
    /// Written once, when first used; only read after.
    nonisolated(unsafe) private static let classes: UnsafePointer<UInt8> = {
        let classes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        classes.initialize(repeating: 0, count: 256)
        classes[Int(UInt8(ascii: "\""))] = 1
        classes[Int(UInt8(ascii: "\\"))] = 2
        classes[Int(UInt8(ascii: ","))] = 4
        classes[Int(UInt8(ascii: "["))] = 8
        classes[Int(UInt8(ascii: "{"))] = 8
        classes[Int(UInt8(ascii: "]"))] = 16
        classes[Int(UInt8(ascii: "}"))] = 16
        return UnsafePointer(classes)
    }()

    /// Whether the bytes after a chunk start escaped: `bytes` end in a run of backslashes of odd length, counting
    /// the escape the chunk starts with when the run is the whole chunk.
    static func endsEscaped(_ bytes: UnsafeRawBufferPointer, startsEscaped: Bool) -> Bool {
        var run = 0
        while run < bytes.count && bytes[bytes.count - 1 - run] == UInt8(ascii: "\\") { run += 1 }
        if run == bytes.count && startsEscaped { run -= 1 }
        return run % 2 == 1
    }
}

/// The state between chunks, carried in order: where the array's elements part, and where it ends.
struct ArrayCuts {
    /// Inside a string at the next chunk's start (under the reading of valid JSON).
    private(set) var inString = false
    /// Levels below the array's own at the next chunk's start (0: between its elements or in a scalar).
    private(set) var depth = 0

    /// What a chunk holds of the array's structure.
    struct Finding: Equatable {
        /// The first comma between two of the array's elements, if any.
        var comma: Int?
        /// The array's closing bracket, if the array ends in the chunk.
        var end: Int?
        /// The chunk starts too deep for its cuts to be known: the array must be read in order.
        var unknown = false
    }

    /// The chunk's first cut and the array's end, given the chunks before it; then the state moves past it.
    mutating func next(_ chunk: ChunkStructure) -> Finding {
        let state = inString ? 1 : 0
        let level = depth
        let lowest = state == 0 ? chunk.lowest.0 : chunk.lowest.1
        depth += state == 0 ? chunk.endLevel.0 : chunk.endLevel.1
        inString = inString != chunk.quotesAreOdd
        var finding = Finding()
        if level < ChunkStructure.levels, chunk.firstComma[level * 2 + state] >= 0 {
            finding.comma = chunk.firstComma[level * 2 + state]
        }
        if lowest < -level {
            // Recorded down to `levels` below the start; the array closes deeper only past that.
            guard level + 1 <= ChunkStructure.levels else { return Finding(unknown: true) }
            finding.end = chunk.firstClose[(level + 1) * 2 + state]
        }
        return finding
    }
}

extension LineSource {
    /// A long array in the input's first bytes: one that doesn't close within a span of its `[`. With `keys`, the
    /// array they lead to from the top-level value (each the first of its name), any doubt on the way (a value of
    /// another shape, bytes that end first) being `nil`; without, the one with the most commas. A guess, which one
    /// reading confirms (``PathFilter/opensEveryElement(afterKeys:)``) or, without keys, replaces when it fails.
    /// `depth`: the containers that hold its elements, it too.
    func longArray(keys: [[UInt8]]?) throws -> (start: Int, depth: Int)? {
        guard let first = try chunk(at: 0, count: max(2 * spanSize, 1 << 16)) else { return nil }
        defer { recycle(first) }
        let bytes = first.bytes
        guard InputEncoding.isUTF8(firstBytes: UnsafeRawBufferPointer(rebasing: bytes.prefix(4))) else { return nil }
        let length = spanSize
        /// The containers open: where, whether an array, its commas so far.
        var open: [(offset: Int, isArray: Bool, commas: Int)] = []
        var best: (start: Int, depth: Int, commas: Int)?
        func consider(_ container: (offset: Int, isArray: Bool, commas: Int), depth: Int, end: Int) {
            guard container.isArray, end - container.offset > length, container.commas > best?.commas ?? -1 else {
                return
            }
            best = (container.offset, depth, container.commas)
        }
        /// With keys: how many were met so far, key `n` among the members of the object at `open[n]`, so that the next
        /// is looked for in `open[matched]`; once all were, `found` is the level in `open` of the array they lead to.
        var matched = 0
        var found: Int?
        /// The last string, quotes included: at a colon, the member's key.
        var string = 0..<0
        var index = 0
        var end = bytes.count
        while index < end, ASCII.isJSONSpace(bytes[index]) { index += 1 }
        guard keys == nil || (index < end && (bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[")))
        else { return nil }
        while index < end {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == ASCII.backslash ? 2 : 1
                }
                string = start..<min(index + 1, bytes.count)
            case UInt8(ascii: ":"):
                guard let keys, found == nil else { break }
                // A key of the object the keys so far lead to: the next one; or a member after the one matched last.
                if open.count == matched + 1 && matched < keys.count && Self.key(bytes[string]) == keys[matched] {
                    matched += 1
                } else if open.count == matched && matched > 0 {
                    return nil
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                let isArray = byte == UInt8(ascii: "[")
                if let keys, found == nil, open.count == matched {
                    // The value the keys so far lead to: an object for the next key, the array after the last.
                    guard isArray == (matched == keys.count) else { return nil }
                    if isArray { (found, end) = (matched, min(end, index + length + 1)) }
                }
                open.append((index, isArray, 0))
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                // A bracket that closes nothing: not JSON.
                guard let container = open.popLast() else { return nil }
                if keys == nil {
                    consider(container, depth: open.count + 1, end: index)
                } else if found == open.count {
                    // The array the keys lead to: long only if it closes past the window.
                    return index - container.offset > length ? (container.offset, open.count + 1) : nil
                } else if open.count <= matched {
                    // An object on the way closed before the next key came.
                    return nil
                }
            case UInt8(ascii: ","): if !open.isEmpty { open[open.count - 1].commas += 1 }
            default: break
            }
            index += 1
        }
        // With keys, an array still open where the window or the bytes end is long.
        if keys != nil { return found.map { (open[$0].offset, $0 + 1) } }
        for (level, container) in open.enumerated() { consider(container, depth: level + 1, end: bytes.count) }
        return best.map { ($0.start, $0.depth) }
    }

    /// A key with its quotes, unescaped (rarely needed: Foundation reads the escapes).
    private static func key(_ quoted: Slice<UnsafeRawBufferPointer>) -> [UInt8]? {
        guard quoted.contains(ASCII.backslash) else { return Array(quoted.dropFirst().dropLast()) }
        let text = try? JSONSerialization.jsonObject(with: Data(quoted), options: .fragmentsAllowed)
        return (text as? String).map { Array($0.utf8) }
    }
}
