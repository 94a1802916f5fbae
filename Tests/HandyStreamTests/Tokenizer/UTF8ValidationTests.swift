import Foundation
@testable import HandyStream
import HandyJSON
import Testing

/// More of the strict UTF-8 check against the standard library's own validation (`String(validating:as:)`): every
/// short sequence of interesting bytes, and long mixtures of valid and broken sequences (the multi-byte fast paths).
extension UTF8ValidationTests {
    /// Bytes at every boundary the rules care about.
    static let interesting: [UInt8] = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
        0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]

    static func oracle(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    static func ours(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { UTF8Validation.isValid($0) } }

    @Test func everyShortSequence() {
        var mismatches: [[UInt8]] = []
        for a in Self.interesting {
            for b in Self.interesting {
                for c in Self.interesting {
                    for d in [0x41, 0x80, 0xBF, 0xC0] as [UInt8] {
                        let bytes = [a, b, c, d]
                        if Self.ours(bytes) != Self.oracle(bytes) { mismatches.append(bytes) }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// The same sequences after a run of three-byte characters and after ASCII that follows one, where the check
    /// reads several bytes at once, and with a byte after them or none. The runs' lengths put the sequence first and
    /// second of a pair of characters read together, and last on its own.
    @Test func everyShortSequenceAfterRuns() {
        var mismatches: [[UInt8]] = []
        let prefixes: [[UInt8]] = [
            Array("日".utf8), Array("日本".utf8), Array("日本語".utf8), Array("日本語で".utf8),
            Array("é".utf8) + Array("ascii run!".utf8), Array("日 abcdefghij".utf8),
        ]
        for prefix in prefixes {
            for a in Self.interesting {
                for b in Self.interesting {
                    for c in Self.interesting {
                        for tail in [[], [0x41], [0xE3, 0x81, 0x82], Array("ああ".utf8)] as [[UInt8]] {
                            let bytes = prefix + [a, b, c] + tail
                            if Self.ours(bytes) != Self.oracle(bytes) { mismatches.append(bytes) }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func randomMixtures() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("plain ascii text ".utf8), Array("é".utf8), Array("日本語".utf8), Array("😀".utf8),
            [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0x80], [0xE3, 0x81],
            [0xF0, 0x9F, 0x98], [0xFF],
        ]
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                bytes += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            #expect(Self.ours(bytes) == Self.oracle(bytes), "\(bytes)")
            if Self.ours(bytes) != Self.oracle(bytes) { return }
        }
    }

    @Test func firstInvalidBytePointsAtTheBadSequence() {
        let bytes = Array("日本".utf8) + [0xE3, 0x81] + Array("x".utf8)
        #expect(bytes.withUnsafeBytes { UTF8Validation.firstInvalidByte($0) } == 6)
        let surrogate = Array("ab".utf8) + [0xED, 0xA0, 0x80]
        #expect(surrogate.withUnsafeBytes { UTF8Validation.firstInvalidByte($0) } == 2)
    }

    /// Strings made from checked bytes without a second validation hold exactly the bytes, and a long one made of
    /// ASCII is known to be ASCII, as `String(decoding:as:)` would have it (comparing and hashing keep their fast
    /// paths).
    @Test func stringsFromCheckedBytes() {
        let texts = [
            "", "a", "short ascii", "exactly fifteen", "sixteen bytes!!!",
            "a longer run of plain ascii text, 40+ chars",
            "é", "日本語のテキスト", "plain ascii then é at the end", "日本 then a long tail of plain ascii text",
            "😀 emoji and ascii text after it", String(repeating: "x", count: 1_000) + "é",
            // Up to fifteen bytes (stored inline), not ASCII: two, six, fifteen bytes.
            "ü", "日本", "ab😀", "ü1234567890123", "日本語の",
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            let made = bytes.withUnsafeBytes { String(jsonBytes: $0) }
            #expect(made == text)
            #expect(Array(made.utf8) == bytes)
            #expect(made.utf8Span.isKnownASCII == bytes.allSatisfy { $0 < 0x80 }, "\(text)")
            #expect(bytes.withUnsafeBytes { UTF8Validation.isASCII($0) } == bytes.allSatisfy { $0 < 0x80 })
        }
    }

    /// Every length up to 70, all ASCII and with one byte past ASCII at each place, in a buffer of exactly that
    /// length (reads past it would show under the address sanitizer).
    @Test func isASCIIAtEveryLengthAndPlace() {
        for length in 0...70 {
            let plain = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 1)
            defer { plain.deallocate() }
            for index in 0..<length { plain[index] = UInt8(ascii: "a") &+ UInt8(index % 26) }
            #expect(UTF8Validation.isASCII(UnsafeRawBufferPointer(plain)), "\(length)")
            for place in 0..<length {
                plain[place] = 0xC3
                #expect(!UTF8Validation.isASCII(UnsafeRawBufferPointer(plain)), "\(length), at \(place)")
                plain[place] = UInt8(ascii: "z")
            }
        }
    }

    /// Every length up to 70 with a bad byte, or a valid two-byte character, at each place after ASCII: the bad byte
    /// is found exactly where it is, wherever the sixteen-byte steps and the overlapping last words put it.
    @Test func firstInvalidByteAtEveryLengthAndPlace() {
        for length in 1...70 {
            let text = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 1)
            defer { text.deallocate() }
            for index in 0..<length { text[index] = UInt8(ascii: "a") &+ UInt8(index % 26) }
            for place in 0..<length {
                text[place] = 0xFF
                #expect(UTF8Validation.firstInvalidByte(UnsafeRawBufferPointer(text)) == place, "\(length), \(place)")
                text[place] = UInt8(ascii: "z")
            }
            for place in 0..<(length - 1) {
                text[place] = 0xC3
                text[place + 1] = 0xA9
                #expect(UTF8Validation.firstInvalidByte(UnsafeRawBufferPointer(text)) == nil, "\(length), \(place)")
                text[place] = UInt8(ascii: "z")
                text[place + 1] = UInt8(ascii: "z")
            }
        }
    }

    /// A decoded property: the same, end to end.
    @Test func decodedLongASCIIStringIsKnownASCII() throws {
        struct Note: HandyJSON {
            var text = ""
            var other = ""
        }
        let note = try #require(
            Note.deserialize(from: #"{"text": "a long line of plain ascii text", "other": "日本語 and ascii"}"#))
        #expect(note.text == "a long line of plain ascii text" && note.text.utf8Span.isKnownASCII)
        #expect(note.other == "日本語 and ascii" && !note.other.utf8Span.isKnownASCII)
    }
}
