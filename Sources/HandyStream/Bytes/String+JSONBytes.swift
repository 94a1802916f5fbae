extension String {
    /// The most UTF-8 bytes a string stores inline, without storage of its own (on 64-bit platforms): such a string
    /// is written there directly (``init(jsonBytes:knownASCII:)``), and kept for reuse (``ShortStringCache``).
    static let inlineUTF8Capacity = 15

    /// A string from the bytes of a string, key or number token, copied without a second validation.
    ///
    /// Precondition: `bytes` is well-formed UTF-8. Every string and key the ``Tokenizer`` reports has passed
    /// ``UTF8Validation`` (stricter than the standard library's check) or lies, as it is, in a streamed chunk its scan
    /// found all ASCII (``Tokenizer/isVerbatimASCII(_:)``), a number's text is ASCII, and the other
    /// producers of events (the tape, a `JSONValue`, a `[String: Any]`) hand on bytes that came from one of those or
    /// from a `String`. `String(decoding:as:)` would check every byte again; this is the one place that relies on
    /// the check already made, and debug builds make it once more.
    ///
    /// `knownASCII`: the caller knows the bytes are ASCII (``DecodingRun/isKnownASCII(_:)``), so a string too long
    /// to be inline is not read for it again; checked by an assertion in debug builds.
    @inline(__always)
    init(jsonBytes bytes: UnsafeRawBufferPointer, knownASCII: Bool = false) {
        assert(!knownASCII || UTF8Validation.isASCII(bytes), "String(jsonBytes:knownASCII:) given bytes past ASCII")
        assert(UTF8Validation.isValid(bytes), "String(jsonBytes:) given bytes that are not valid UTF-8")
        let units = bytes.assumingMemoryBound(to: UInt8.self)
        // Up to 15 bytes the string is stored inline: written there directly, then it finds out itself whether it is
        // ASCII (and checks the few bytes, which `String(copying:)` would have copied into it one at a time).
        if #available(macOS 11, iOS 14, tvOS 14, watchOS 7, *), let source = bytes.baseAddress, bytes.count > 0,
            bytes.count <= String.inlineUTF8Capacity
        {
            let count = bytes.count
            self = String(unsafeUninitializedCapacity: count) { buffer in
                ShortBytes.copy(to: UnsafeMutableRawPointer(buffer.baseAddress!), from: source, count: count)
                return count
            }
            return
        }
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            // A longer one is told whether it is ASCII, so that comparing and hashing it keep their ASCII fast paths.
            let isASCII = knownASCII || UTF8Validation.isASCII(bytes)
            self = String(copying: UTF8Span(unchecked: Span(_unsafeElements: units), isKnownASCII: isASCII))
        } else {
            self = String(decoding: units, as: UTF8.self)
        }
    }
}
