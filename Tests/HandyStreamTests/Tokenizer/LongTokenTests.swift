@testable import HandyStream
import Foundation
import Testing

/// A token cut by many chunks is handed to yajl once, whole (``PartialToken``): yajl would read a cut token again
/// from its start at every chunk, quadratic in its length.
@Suite("Long tokens in small chunks")
struct LongTokenTests {
    /// Tokens of 1 MB in 4 KiB chunks, as a server hands a request body over.
    static let length = 1 << 20
    static let chunk = 4096

    static let documents: [(name: String, json: [UInt8], trace: [String])] = {
        let letters = String(repeating: "abcdefgh", count: length / 8)
        let escaped = String(repeating: #"a\"\\\/\u00e9"#, count: length / 16)
        let decoded = String(repeating: "a\"\\/é", count: length / 16)
        let digits = "1" + String(repeating: "0", count: length - 1)
        return [
            ("string", Array(#"["\#(letters)"]"#.utf8), ["[", "str:" + letters, "]"]),
            ("escaped string", Array(#"["\#(escaped)"]"#.utf8), ["[", "str:" + decoded, "]"]),
            ("key", Array(#"{"\#(letters)":1}"#.utf8), ["{", "key:" + letters, "num:1", "}"]),
            ("number", Array("[\(digits),2]".utf8), ["[", "num:" + digits, "num:2", "]"]),
            ("top-level number", Array(digits.utf8), ["num:" + digits]),
        ]
    }()

    @Test("A long token reaches yajl once, in a few calls, whatever the chunk size", arguments: documents.indices)
    func longTokenInSmallChunks(index: Int) {
        let (name, json, trace) = Self.documents[index]
        let whole = tokenize(json, chunkSizes: [json.count], streamed: false)
        #expect(whole.outcome == .complete, "\(name)")
        #expect(whole.trace == trace, "\(name)")
        let streamed = tokenize(json, chunkSizes: [Self.chunk])
        #expect(streamed.outcome == .complete, "\(name)")
        #expect(streamed.trace == trace, "\(name)")
        #expect(streamed.offsets == whole.offsets, "\(name)")
        // 257 chunks: yajl gets the bytes before the token, the token, and the bytes after it.
        #expect(streamed.parserCalls <= 4, "\(name): \(streamed.parserCalls) calls")
    }

    @Test("Random documents give the same events and offsets at random chunk sizes", arguments: 0..<8)
    func randomDocuments(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        for _ in 0..<200 {
            let json = Array(Self.randomDocument(&random, depth: 0).utf8)
            let whole = tokenize(json, chunkSizes: [json.count], streamed: false)
            let sizes = (0..<6).map { _ in Int(random.next() % 9) + 1 }
            let streamed = tokenize(json, chunkSizes: sizes)
            let text = String(decoding: json, as: UTF8.self)
            #expect(streamed.trace == whole.trace, "\(sizes): \(text)")
            #expect(streamed.offsets == whole.offsets, "\(sizes): \(text)")
            #expect(streamed.outcome == whole.outcome, "\(sizes): \(text)")
        }
    }

    @Test("Malformed and truncated input is reported at the same offset, streamed or whole")
    func malformedAndTruncated() {
        let cases = [
            #"["abc\"def"#, #"["abc\\"#, "[12", "[1.5e", "[tru", "[trux]", "[nul", "[1x2]", #"["a" "b"]"#,
            #"["a\"], "#, "[-]", "[falsey]", #"{"a\\\\":1, "b\\":2}"#, #"\"a""#, "[1]2", "[\"\u{01}\"]",
        ]
        for json in cases {
            let bytes = Array(json.utf8)
            let whole = tokenize(bytes, chunkSizes: [bytes.count], streamed: false)
            for size in [1, 2, 3, 5] {
                let streamed = tokenize(bytes, chunkSizes: [size])
                #expect(streamed.trace == whole.trace, "\(json) in chunks of \(size)")
                #expect(streamed.outcome == whole.outcome, "\(json) in chunks of \(size)")
            }
        }
    }

    @Test("A token past the maximum length is refused where it starts, whole or streamed")
    func maximumTokenLength() {
        let json = Array(#"{"id": 7, "name": "abcdefghijklmnopqrstuvwxyz"}"#.utf8)
        let expected = Tokenizer.Outcome.malformed(
            .init(message: Tokenizer.tokenTooLongPrefix + "10", isLexical: true, offset: 18))
        for sizes in [[json.count], [4], [1], [20, 3]] {
            let result = tokenize(
                json, chunkSizes: sizes, streamed: sizes.count > 1 || sizes[0] < json.count,
                maximumTokenLength: 10)
            #expect(result.outcome == expected, "\(sizes)")
            #expect(result.trace == ["{", "key:id", "num:7", "key:name"], "\(sizes)")
        }
        let number = Array("[\(String(repeating: "9", count: 40))]".utf8)
        for sizes in [[number.count], [3]] {
            let result = tokenize(number, chunkSizes: sizes, streamed: sizes[0] < number.count, maximumTokenLength: 39)
            #expect(
                result.outcome
                    == .malformed(.init(message: Tokenizer.tokenTooLongPrefix + "39", isLexical: true, offset: 1)))
        }
        // A token held across chunks is refused once it grows past the limit, before the rest of it is read.
        let long = Array(("[\"" + String(repeating: "x", count: 100_000) + "\"]").utf8)
        let held = tokenize(long, chunkSizes: [16], maximumTokenLength: 1000)
        #expect(
            held.outcome
                == .malformed(
                    .init(
                        message: Tokenizer.tokenTooLongPrefix + "1000", isLexical: true,
                        offset: 1)))
    }

    @Test("A string cut by a chunk is measured as the whole document measures it: its decoded text")
    func heldStringsAreMeasuredAsDecoded() {
        for json in [#"["abcd"]"#, #"["\u0041\u0042\u0043\u0044"]"#] {
            let bytes = Array(json.utf8)
            for size in [1, 2, 3, 5, 7] {
                let streamed = tokenize(bytes, chunkSizes: [size], maximumTokenLength: 4)
                #expect(streamed.outcome == .complete, "\(json) in chunks of \(size)")
            }
            let refused = tokenize(bytes, chunkSizes: [2], maximumTokenLength: 3)
            #expect(
                refused.outcome
                    == .malformed(
                        .init(
                            message: Tokenizer.tokenTooLongPrefix + "3", isLexical: true,
                            offset: 1)), "\(json)")
        }
    }

    @Test("Text without a backslash is cut where the full scan cuts it, by its quotes alone")
    func quotesAloneWithoutBackslashes() {
        var random = SplitMix64(seed: 77)
        let alphabet = Array(#""a1 ,:[]{}-tru"#.utf8)
        for length in 0..<300 {
            let text = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            text.withUnsafeBytes { bytes in
                let full = PartialToken.cut(bytes, kinds: .all, avx2: 0)
                for avx2 in [0, ByteKinds.avx2] {
                    let quick = PartialToken.cut(bytes, kinds: [], avx2: avx2)
                    #expect(quick == full, "\(String(decoding: text, as: UTF8.self))")
                }
            }
        }
    }

    @Test("Garbage that yajl refuses at once is not held waiting for a token's end")
    func garbageIsNotHeld() {
        // Each is refused by the chunk that shows it is no token, however long the input goes on after it.
        let cases: [(first: String, more: String)] = [("[\"", "\n"), ("[\"ab\n", "c"), ("[-", "a"), ("[1", "x")]
        for (first, more) in cases {
            let sink = TraceSink()
            let tokenizer = Tokenizer(sink: sink)
            var outcome = Array(first.utf8).withUnsafeBytes { tokenizer.parse($0, scansKinds: true) }
            for _ in 0..<3 where outcome == .needsMore {
                outcome = Array(String(repeating: more, count: 1000).utf8).withUnsafeBytes {
                    tokenizer.parse($0, scansKinds: true)
                }
            }
            guard case .malformed = outcome else {
                Issue.record("\(first.debugDescription) + \(more.debugDescription)…: \(outcome)")
                continue
            }
        }
    }

    @Test("An error in a token held when the input ends is located in the token")
    func errorInATokenHeldAtTheEnd() throws {
        let decoder = try ModelDecoder().incremental(JSONValue.self)
        #expect(throws: Never.self) { try decoder.feed(Array(#"{"a": "x\u12"#.utf8)) }
        #expect(throws: Never.self) { try decoder.feed(Array("zz".utf8)) }
        do {
            _ = try decoder.finish()
            Issue.record("a bad escape must be refused")
        } catch let DecodingError.dataCorrupted(context) {
            let location = try #require(context.underlyingError as? JSONDecodingError)
            #expect(location.offset >= 6 && location.offset <= 14, "\(location)")
            #expect(location.line == 1 && location.column == location.offset + 1, "\(location)")
        }
    }

    @Test("Decoders report a token past the limit as an error of kind tokenTooLong, with its place")
    func throughTheDecoder() throws {
        struct Item: Decodable { var name: String }
        var options = DecodingOptions()
        options.maximumTokenLength = 8
        let decoder = ModelDecoder(options: options)
        let json = Data(#"[{"name": "short"}, {"name": "much too long"}]"#.utf8)
        do {
            _ = try decoder.decode([Item].self, from: json)
            Issue.record("the long name must be refused")
        } catch let DecodingError.dataCorrupted(context) {
            let location = try #require(context.underlyingError as? JSONDecodingError)
            #expect(location.kind == .tokenTooLong)
            #expect(location.offset == 29)
            #expect(
                location.description
                    == "1:30: a string, key or number longer than 8 bytes (the decoder's maximumTokenLength) at $[1].name"
            )
        }
        // Streamed in chunks of three bytes: the first element arrives, then the error.
        let stream = try decoder.elements(of: Item.self, at: "[*]")
        var names: [String] = []
        do {
            for start in stride(from: 0, to: json.count, by: 3) {
                names += try stream.feed(json[start..<min(json.count, start + 3)]).map(\.name)
            }
            Issue.record("the long name must be refused")
        } catch let DecodingError.dataCorrupted(context) {
            let location = try #require(context.underlyingError as? JSONDecodingError)
            #expect(location.kind == .tokenTooLong)
            #expect(location.offset == 29)
            #expect(location.line == 1 && location.column == 30)
            // The snippet starts at the token, held from earlier chunks, and its caret points there.
            #expect(location.snippet.hasPrefix(#""much to"#) && location.snippet.hasSuffix("\n^"))
        }
        #expect(names == ["short"])
    }

    private static func randomDocument(_ random: inout SplitMix64, depth: Int) -> String {
        switch random.next() % (depth > 3 ? 4 : 6) {
        case 0: return randomString(&random)
        case 1:
            let numbers = ["0", "-1", "12345678901234567890", "1.5e-3", "-0.0", "1E+400", "7"]
            return numbers[Int(random.next() % UInt64(numbers.count))]
        case 2: return ["true", "false", "null"][Int(random.next() % 3)]
        case 3: return " \(randomString(&random)) "
        case 4:
            let count = Int(random.next() % 4)
            return "[" + (0..<count).map { _ in randomDocument(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            let count = Int(random.next() % 4)
            return "{"
                + (0..<count).map { _ in randomString(&random) + ":" + randomDocument(&random, depth: depth + 1) }
                .joined(separator: ", ") + "}"
        }
    }

    private static func randomString(_ random: inout SplitMix64) -> String {
        let pieces = [#"\""#, #"\\"#, "a", "é", #"\u00e9"#, #"\ud83d\ude00"#, "\\/", " ", ",", "]", "}", "1", "\\n"]
        let count = Int(random.next() % 8)
        return "\"" + (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined() + "\""
    }
}
