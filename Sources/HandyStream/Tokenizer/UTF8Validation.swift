/// Strict UTF-8 validation (RFC 3629): what yajl's own check lets through — overlong forms, UTF-8-encoded
/// surrogates, code points past U+10FFFF — is refused here, so that no string is ever silently "repaired" with U+FFFD.
enum UTF8Validation {
    /// Whether `bytes` is well-formed UTF-8. ASCII runs are checked eight bytes at a time.
    @inline(__always)
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
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
        return true
    }

    @inline(never)
    private static func _slowpath_validate(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Bool {
        var index = start
        func byte(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            offset < count && range.contains(byte(offset))
        }
        while index < count {
            let lead = byte(index)
            switch lead {
            case 0x00...0x7F:
                index += 1
            case 0xC2...0xDF:
                guard continuation(index + 1) else { return false }
                index += 2
            case 0xE0...0xEF:
                let second: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
                guard continuation(index + 1, second), continuation(index + 2) else { return false }
                index += 3
            case 0xF0...0xF4:
                let second: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
                guard continuation(index + 1, second), continuation(index + 2), continuation(index + 3) else {
                    return false
                }
                index += 4
            default:
                return false
            }
        }
        return true
    }
}
