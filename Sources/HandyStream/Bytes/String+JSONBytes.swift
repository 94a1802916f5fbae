extension String {
    /// The most UTF-8 bytes a string stores inline on 64-bit platforms: written there directly, and cached.
    static let inlineUTF8Capacity = 15

    /// A string from the bytes of a string, key or number token, copied without a second validation. `knownASCII`: the
    /// caller knows the bytes are ASCII (``DecodingRun/isKnownASCII(_:)``), so a long string is not read again for it.
    ///
    /// - Precondition: `bytes` is well-formed UTF-8: the ``Tokenizer``'s strings and keys passed ``UTF8Validation``
    ///   (stricter than the standard library's) or lie in a chunk found all ASCII; a number's text is ASCII; the
    ///   other event sources pass on such bytes or a `String`'s. Debug builds check again.
    @inline(__always)
    init(jsonBytes bytes: UnsafeRawBufferPointer, knownASCII: Bool = false) {
        assert(!knownASCII || UTF8Validation.isASCII(bytes), "String(jsonBytes:knownASCII:) given bytes past ASCII")
        assert(UTF8Validation.isValid(bytes), "String(jsonBytes:) given bytes that are not valid UTF-8")
        let units = bytes.assumingMemoryBound(to: UInt8.self)
        // Up to 15 bytes the string is inline: written there directly, it checks its own few bytes for ASCII.
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
