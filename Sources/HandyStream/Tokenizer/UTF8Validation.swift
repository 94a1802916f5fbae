/// Strict UTF-8 validation (RFC 3629): what yajl's own check lets through — overlong forms, UTF-8-encoded
/// surrogates, code points past U+10FFFF — is refused here, so that no string is ever silently "repaired" with U+FFFD.
enum UTF8Validation {
    /// Whether `bytes` is well-formed UTF-8.
    @inline(__always)
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool { firstInvalidByte(bytes) == nil }

    /// The index of the byte where `bytes` stops being well-formed UTF-8 (the start of the bad sequence), or `nil`
    /// when all is well. ASCII runs are checked eight bytes at a time.
    @inline(__always)
    static func firstInvalidByte(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            if base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                return _slowpath_validate(base, from: index, count: count)
            }
            index += 8
        }
        while index < count {
            if base.load(fromByteOffset: index, as: UInt8.self) >= 0x80 {
                return _slowpath_validate(base, from: index, count: count)
            }
            index += 1
        }
        return nil
    }

    /// Walks the sequences from `start`; the index of the first bad one, or `nil`.
    @inline(never)
    private static func _slowpath_validate(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int? {
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var index = start
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index &+= 1
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
                let second = bytes[index &+ 1]
                let third = bytes[index &+ 2]
                guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return index }
                if lead == 0xE0 && second < 0xA0 { return index }  // overlong
                if lead == 0xED && second > 0x9F { return index }  // a UTF-16 surrogate
                index &+= 3
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
