internal import CYajl

/// Which kinds of byte the tokenizer's own checks look for a chunk holds, found in one pass before yajl sees it, so
/// that each check runs only where needed: surrogate escapes (a backslash), form feed and vertical tab, a streamed
/// chunk's line count (``LineTracker``), each string's UTF-8 check (a byte past ASCII). The pass is C (`cyajl_scan`),
/// vectorized on x86-64; elsewhere it reports every kind.
struct ByteKinds: OptionSet {
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    static let nonASCII = ByteKinds(rawValue: UInt32(CYAJL_SCAN_NON_ASCII))
    static let backslash = ByteKinds(rawValue: UInt32(CYAJL_SCAN_BACKSLASH))
    static let newline = ByteKinds(rawValue: UInt32(CYAJL_SCAN_NEWLINE))
    /// A form feed (0x0C) or a vertical tab (0x0B).
    static let formFeedOrVerticalTab = ByteKinds(rawValue: UInt32(CYAJL_SCAN_FORM_FEED_OR_VERTICAL_TAB))
    /// Every kind: what is assumed of bytes not scanned.
    static let all = ByteKinds(rawValue: UInt32(CYAJL_SCAN_ALL))

    /// Whether the scan may use AVX2 here: `cyajl_has_avx2()`, asked once per process and kept by each tokenizer.
    static let avx2: Int32 = cyajl_has_avx2()

    /// The kinds `bytes` holds (every kind where the scan has no vector version); `avx2`: ``avx2``.
    @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer, avx2: Int32) {
        guard let base = bytes.baseAddress else {
            self = []
            return
        }
        rawValue = cyajl_scan(base.assumingMemoryBound(to: UInt8.self), bytes.count, avx2)
    }
}
