internal import CYajl
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The token that the end of a streamed chunk cuts, kept until the chunk that ends it arrives.
///
/// yajl would re-read a cut token from its start at every chunk (quadratic in a long string), so it gets only whole
/// tokens: a chunk is cut before a string still open at its end, or a number or literal that may go on
/// (``cut(_:kinds:avx2:)``), and the rest waits here for the chunk with the token's end (``end(in:)``).
///
///     chunk 1: [1, "abc…        ──▶ yajl: [1,        held: "abc…
///     chunk 2: …def…            ──▶ yajl: nothing     held: "abc…def…
///     chunk 3: …xyz", 2]        ──▶ yajl: "abc…xyz"   then , 2]
struct PartialToken {
    enum Kind {
        /// Nothing is held.
        case none
        /// A string: its first unescaped quote after the opening one.
        case string
        /// A number: the first byte that can't be part of one.
        case number
        /// A prefix of `true`, `false` or `null`: the first byte that can't be part of one, or its fifth byte.
        case literal
    }

    private(set) var kind = Kind.none

    /// Whether the token held is surely longer than `limit` (of a string's decoded text): a string is refused before it
    /// is whole once even six-byte escapes could not shrink it to `limit`.
    func exceeds(_ limit: Int) -> Bool {
        switch kind {
        case .string: (bytes.count - 1) / 6 > limit
        case .number, .literal: bytes.count > limit
        case .none: false
        }
    }
    private(set) var bytes: [UInt8] = []
    private(set) var start = 0
    /// Backslashes at the end of ``bytes``, for a string: an odd count escapes the next chunk's first byte.
    private var trailingBackslashes = 0

    var isEmpty: Bool { kind == .none }

    /// Where the token cut by `text`'s end begins, and its kind; `(text.count, .none)` when there is none. `text` must
    /// not begin inside a token.
    static func cut(_ text: UnsafeRawBufferPointer, kinds: ByteKinds, avx2: Int32) -> (Int, Kind) {
        guard let base = text.baseAddress, !text.isEmpty else { return (0, .none) }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let open =
            kinds.contains(.backslash)
            ? cyajl_open_string(bytes, text.count) : cyajl_open_string_unescaped(bytes, text.count, avx2)
        if open < text.count {
            // A control character in it is for yajl to refuse now, not to wait for.
            let tail = UnsafeRawBufferPointer(rebasing: text[open...])
            return tail.contains { $0 < ASCII.space } ? (text.count, .none) : (open, .string)
        }
        var start = text.count
        while start > 0 && isBare(text[start - 1]) { start -= 1 }
        guard start < text.count else { return (text.count, .none) }
        let first = text[start]
        if first == ASCII.minus || ASCII.isDigit(first) {
            // Letters in it (`-a`, `1x`) are for yajl to refuse now, not to wait for.
            let run = UnsafeRawBufferPointer(rebasing: text[start...])
            return run.allSatisfy(isNumberByte) ? (start, .number) : (text.count, .none)
        }
        // A whole literal is complete (yajl reports `true` at its `e`); anything else is for yajl to refuse now.
        let length = text.count - start
        for literal in ["true", "false", "null"] where length < literal.utf8.count {
            if literal.utf8.starts(with: UnsafeRawBufferPointer(rebasing: text[start...])) { return (start, .literal) }
        }
        return (text.count, .none)
    }

    mutating func begin(_ kind: Kind, _ bytes: UnsafeRawBufferPointer, at start: Int) {
        precondition(self.kind == .none, "PartialToken.begin: a token is held already")
        self.kind = kind
        self.start = start
        self.bytes = Array(bytes)
        trailingBackslashes = 0
        noteBackslashes(bytes)
    }

    /// Where in `text` (the stream's next bytes) the held token ends, just past it; `nil` when it goes on past `text`.
    func end(in text: UnsafeRawBufferPointer) -> Int? {
        switch kind {
        case .none:
            return 0
        case .string:
            guard let base = text.baseAddress else { return nil }
            var from = 0
            var end: Int?
            while from < text.count, let found = memchr(base + from, Int32(ASCII.quote), text.count - from) {
                let quote = base.distance(to: UnsafeRawPointer(found))
                var run = 0
                while run < quote && text[quote - 1 - run] == ASCII.backslash { run += 1 }
                if run == quote { run += trailingBackslashes }
                if run % 2 == 0 {
                    end = quote + 1
                    break
                }
                from = quote + 1
            }
            // A control character can't stand in a string: yajl refuses it at once, so the token ends there.
            let scanned = end ?? text.count
            for index in 0..<scanned where text[index] < ASCII.space { return index + 1 }
            return end
        case .number:
            var index = 0
            while index < text.count && Self.isNumberByte(text[index]) { index += 1 }
            return index < text.count ? index : nil
        case .literal:
            // A literal is at most five bytes: past that, yajl refuses what is held.
            let limit = max(0, min(text.count, 5 - bytes.count))
            var index = 0
            while index < limit && Self.isBare(text[index]) { index += 1 }
            return index < text.count ? index : nil
        }
    }

    mutating func append(_ text: UnsafeRawBufferPointer) {
        precondition(kind != .none, "PartialToken.append: no token is held")
        bytes.append(contentsOf: text)
        if kind == .string { noteBackslashes(text) }
    }

    mutating func take() -> [UInt8] {
        kind = .none
        trailingBackslashes = 0
        defer { bytes = [] }
        return bytes
    }

    private mutating func noteBackslashes(_ text: UnsafeRawBufferPointer) {
        var run = 0
        while run < text.count && text[text.count - 1 - run] == ASCII.backslash { run += 1 }
        trailingBackslashes = run == text.count ? trailingBackslashes + run : run
    }

    @inline(__always)
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case ASCII.zero...ASCII.nine, ASCII.period, ASCII.lowerE, ASCII.upperE, ASCII.plus, ASCII.minus: true
        default: false
        }
    }

    @inline(__always)
    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case ASCII.zero...ASCII.nine, UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "."), UInt8(ascii: "+"), ASCII.minus:
            true
        default: false
        }
    }
}
