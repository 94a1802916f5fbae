/// Strict UTF-8 validation (RFC 3629): what yajl's own check lets through — overlong forms, UTF-8-encoded
/// surrogates, code points past U+10FFFF — is refused here, so that no string is ever silently "repaired" with U+FFFD.
enum UTF8Validation {
    @inline(__always)
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool { firstInvalidByte(bytes) == nil }

    /// The index where `bytes` stops being well-formed UTF-8 (the bad sequence's start), or `nil`.
    @inline(__always)
    static func firstInvalidByte(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        let start = asciiPrefix(base, count: count)
        return start == count ? nil : _slowpath_validate(base, from: start, count: count)
    }

    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return asciiPrefix(base, count: bytes.count) == bytes.count
    }

    /// `count` when all `count` bytes at `base` are ASCII; otherwise an index at or before the first byte past ASCII,
    /// with only ASCII before it. Sixteen bytes a step; the last read overlaps the one before (under sixteen bytes, two
    /// of eight; under eight, ``ShortBytes/word(_:count:ordered:)``), so that every read stays inside the `count`
    /// bytes.
    @inline(__always)
    static func asciiPrefix(_ base: UnsafeRawPointer, count: Int) -> Int {
        let mask: UInt64 = 0x8080_8080_8080_8080
        guard count >= 8 else { return ShortBytes.word(base, count: count) & mask == 0 ? count : 0 }
        var index = 0
        while count &- index > 16 {
            let pair =
                base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                | base.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
            if pair & mask != 0 { return index }
            index &+= 16
        }
        let first = count >= 16 ? count &- 16 : 0
        let rest =
            base.loadUnaligned(fromByteOffset: first, as: UInt64.self)
            | base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        return rest & mask == 0 ? count : index
    }

    /// Whether a three-byte sequence's lead (`E_`, in the low byte of `lead`) is E0 or ED, whose second byte the
    /// general way checks (overlong forms, UTF-16 surrogates): its low nibble is 0 or D, bit 0 or 13 of 0x2001.
    @inline(__always)
    private static func mayBeOverlongOrSurrogate(lead: UInt64) -> Bool { (0x2001 as UInt64) &>> (lead & 0xF) & 1 != 0 }

    @inline(never)
    private static func _slowpath_validate(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int? {
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var index = start
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index &+= 1
                // More ASCII may follow (a URL in Japanese text): eight bytes at a time while it does.
                while count &- index >= 8
                    && base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index &+= 8
                }
                continue
            }
            if lead < 0xC2 { return index }  // a continuation byte, or an overlong two-byte form
            if lead < 0xE0 {
                guard index &+ 1 < count, bytes[index &+ 1] & 0xC0 == 0x80 else { return index }
                index &+= 2
                continue
            }
            if lead < 0xF0 {
                guard index &+ 2 < count else { return index }
                // Both continuation bytes tested at once (mask and pattern alike in both bytes, either endianness).
                let continuation = base.loadUnaligned(fromByteOffset: index &+ 1, as: UInt16.self)
                guard continuation & 0xC0C0 == 0x8080 else { return index }
                let second = bytes[index &+ 1]
                if lead == 0xE0 && second < 0xA0 { return index }  // overlong
                if lead == 0xED && second > 0x9F { return index }  // a UTF-16 surrogate
                index &+= 3
                #if _endian(little)
                // Three-byte characters (Japanese, Chinese) run on: the next two checked with one eight-byte read, then
                // one by one with four-byte reads (leads E1–EC, EE–EF); E0, ED and others go the general way.
                while count &- index >= 8 {
                    let pair = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    guard pair & 0x0000_C0C0_F0C0_C0F0 == 0x0000_8080_E080_80E0,
                        !mayBeOverlongOrSurrogate(lead: pair), !mayBeOverlongOrSurrogate(lead: pair &>> 24)
                    else { break }
                    index &+= 6
                }
                while count &- index >= 4 {
                    let word = base.loadUnaligned(fromByteOffset: index, as: UInt32.self)
                    guard word & 0x00C0_C0F0 == 0x0080_80E0, !mayBeOverlongOrSurrogate(lead: UInt64(word)) else {
                        break
                    }
                    index &+= 3
                }
                #endif
                continue
            }
            guard lead < 0xF5, index &+ 3 < count else { return index }
            let second = bytes[index &+ 1]
            guard second & 0xC0 == 0x80, bytes[index &+ 2] & 0xC0 == 0x80, bytes[index &+ 3] & 0xC0 == 0x80 else {
                return index
            }
            if lead == 0xF0 && second < 0x90 { return index }  // overlong
            if lead == 0xF4 && second > 0x8F { return index }  // past U+10FFFF
            index &+= 4
        }
        return nil
    }
}
