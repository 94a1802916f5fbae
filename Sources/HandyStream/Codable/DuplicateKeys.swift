#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether an object has two equal keys, in one pass: the decoder must then find the first, the encoder keep the
/// last value.
///
/// Fingerprints (length, first and last eight bytes) go in an open-addressing table reused without clearing: a slot
/// is the current object's when its high half is the object's generation (the low half is the key's id).
struct DuplicateKeys {
    private var scratch: UnsafeMutablePointer<UInt64>
    private var capacity = 0
    private var mask = 0
    private var generation: UInt32 = 0
    private var tag: UInt64 = 0

    init() {
        guard let raw = malloc(MemoryLayout<UInt64>.stride) else { fatalError("DuplicateKeys: out of memory") }
        scratch = raw.bindMemory(to: UInt64.self, capacity: 1)
    }

    /// The value is not used again.
    func deallocate() { free(scratch) }

    var allocatedBytes: Int { capacity * MemoryLayout<UInt64>.stride }

    /// Starts a new object of about `count` keys (ids must fit 32 bits).
    mutating func begin(count: Int) {
        var size = 16
        while size < count * 2 { size *= 2 }
        if capacity < size {
            free(scratch)
            guard let raw = calloc(size, MemoryLayout<UInt64>.stride) else {
                fatalError("DuplicateKeys: out of memory")
            }
            scratch = raw.bindMemory(to: UInt64.self, capacity: size)
            capacity = size
            generation = 0
        }
        mask = capacity - 1
        generation &+= 1
        if generation == 0 {
            scratch.update(repeating: 0, count: capacity)
            generation = 1
        }
        tag = UInt64(generation) << 32
    }

    /// `true` when an equal key was added before in this object; `bytesOf` gives an earlier key's bytes by id. No
    /// more keys than the `count` given to ``begin(count:)`` may be added.
    @inline(__always)
    mutating func insert(
        _ bytes: UnsafeRawBufferPointer, id: UInt32, bytesOf: (UInt32) -> UnsafeRawBufferPointer
    ) -> Bool {
        let fingerprint = Self.fingerprint(bytes)
        var slot = Int(truncatingIfNeeded: (fingerprint &* 0xBF58_476D_1CE4_E5B9) >> 40) & mask
        while true {
            let entry = scratch[slot]
            if entry & 0xFFFF_FFFF_0000_0000 != tag {
                scratch[slot] = tag | UInt64(id)
                return false
            }
            let other = bytesOf(UInt32(truncatingIfNeeded: entry))
            if other.count == bytes.count
                && (bytes.isEmpty || memcmp(other.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
            {
                return true
            }
            slot = (slot &+ 1) & mask
        }
    }

    @inline(__always)
    private static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        let length = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = bytes.baseAddress else { return length }
        let (first, last) = ShortBytes.ends(base, count: count)
        return length ^ first ^ (last &* 0xFF51_AFD7_ED55_8CCD)
    }
}
