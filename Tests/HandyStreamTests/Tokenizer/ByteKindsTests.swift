@testable import HandyStream
import Foundation
import Testing

/// The scan of a streamed chunk before yajl sees it (``ByteKinds``), and the checks it lets the tokenizer leave out.
@Suite("Byte kinds: the chunk scan and the checks it spares")
struct ByteKindsTests {
    /// The kinds of `bytes`, one byte at a time.
    static func reference(_ bytes: ArraySlice<UInt8>) -> ByteKinds {
        var kinds: ByteKinds = []
        for byte in bytes {
            if byte >= 0x80 { kinds.insert(.nonASCII) }
            if byte == 0x5C { kinds.insert(.backslash) }
            if byte == 0x0A { kinds.insert(.newline) }
            if byte == 0x0B || byte == 0x0C { kinds.insert(.formFeedOrVerticalTab) }
        }
        return kinds
    }

    /// Both ways the scan runs on this processor: AVX2 where it has it, and SSE2 (on x86-64; elsewhere the scan
    /// reports every kind).
    static let ways: [Int32] = ByteKinds.avx2 != 0 ? [ByteKinds.avx2, 0] : [0]

    static func scan(_ bytes: ArraySlice<UInt8>, avx2: Int32) -> ByteKinds {
        bytes.withUnsafeBytes { ByteKinds($0, avx2: avx2) }
    }

    static func check(_ bytes: ArraySlice<UInt8>, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = reference(bytes)
        for avx2 in ways {
            let found = scan(bytes, avx2: avx2)
            #if arch(x86_64)
            #expect(
                found == expected, "\(bytes.count) bytes at \(bytes.startIndex), avx2 \(avx2)",
                sourceLocation: sourceLocation)
            #else
            #expect(found.isSuperset(of: expected), sourceLocation: sourceLocation)
            #endif
        }
    }

    @Test("Each kind is found at every place of a buffer of every length up to 200, beside its near neighbours")
    func everyPlace() {
        // Bytes next to each kind's (0x09 and 0x0D are whitespace, 0x1C and 0x4C share a half with 0x0C or 0x5C,
        // 0x7F is the last ASCII byte), which must not count.
        let neighbours: [UInt8] = [0x09, 0x0D, 0x1C, 0x4C, 0x5B, 0x5D, 0x6C, 0x7F, 0x00, 0x20, 0x0E, 0x1A, 0x3A]
        let special: [UInt8] = [0x80, 0xFF, 0xC3, 0x5C, 0x0A, 0x0B, 0x0C]
        Self.check([])
        for length in 1...200 {
            let plain = (0..<length).map { neighbours[$0 % neighbours.count] }
            Self.check(plain[...])
            for byte in special {
                for place in 0..<length {
                    var bytes = plain
                    bytes[place] = byte
                    Self.check(bytes[...])
                }
            }
        }
    }

    @Test("Random buffers at random alignments: the scan's kinds are the bytes' kinds")
    func randomBuffers() {
        var random = SplitMix64(seed: 0xB17E_C1A5)
        let alphabet: [UInt8] = Array(0x20...0x7E) + [0x09, 0x0A, 0x0D]
        let special: [UInt8] = [0x80, 0xBF, 0xE3, 0xFF, 0x5C, 0x0A, 0x0B, 0x0C]
        var buffer = [UInt8](repeating: 0, count: 4200)
        for _ in 0..<3000 {
            let start = Int.random(in: 0..<64, using: &random)
            let count = Int.random(in: 0...(Bool.random(using: &random) ? 130 : 4000), using: &random)
            for index in start..<start + count {
                buffer[index] = alphabet.randomElement(using: &random)!
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) where count > 0 {
                buffer[start + Int.random(in: 0..<count, using: &random)] = special.randomElement(using: &random)!
            }
            Self.check(buffer[start..<start + count])
        }
    }

    /// The outcome of decoding `bytes` as a whole document, and streamed in chunks of `size`: the value's
    /// description (a `JSONValue`, whose members keep their order), or the error's without its position (an error inside a token that a chunk boundary cuts is
    /// located within the token, not always at the same byte as in the whole document).
    static func outcome(_ bytes: [UInt8], chunkSize size: Int?) -> String {
        do {
            if let size {
                let decoder = try ModelDecoder().incremental(JSONValue.self)
                for chunk in chunks(bytes, size: size) { _ = try decoder.feed(chunk) }
                return "\(try decoder.finish())"
            }
            return "\(try ModelDecoder().decode(JSONValue.self, from: bytes))"
        } catch let error as JSONDecodingError {
            return "error: \(error.kind) \(error.message) at \(error.path)"
        } catch let error as DecodingError {
            // A `JSONValue`'s error: the location it carries.
            guard let location = error.context?.underlyingError as? JSONDecodingError else { return "error: \(error)" }
            return "error: \(location.kind) \(location.message) at \(location.path)"
        } catch {
            return "error: \(error)"
        }
    }

    @Test("Every JSONTestSuite case streamed in chunks gives the whole document's value or error")
    func jsonTestSuiteStreamed() throws {
        var compared = 0
        for name in JSONTestSuite.files("y_") + JSONTestSuite.files("n_") + JSONTestSuite.files("i_") {
            let bytes = try [UInt8](Data(contentsOf: JSONTestSuite.directory.appendingPathComponent(name)))
            let whole = Self.outcome(bytes, chunkSize: nil)
            for size in [1, 2, 3, 7, 33, 64, 65] {
                #expect(Self.outcome(bytes, chunkSize: size) == whole, "\(name) in chunks of \(size)")
            }
            compared += 1
        }
        #expect(compared == 318)
    }

    @Test("Line and column of an error after chunks with and without line feeds and bytes past ASCII")
    func linesAndColumns() throws {
        let lines = ["[", #"  {"id": 1, "name": "plain"},"#, #"  {"id": 2, "name": "déjà vu, 日本語"},"#]
        var random = SplitMix64(seed: 0x11AE)
        for _ in 0..<200 {
            // A document of random lines, some joined without a line feed, then a bad literal in a chunk of its own.
            var text = lines[0]
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                text += (Bool.random(using: &random) ? "\n" : " ") + lines[Int.random(in: 1...2, using: &random)]
            }
            text += (Bool.random(using: &random) ? "\n" : " ") + #"{"id": tru}]"#
            let bytes = Array(text.utf8)
            let head = bytes.count - #"{"id": tru}]"#.utf8.count
            let whole = try #require(decodingError([Item].self, text))
            let decoder = try ModelDecoder().incremental([Item].self)
            let size = Int.random(in: 1...80, using: &random)
            let error = #expect(throws: JSONDecodingError.self) {
                for chunk in chunks(Array(bytes[..<head]), size: size) { _ = try decoder.feed(chunk) }
                _ = try decoder.feed(Array(bytes[head...]))
                _ = try decoder.finish()
            }
            #expect(error?.description == whole.description, "chunks of \(size): \(text)")
        }
    }

    @Test("A string begun in a chunk with bytes past ASCII and ended in an ASCII chunk is still checked")
    func stringAcrossChunks() throws {
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82]] {
            let text: [UInt8] = Array(#"{"name": "ab"#.utf8) + bad + Array(#"cd", "id": 1}"#.utf8)
            let split = Array(#"{"name": "ab"#.utf8).count + bad.count
            let decoder = try ModelDecoder().incremental(Item.self)
            _ = try decoder.feed(Array(text[..<split]))
            #expect(Self.reference(text[split...]).isEmpty, "the second chunk is ASCII")
            let error = #expect(throws: JSONDecodingError.self) {
                _ = try decoder.feed(Array(text[split...]))
                _ = try decoder.finish()
            }
            #expect(error?.kind == .invalidUTF8)
        }
        // Valid bytes past ASCII, across the same split, are read.
        let text = Array(#"{"name": "abé"#.utf8) + Array(#"cd", "id": 1}"#.utf8)
        let decoder = try ModelDecoder().incremental(Item.self)
        _ = try decoder.feed(Array(text[..<(text.count - 14)]))
        _ = try decoder.feed(Array(text[(text.count - 14)...]))
        #expect(try decoder.finish() == Item(id: 1, name: "abécd"))
    }

    @Test("A long string from a streamed chunk is known ASCII exactly when it is ASCII")
    func longStringsKnownASCII() throws {
        struct Note: HandyJSON, Equatable {
            var text = ""
        }
        let texts = [
            "a long line of plain ascii text",  // verbatim in an ASCII chunk: known from the scan
            #"a long line with an escaped \u00e9 in it"#,  // escaped: yajl's copy, read for it (not ASCII)
            #"a long line with an \"escaped\" quote"#,  // escaped, ASCII
            "a long line of 日本語 text",  // in a chunk past ASCII
        ]
        let expected = [
            "a long line of plain ascii text", "a long line with an escaped é in it",
            "a long line with an \"escaped\" quote", "a long line of 日本語 text",
        ]
        for size in [7, 64, 4096] {
            let json = "[" + texts.map { #"{"text": "\#($0)"}"# }.joined(separator: ",\n") + "]"
            let decoder = try ModelDecoder().elements(of: Note.self, at: "[*]")
            var notes: [Note] = []
            for chunk in chunks(Array(json.utf8), size: size) { notes += try decoder.feed(chunk) }
            notes += try decoder.finish()
            #expect(notes.map(\.text) == expected, "chunks of \(size)")
            for note in notes {
                let ascii = note.text.utf8.allSatisfy { $0 < 0x80 }
                #expect(note.text.utf8Span.isKnownASCII == ascii, "\(note.text) in chunks of \(size)")
            }
        }
    }

    @Test("Form feed, vertical tab and surrogate escapes are found in any streamed chunk")
    func checksInLaterChunks() throws {
        let padding = String(repeating: #""padding", "#, count: 20)
        for (tail, kind) in [("\u{0C}1]", JSONDecodingError.Kind.malformed), ("\"a\u{0B}b\"]", .malformed)] {
            let decoder = try ModelDecoder().incremental([Any].self)
            _ = try decoder.feed(Array("[\(padding)".utf8))
            let error = #expect(throws: JSONDecodingError.self) {
                _ = try decoder.feed(Array(tail.utf8))
                _ = try decoder.finish()
            }
            #expect(error?.kind == kind)
        }
        let strict = try ModelDecoder(options: DecodingOptions(strict: true)).incremental([String].self)
        _ = try strict.feed(Array("[\(padding)".utf8))
        let unpaired = #expect(throws: (any Error).self) {
            _ = try strict.feed(Array(#""\uD800"]"#.utf8))
            _ = try strict.finish()
        }
        #expect("\(unpaired.map { "\($0)" } ?? "")".contains("unpaired UTF-16 surrogate escape (\\uD800)"))
        let lenient = try ModelDecoder().incremental([String].self)
        _ = try lenient.feed(Array("[\(padding)".utf8))
        _ = try lenient.feed(Array(#""\uD83D\uDE00", "\uD800"]"#.utf8))
        #expect(try lenient.finish().suffix(2) == ["😀", "\u{FFFD}"])
    }
}
