#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds out whether an object's keys have two equal ones, in one pass over them: the decoder's tape asks it of
/// each object it looks members up in (`JSONDecoder` keeps the first of a repeated key), the encoder's tree of each
/// object it writes (the last value of a key encoded twice wins).
///
/// Each key's length and first and last eight bytes make a fingerprint, kept in an open-addressing table in scratch
/// memory that serves object after object without being cleared (a slot belongs to the current object when it holds
/// the object's generation in its high half; the low half is the key's id); keys with equal fingerprints are
/// compared whole.
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

    /// Frees the scratch memory; the value is not used again.
    func deallocate() { free(scratch) }

    /// The bytes of scratch memory held.
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

    /// Adds the key `bytes` (with `id`); `true` when a key added before in this object is equal to it. `bytesOf`
    /// gives an earlier key's bytes by its id, asked only when the fingerprints are equal. At most `count` keys
    /// (as given to ``begin(count:)``) may be added.
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

    /// Equal keys have equal fingerprints: the length, and the first and last (up to) eight bytes, read inside the
    /// key (``ShortBytes/ends(_:count:)``).
    @inline(__always)
    private static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        let length = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = bytes.baseAddress else { return length }
        let (first, last) = ShortBytes.ends(base, count: count)
        return length ^ first ^ (last &* 0xFF51_AFD7_ED55_8CCD)
    }
}
