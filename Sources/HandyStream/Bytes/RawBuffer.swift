#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growing run of values in manual memory: the builder's frames, the path filter's levels, the tape, a writer's
/// text. An array would check its uniqueness on every append; here an append is a capacity check and a store.
///
/// Listed in the architecture's "Where raw memory is touched". Preconditions: the owner calls ``deallocate()`` exactly
/// once and uses no copy after it; a copy reads the same elements (as a pointer does) until the original changes;
/// indices are checked by `assert`. A class that keeps one in a variable marks it `@exclusivity(unchecked)`: a checked
/// one would cost a runtime call per change, and its accesses never overlap (one thread, and an append calls nothing
/// that reaches the owner).
struct RawBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        // `realloc` moves the elements bitwise (a `weak` reference, say, would be left behind) and aligns to 16 bytes.
        precondition(
            _isBitwiseTakable(Element.self) && MemoryLayout<Element>.alignment <= 16,
            "RawBuffer: elements must move bitwise")
        self.capacity = max(capacity, 1)
        base = Self.allocate(self.capacity)
    }

    /// Traps when out of memory, as Swift's allocations do.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
        guard let raw = malloc(capacity * MemoryLayout<Element>.stride) else { fatalError("RawBuffer: out of memory") }
        return raw.bindMemory(to: Element.self, capacity: capacity)
    }

    /// Deinitializes the elements and frees the memory.
    func deallocate() {
        base.deinitialize(count: count)
        free(base)
    }

    var allocatedBytes: Int { capacity * MemoryLayout<Element>.stride }

    @inline(__always)
    fileprivate mutating func reserve(_ extra: Int) {
        if capacity &- count < extra { grow(toHold: count + extra) }
    }

    /// To at least twice the capacity, by `realloc`, which can remap a large buffer's pages instead of copying them.
    @inline(never)
    private mutating func grow(toHold needed: Int) {
        var larger = capacity * 2
        while larger < needed { larger *= 2 }
        guard let raw = realloc(base, larger * MemoryLayout<Element>.stride) else {
            fatalError("RawBuffer: out of memory")
        }
        base = raw.bindMemory(to: Element.self, capacity: larger)
        capacity = larger
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(toHold: count &+ 1) }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inline(__always)
    mutating func removeLast() -> Element {
        precondition(count > 0, "RawBuffer: nothing to remove")
        count &-= 1
        return (base + count).move()
    }

    /// Keeps the memory.
    mutating func removeAll() { removeAll(keepingFirst: 0) }

    @inline(__always)
    mutating func removeAll(keepingFirst newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "RawBuffer: no such length")
        (base + newCount).deinitialize(count: count - newCount)
        count = newCount
    }

    /// Reads and writes in place.
    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress {
            assert(index >= 0 && index < count, "RawBuffer: index out of range")
            return UnsafePointer(base + index)
        }
        unsafeMutableAddress {
            assert(index >= 0 && index < count, "RawBuffer: index out of range")
            return base + index
        }
    }

    /// Valid until the buffer changes.
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }
}

/// Bytes appended byte by byte or copied in runs: a ``JSONWriter``'s text, a ``JSONTextFrame``'s keys, the tape's.
typealias OutputBytes = RawBuffer<UInt8>

extension RawBuffer where Element == UInt8 {
    init() { self.init(capacity: 1024) }

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

    /// `true` when `bytes` (not in this buffer) are all ASCII, from the words the copy reads.
    @inline(__always)
    mutating func appendCheckingASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        appendCopying(bytes) & 0x8080_8080_8080_8080 == 0
    }

    /// Returns the bytes copied OR-ed together a word at a time: a non-ASCII byte shows in `0x8080_8080_8080_8080`.
    @inline(__always)
    mutating func appendCopying(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard let source = bytes.baseAddress else { return 0 }
        reserve(bytes.count)
        let bits = ShortBytes.copy(to: base + count, from: source, count: bytes.count)
        count &+= bytes.count
        return bits
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        append(UnsafeRawPointer(source), count: bytes.count)
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        append(source, count: bytes.count)
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    /// Valid until the buffer changes.
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    var array: [UInt8] { Array(elements) }
}
