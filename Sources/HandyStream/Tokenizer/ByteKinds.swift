internal import CYajl

/// Which of the bytes that the tokenizer's own checks look for a chunk holds, found in one pass before yajl sees it.
///
/// Each check then runs only on a chunk that holds its kind: the scan for surrogate escapes (``SurrogateEscapes``)
/// where there is a backslash, the scan for form feed and vertical tab where there is one, the line and column count
/// of a streamed chunk (``LineTracker``) where there is a line feed or a byte past ASCII, and the UTF-8 check of each
/// string where there is a byte past ASCII (a string inside an ASCII chunk is ASCII). The pass is C
/// (`cyajl_scan`, CSupport/CYajl/shim.h), in vectors of 32 bytes (AVX2) or 16 (SSE2) on x86-64; elsewhere it reports
/// every kind, and every check runs as it would without it.
struct ByteKinds: OptionSet {
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A byte of 0x80 or more.
    static let nonASCII = ByteKinds(rawValue: UInt32(CYAJL_SCAN_NON_ASCII))
    /// A backslash.
    static let backslash = ByteKinds(rawValue: UInt32(CYAJL_SCAN_BACKSLASH))
    /// A line feed.
    static let newline = ByteKinds(rawValue: UInt32(CYAJL_SCAN_NEWLINE))
    /// A form feed (0x0C) or a vertical tab (0x0B).
    static let formFeedOrVerticalTab = ByteKinds(rawValue: UInt32(CYAJL_SCAN_FORM_FEED_OR_VERTICAL_TAB))
    /// Every kind: what is assumed of bytes not scanned.
    static let all = ByteKinds(rawValue: UInt32(CYAJL_SCAN_ALL))

    /// Whether the scan may use AVX2 here: `cyajl_has_avx2()`, asked once per process and kept by each tokenizer.
    static let avx2: Int32 = cyajl_has_avx2()

    /// The kinds `bytes` holds (a kind may be reported that it does not hold where no vector version of the scan is
    /// written: see the type's description). `avx2`: ``avx2``.
    @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer, avx2: Int32) {
        guard let base = bytes.baseAddress else {
            self = []
            return
        }
        rawValue = cyajl_scan(base.assumingMemoryBound(to: UInt8.self), bytes.count, avx2)
    }
}
