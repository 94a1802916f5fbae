/// The input's encoding, told by its first bytes as `JSONDecoder` tells it (RFC 4627 §3): a byte order mark, else the
/// pattern of zero bytes around the first two characters, ASCII in any JSON text. UTF-16 and UTF-32 are converted chunk
/// by chunk, holding back a code unit or pair a chunk's end cuts; offsets in errors count the UTF-8 text.
///
///     EF BB BF …     UTF-8, mark dropped        00 00 FE FF    UTF-32BE, mark dropped
///     FE FF …        UTF-16BE, mark dropped     FE FF 00 00    UTF-32LE, mark dropped (JSONDecoder's table)
///     FF FE …        UTF-16LE, mark dropped     00 00 00 xx    UTF-32BE      xx 00 00 00    UTF-32LE
///     00 xx 00 xx    UTF-16BE                   xx 00 xx 00    UTF-16LE      00 xx / xx 00  UTF-16 (two bytes)
struct InputEncoding {
    enum Kind: Equatable {
        /// Fewer than four bytes seen, and the input has not ended.
        case undecided
        case utf8
        case utf16(bigEndian: Bool)
        case utf32(bigEndian: Bool)
    }

    private(set) var kind = Kind.undecided
    /// A byte order mark was dropped: the text read is not the input's bytes from the first.
    private(set) var droppedMark = false
    /// Bytes held back: the first ones while undecided, then a cut code unit.
    private var held: [UInt8] = []
    private var highSurrogate: UInt16?
    /// The UTF-8 of a converted chunk, kept across chunks for its capacity.
    private var converted: [UInt8] = []

    /// The middle of a stream already known to be UTF-8: its first bytes decide nothing.
    mutating func assumeUTF8() { kind = .utf8 }

    /// Whether input beginning with `bytes` (four or more, or all of it) is UTF-8, so that its line feeds are bytes 0A.
    static func isUTF8(firstBytes bytes: UnsafeRawBufferPointer) -> Bool {
        var encoding = InputEncoding()
        _ = encoding.decide(bytes)
        return encoding.kind == .utf8
    }

    struct Invalid: Error {
        var message: String
    }

    /// Calls `body` with `chunk` as UTF-8 (itself, uncopied, for UTF-8 input); throws ``Invalid`` for a bad code unit.
    /// Decides the encoding from the first bytes of `bytes`, then converts them, the mark left out.
    private mutating func decideAndConvert(
        _ bytes: UnsafeRawBufferPointer, isLast: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let markLength = decide(bytes)
        droppedMark = markLength > 0
        try convert(UnsafeRawBufferPointer(rebasing: bytes[markLength...]), isLast: isLast, body)
    }

    mutating func convert(
        _ chunk: UnsafeRawBufferPointer, isLast: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        switch kind {
        case .utf8:
            // Bytes are held only while undecided, or by UTF-16 and UTF-32, which never become UTF-8.
            try body(chunk)
        case .undecided:
            // The usual case, a first chunk of four bytes or more: decided in place, nothing copied.
            if held.isEmpty && (chunk.count >= 4 || isLast) { return try decideAndConvert(chunk, isLast: isLast, body) }
            held.append(contentsOf: chunk)
            guard held.count >= 4 || isLast else { return }
            let bytes = held
            held = []
            try bytes.withUnsafeBytes { try decideAndConvert($0, isLast: isLast, body) }
        case .utf16(let bigEndian):
            try transcode(chunk, unit: 2, isLast: isLast, body) { bytes, at in
                let first = UInt16(bytes[at]), second = UInt16(bytes[at + 1])
                return UInt32(bigEndian ? first << 8 | second : second << 8 | first)
            }
        case .utf32(let bigEndian):
            try transcode(chunk, unit: 4, isLast: isLast, body) { bytes, at in
                let value = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[at + (bigEndian ? $1 : 3 - $1)]) }
                return value
            }
        }
    }

    /// Decides the encoding from the first (up to four) bytes; returns the length of the byte order mark.
    private mutating func decide(_ bytes: UnsafeRawBufferPointer) -> Int {
        func byte(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        switch (byte(0), byte(1), byte(2), byte(3)) {
        case (0, 0, 0xFE, 0xFF): kind = .utf32(bigEndian: true); return 4
        case (0xFE, 0xFF, 0, 0): kind = .utf32(bigEndian: false); return 4
        case (0xFE, 0xFF, _, _): kind = .utf16(bigEndian: true); return 2
        case (0xFF, 0xFE, _, _): kind = .utf16(bigEndian: false); return 2
        case (0xEF, 0xBB, 0xBF, _): kind = .utf8; return 3
        case (0, 0, 0, .some(let other)) where other != 0: kind = .utf32(bigEndian: true)
        case (0, .some(let a), 0, .some(let b)) where a != 0 && b != 0: kind = .utf16(bigEndian: true)
        case (.some(let other), 0, 0, 0) where other != 0: kind = .utf32(bigEndian: false)
        case (.some(let a), 0, .some(let b), 0) where a != 0 && b != 0: kind = .utf16(bigEndian: false)
        case (0, .some(let other), nil, nil) where other != 0: kind = .utf16(bigEndian: true)
        case (.some(let other), 0, nil, nil) where other != 0: kind = .utf16(bigEndian: false)
        default: kind = .utf8
        }
        return 0
    }

    /// Converts whole code units of `unit` bytes (read by `read`) to UTF-8, holding back a cut one.
    private mutating func transcode(
        _ chunk: UnsafeRawBufferPointer, unit: Int, isLast: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void,
        read: ([UInt8], Int) -> UInt32
    ) throws {
        held.append(contentsOf: chunk)
        converted.removeAll(keepingCapacity: true)
        let whole = held.count - held.count % unit
        var at = 0
        while at < whole {
            let value = read(held, at)
            at += unit
            if unit == 2 {
                let code = UInt16(value)
                if let high = highSurrogate {
                    guard code >= 0xDC00 && code <= 0xDFFF else {
                        throw Invalid(message: "an unpaired UTF-16 surrogate in the input")
                    }
                    highSurrogate = nil
                    append(0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(code) - 0xDC00))
                    continue
                }
                if code >= 0xD800 && code <= 0xDBFF {
                    highSurrogate = code
                    continue
                }
                if code >= 0xDC00 && code <= 0xDFFF {
                    throw Invalid(message: "an unpaired UTF-16 surrogate in the input")
                }
                append(UInt32(code))
            } else {
                guard value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
                    throw Invalid(message: "a UTF-32 code unit that is not a Unicode scalar in the input")
                }
                append(value)
            }
        }
        held.removeFirst(whole)
        if isLast && (!held.isEmpty || highSurrogate != nil) {
            throw Invalid(message: "the input ends inside a UTF-\(unit * 8) character")
        }
        try converted.withUnsafeBytes { try body($0) }
    }

    /// Appends a scalar's UTF-8 (the caller has checked that it is one).
    private mutating func append(_ scalar: UInt32) {
        UTF8.encode(Unicode.Scalar(scalar)!) { converted.append($0) }
    }
}
