#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of the input's bytes for one worker: whole lines, unless a line was too long to hold; or, from
/// ``LineSource/chunk(at:count:)``, bytes cut anywhere.
struct LineSpan {
    var bytes: UnsafeRawBufferPointer
    /// Where `bytes` begin in the input.
    var offset: Int
    /// `false`: no line feed came within the longest line held, and the span ends inside a line. It can only be read
    /// in order, after the span before it. Always `true` for a chunk at an offset, which says nothing of lines.
    var endsAtLineEnd: Bool
    /// Memory of the source's to give back (``LineSource/recycle(_:)``); `nil` for a slice of the caller's bytes.
    var storage: UnsafeMutableRawBufferPointer?
}

/// Cuts input into spans of whole lines, in order, covering it exactly. A line feed byte is never inside a JSON
/// string of valid UTF-8 JSON (control characters are escaped there), so each span of good JSON Lines is whole values.
protocol LineSource: AnyObject {
    /// The next span; `nil` at the end of the input.
    func next() throws -> LineSpan?
    /// Spans from now on are read in order by one decoder: they need not end at a line's end.
    func readInOrder()
    /// Whether the source can give its bytes again from `offset`: then the next span begins there, and the spans read
    /// after it are not needed.
    func rereads(from offset: Int) -> Bool
    /// Takes back a span's memory once it is read.
    func recycle(_ span: LineSpan)
    /// The bytes a span holds, but for a long line.
    var spanSize: Int { get }
    /// Up to `count` bytes at `offset` (fewer at the input's end), whatever was read in order; `nil` if the input
    /// can't be read at an offset (a pipe).
    func chunk(at offset: Int, count: Int) throws -> LineSpan?
}

/// Spans of the caller's bytes, each cut after the last line feed within `spanSize` bytes, or after the first line feed
/// past them when there is none (a line longer than a span is one span; without one, the rest is); once read in
/// order, the rest is one span. No copy.
final class MemoryLines: LineSource {
    private let input: UnsafeRawBufferPointer
    let spanSize: Int
    private var position = 0
    private var gaveEmpty = false
    private var inOrder = false

    /// - Precondition: `input` stays valid while spans are read.
    init(_ input: UnsafeRawBufferPointer, spanSize: Int) {
        self.input = input
        self.spanSize = max(1, spanSize)
    }

    func readInOrder() { inOrder = true }

    func rereads(from offset: Int) -> Bool {
        position = offset
        return true
    }

    func next() -> LineSpan? {
        if input.isEmpty && !gaveEmpty {
            // An empty input is one empty span, which is an error to read.
            gaveEmpty = true
            return LineSpan(bytes: input, offset: 0, endsAtLineEnd: true, storage: nil)
        }
        guard position < input.count, let base = input.baseAddress else { return nil }
        let start = position
        // Read in order, the rest is one chunk, as one reading of bytes in memory takes them.
        var end = input.count
        if !inOrder && input.count - start > spanSize {
            if let feed = lastLineFeed(base + start, count: spanSize) {
                end = start + feed + 1
            } else if let feed = memchr(base + start + spanSize, 0x0A, input.count - start - spanSize) {
                end = base.distance(to: UnsafeRawPointer(feed)) + 1
            }
        }
        position = end
        return LineSpan(
            bytes: UnsafeRawBufferPointer(rebasing: input[start..<end]), offset: start, endsAtLineEnd: true,
            storage: nil)
    }

    func recycle(_ span: LineSpan) {}

    func chunk(at offset: Int, count: Int) -> LineSpan? {
        let start = min(offset, input.count)
        let end = min(input.count, start + count)
        return LineSpan(
            bytes: UnsafeRawBufferPointer(rebasing: input[start..<end]), offset: start, endsAtLineEnd: true,
            storage: nil)
    }
}

/// Reads a descriptor into buffers of `spanSize` bytes, each cut after its last line feed; the bytes after it begin
/// the next span. A buffer without a line feed grows to `longestLine` (the first stays at `spanSize`), then is handed
/// over cut inside the line.
final class DescriptorLines: LineSource {
    private let descriptor: Int32
    private let name: String
    let spanSize: Int
    private let longestLine: Int
    /// Bytes read past the last span's end (its last line feed): the next span begins with them.
    private var carried: [UInt8] = []
    private var offset = 0
    private var ended = false
    /// Buffers of `spanSize` bytes given back, for the next spans.
    private var spare: [UnsafeMutableRawBufferPointer] = []
    private var inOrder = false

    /// Where the descriptor stood when given: offsets count from there. `nil`: it can't be read at an offset.
    private let start: Int?

    init(descriptor: Int32, name: String, spanSize: Int, longestLine: Int) {
        self.descriptor = descriptor
        let at = lseek(descriptor, 0, SEEK_CUR)
        start = at >= 0 ? Int(at) : nil
        self.name = name
        self.spanSize = max(1, spanSize)
        self.longestLine = max(self.spanSize, longestLine)
    }

    deinit {
        for buffer in spare { buffer.deallocate() }
    }

    func readInOrder() { inOrder = true }

    func rereads(from offset: Int) -> Bool { false }

    func next() throws -> LineSpan? {
        if ended && carried.isEmpty { return nil }
        var buffer = spare.popLast() ?? .allocate(byteCount: spanSize, alignment: 16)
        // A carried line longer than a span (after a span cut inside a line) needs the room.
        if carried.count > buffer.count { buffer = grown(buffer, filled: 0, to: carried.count * 2) }
        carried.withUnsafeBytes { buffer.copyMemory(from: $0) }
        var filled = carried.count
        carried.removeAll(keepingCapacity: true)
        var searched = 0
        while true {
            // Read in order, the input goes in chunks as a file's other readers take it.
            let wanted = inOrder ? min(buffer.count, max(filled, ChunkReader.chunkSize)) : buffer.count
            if !ended && filled < wanted {
                do {
                    let count = try ChunkReader.readOnce(
                        descriptor: descriptor, name: name,
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<wanted]))
                    if count == 0 { ended = true }
                    filled += count
                } catch {
                    buffer.deallocate()
                    throw error
                }
                if !ended && filled < wanted { continue }
            }
            let base = UnsafeRawPointer(buffer.baseAddress!)
            if inOrder && !ended && filled > 0 { return span(buffer, count: filled, endsAtLineEnd: false) }
            if ended {
                // An empty input is one empty span, which is an error to read; an input's end, none.
                if filled == 0 && offset > 0 {
                    recycle(
                        LineSpan(
                            bytes: .init(start: nil, count: 0), offset: offset, endsAtLineEnd: true, storage: buffer))
                    return nil
                }
                return span(buffer, count: filled, endsAtLineEnd: true)
            }
            if let feed = lastLineFeed(base + searched, count: filled - searched) {
                let end = searched + feed + 1
                carried.append(contentsOf: UnsafeRawBufferPointer(start: base + end, count: filled - end))
                return span(buffer, count: end, endsAtLineEnd: true)
            }
            searched = filled
            // A first line longer than a span is taken for one document (rarely JSON Lines): it is read in order
            // from the start, without holding up to `longestLine` of it first.
            if filled >= (offset == 0 ? spanSize : longestLine) {
                return span(buffer, count: filled, endsAtLineEnd: false)
            }
            buffer = grown(buffer, filled: filled, to: min(buffer.count * 2, longestLine))
        }
    }

    private func grown(_ buffer: UnsafeMutableRawBufferPointer, filled: Int, to size: Int)
        -> UnsafeMutableRawBufferPointer
    {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[..<filled]))
        buffer.deallocate()
        return larger
    }

    private func span(_ buffer: UnsafeMutableRawBufferPointer, count: Int, endsAtLineEnd: Bool) -> LineSpan {
        defer { offset += count }
        return LineSpan(
            bytes: UnsafeRawBufferPointer(rebasing: buffer[..<count]), offset: offset, endsAtLineEnd: endsAtLineEnd,
            storage: buffer)
    }

    func chunk(at offset: Int, count: Int) throws -> LineSpan? {
        guard let start, count > 0 else { return nil }
        let buffer =
            count == spanSize
            ? spare.popLast() ?? .allocate(byteCount: spanSize, alignment: 16)
            : .allocate(byteCount: count, alignment: 16)
        var filled = 0
        while filled < count {
            let read = pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(start + offset + filled))
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else {
                let code = errno
                buffer.deallocate()
                throw JSONDecodingError.unreadable(name, code: code)
            }
            if read == 0 { break }
            filled += read
        }
        return LineSpan(
            bytes: UnsafeRawBufferPointer(rebasing: buffer[..<filled]), offset: offset, endsAtLineEnd: true,
            storage: buffer)
    }

    func recycle(_ span: LineSpan) {
        guard let storage = span.storage else { return }
        if storage.count == spanSize && spare.count < 64 { spare.append(storage) } else { storage.deallocate() }
    }
}

/// Where the last line feed of `count` bytes at `start` is (`memrchr` is not in every C library); a line is short
/// beside a span, so the walk back is too.
func lastLineFeed(_ start: UnsafeRawPointer, count: Int) -> Int? {
    var index = count - 1
    while index >= 0 {
        if start.load(fromByteOffset: index, as: UInt8.self) == 0x0A { return index }
        index -= 1
    }
    return nil
}
