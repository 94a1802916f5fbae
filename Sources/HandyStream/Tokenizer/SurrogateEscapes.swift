#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds `\u` escapes of UTF-16 surrogates that are not a high one followed at once by a low one. yajl combines a high
/// surrogate with any `\u` escape that follows (`"\uD800\u0041"` becomes U+10041), turns one followed by anything else
/// into `?`, dropping the next character, and writes a lone low one as an encoded surrogate; so an unpaired escape is
/// an error (strict decoding) or becomes `\uFFFD` in place (same length: offsets stay true).
enum SurrogateEscapes {
    /// An escape, with the partner a high surrogate needs: `\uD83D\uDE00`.
    static let longestEscape = 12

    /// The prefix of `buffer` whose escapes are decided (it ends before an incomplete one), and its unpaired escapes.
    static func scan(_ buffer: UnsafeRawBufferPointer) -> (decided: Int, unpaired: [Int]) {
        guard let base = buffer.baseAddress else { return (0, []) }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let count = buffer.count
        var unpaired: [Int] = []
        var index = 0
        while index < count {
            guard let found = memchr(base + index, Int32(ASCII.backslash), count - index) else { break }
            let runStart = base.distance(to: UnsafeRawPointer(found))
            var runEnd = runStart
            while runEnd < count && bytes[runEnd] == ASCII.backslash { runEnd += 1 }
            // The run, or the escape it ends with, may go on in the next chunk.
            if runEnd == count { return (runStart, unpaired) }
            index = runEnd
            // In a run of backslashes, pairs are escaped backslashes; an odd run ends with an escape.
            guard (runEnd - runStart) % 2 == 1, bytes[runEnd] == UInt8(ascii: "u") else { continue }
            let escape = runEnd - 1
            guard escape + 6 <= count else { return (runStart, unpaired) }
            guard let unit = codeUnit(bytes, at: escape + 2) else { continue }  // yajl reports a bad escape
            index = escape + 6
            switch unit {
            case 0xD800...0xDBFF:
                if escape + 7 <= count && bytes[escape + 6] != ASCII.backslash
                    || escape + 8 <= count && bytes[escape + 7] != UInt8(ascii: "u")
                {
                    unpaired.append(escape)
                } else if escape + 12 > count {
                    return (runStart, unpaired)
                } else if let low = codeUnit(bytes, at: escape + 8), (0xDC00...0xDFFF).contains(low) {
                    index = escape + 12
                } else {
                    unpaired.append(escape)
                }
            case 0xDC00...0xDFFF:
                unpaired.append(escape)
            default:
                break
            }
        }
        return (count, unpaired)
    }

    static func replace(at offset: Int, in bytes: inout [UInt8]) {
        precondition(offset >= 0 && offset + 6 <= bytes.count, "SurrogateEscapes.replace: offset out of range")
        bytes[offset + 2] = UInt8(ascii: "F")
        bytes[offset + 3] = UInt8(ascii: "F")
        bytes[offset + 4] = UInt8(ascii: "F")
        bytes[offset + 5] = UInt8(ascii: "D")
    }

    static func text(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<min(offset + 6, bytes.count)]), as: UTF8.self)
    }

    private static func codeUnit(_ bytes: UnsafePointer<UInt8>, at offset: Int) -> UInt16? {
        var value: UInt16 = 0
        for index in offset..<offset + 4 {
            guard let digit = ASCII.hexValue(bytes[index]) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
