#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``JSONWriter``'s text, or other bytes appended byte by byte (a ``JSONTextFrame``'s keys): manual memory grown by
/// `realloc`. An `[UInt8]` would check its uniqueness on every append; here an append is a capacity check and a
/// store, and the text becomes an `[UInt8]` once, when read.
struct OutputBytes {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        guard let raw = malloc(self.capacity) else { fatalError("OutputBytes: out of memory") }
        base = raw.assumingMemoryBound(to: UInt8.self)
    }

    /// The buffer is not used again.
    func deallocate() { free(base) }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if capacity &- count < extra { grow(toHold: count + extra) }
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        var larger = capacity * 2
        while larger < needed { larger *= 2 }
        guard let raw = realloc(base, larger) else { fatalError("OutputBytes: out of memory") }
        base = raw.assumingMemoryBound(to: UInt8.self)
        capacity = larger
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    /// `source` must not point into this buffer.
    @inline(__always)
    mutating func append(_ source: UnsafeRawPointer, count length: Int) {
        reserve(length)
        let destination = UnsafeMutableRawPointer(base + count)
        // Over 16 bytes by `memcpy`, not ShortBytes's loop, whose ASCII bits would stay computed.
        if length > 16 {
            destination.copyMemory(from: source, byteCount: length)
        } else {
            ShortBytes.copy(to: destination, from: source, count: length)
        }
        count &+= length
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        append(UnsafeRawPointer(source), count: bytes.count)
    }

    /// `true` when `bytes` (not in this buffer) are all ASCII, from the words the copy reads.
    @inline(__always)
    mutating func appendCheckingASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let source = bytes.baseAddress else { return true }
        reserve(bytes.count)
        let bits = ShortBytes.copy(to: base + count, from: source, count: bytes.count)
        count &+= bytes.count
        return bits & 0x8080_8080_8080_8080 == 0
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        append(source, count: bytes.count)
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func removeAll(after newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "OutputBytes: no such length")
        count = newCount
    }

    /// Valid until the next append.
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
}

/// Owns a writer's ``OutputBytes`` for as long as the writer, which is never copied to write apart. Reached through a
/// pointer: a class property would add an exclusivity check to every append.
final class OutputStorage {
    let bytes = UnsafeMutablePointer<OutputBytes>.allocate(capacity: 1)
    init() { bytes.initialize(to: OutputBytes()) }
    deinit {
        bytes.pointee.deallocate()
        bytes.deinitialize(count: 1)
        bytes.deallocate()
    }
}
