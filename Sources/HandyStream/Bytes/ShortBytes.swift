/// Short runs of bytes (keys, mostly) compared, copied and folded into one word a word at a time, inline: for short
/// runs a call to `memcmp` or `memcpy` costs more than the work. Every read and write stays inside the run's `count`
/// bytes: from eight bytes on, the last word overlaps the one before; under eight, two overlapping half-words, or for
/// one to three bytes the first, middle and last byte.
enum ShortBytes {
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        if count >= 8 {
            var index = 0
            while index &+ 8 < count {
                if a.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    != b.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                {
                    return false
                }
                index &+= 8
            }
            return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        return word(a, count: count) == word(b, count: count)
    }

    /// The bytes of a run under eight (`count` 0...7) as one word, different for different runs of one length;
    /// `ordered`: the bytes in their order, the first in the lowest byte, zeros above (read by position).
    @inline(__always)
    static func word(_ base: UnsafeRawPointer, count: Int, ordered: Bool = false) -> UInt64 {
        assert(count >= 0 && count < 8, "ShortBytes.word: \(count) bytes")
        if count >= 4 {
            let first = UInt64(base.loadUnaligned(as: UInt32.self))
            let last = UInt64(base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            return first | (last &<< (ordered ? UInt64((count &- 4) &* 8) : 32))
        }
        guard count > 0 else { return 0 }
        let first = UInt64(base.load(as: UInt8.self))
        let middle = UInt64(base.load(fromByteOffset: count &>> 1, as: UInt8.self))
        let last = UInt64(base.load(fromByteOffset: count &- 1, as: UInt8.self))
        return first | (middle &<< (ordered ? UInt64((count &>> 1) &* 8) : 8))
            | (last &<< (ordered ? UInt64((count &- 1) &* 8) : 16))
    }

    /// A run's first and last eight bytes, overlapping when it is shorter than sixteen (`count` 8 and more); under
    /// eight, ``word(_:count:ordered:)`` and `0`. With the count, they determine every byte of a run of up to fifteen.
    @inline(__always)
    static func ends(_ base: UnsafeRawPointer, count: Int) -> (first: UInt64, last: UInt64) {
        guard count >= 8 else { return (word(base, count: count), 0) }
        return (base.loadUnaligned(as: UInt64.self), base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
    }

    /// Copies `count` bytes; returns the words read, OR-ed: whether any byte has its high bit set (not ASCII).
    @inline(__always)
    @discardableResult
    static func copy(to destination: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count: Int) -> UInt64 {
        if count > 16 {
            destination.copyMemory(from: source, byteCount: count)
            var bits: UInt64 = 0
            var index = 0
            while index &+ 8 <= count {
                bits |= source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index &+= 8
            }
            return bits | source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 8 {
            let first = source.loadUnaligned(as: UInt64.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            destination.storeBytes(of: first, as: UInt64.self)
            destination.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
            return first | last
        } else if count >= 4 {
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            destination.storeBytes(of: first, as: UInt32.self)
            destination.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
            return UInt64(first | last)
        } else {
            var bits: UInt64 = 0
            for index in 0..<count {
                let byte = source.load(fromByteOffset: index, as: UInt8.self)
                destination.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
                bits |= UInt64(byte)
            }
            return bits
        }
    }
}
