@testable import HandyStream
import Testing

/// Records each event as one short word, so that a whole parse reads as a golden trace.
final class TraceSink: TokenSink {
    var trace: [String] = []
    /// Stop the parse at the event with this index (counting from 0), as a sink that found its value would.
    var stopAt: Int?
    var offsetsAtEvents: [Int] = []
    weak var tokenizer: Tokenizer?

    private func record(_ event: String) -> Bool {
        trace.append(event)
        if let tokenizer { offsetsAtEvents.append(tokenizer.offset) }
        return trace.count - 1 != stopAt
    }

    override func tokenNull() -> Bool { record("null") }
    override func tokenBool(_ value: Bool) -> Bool { record(value ? "true" : "false") }
    override func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool {
        record("num:" + String(decoding: text, as: UTF8.self))
    }
    override func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool {
        record("str:" + String(decoding: bytes, as: UTF8.self))
    }
    override func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool {
        record("key:" + String(decoding: bytes, as: UTF8.self))
    }
    override func tokenStartMap() -> Bool { record("{") }
    override func tokenEndMap() -> Bool { record("}") }
    override func tokenStartArray() -> Bool { record("[") }
    override func tokenEndArray() -> Bool { record("]") }
}

/// Parses `json` in chunks of `chunkSize` bytes and returns the trace and the final outcome. `streamed`: the chunks
/// are scanned, as a stream's are (``Tokenizer/parse(_:scansKinds:)``), so a token the end of a chunk cuts is held
/// back until the chunk that ends it.
func tokenize(_ json: String, chunkSize: Int = .max, multipleValues: Bool = false, streamed: Bool = false)
    -> (trace: [String], outcome: Tokenizer.Outcome)
{
    let result = tokenize(Array(json.utf8), chunkSizes: [chunkSize], multipleValues: multipleValues, streamed: streamed)
    return (result.trace, result.outcome)
}

/// Parses `bytes` in chunks of the sizes given in turn (the last repeated), and returns the trace, the offset at
/// each event, the final outcome and yajl's parser calls.
func tokenize(
    _ bytes: [UInt8], chunkSizes: [Int], multipleValues: Bool = false, streamed: Bool = true,
    maximumTokenLength: Int = .max
) -> (trace: [String], offsets: [Int], outcome: Tokenizer.Outcome, parserCalls: Int) {
    let sink = TraceSink()
    let tokenizer = Tokenizer(sink: sink, multipleValues: multipleValues, maximumTokenLength: maximumTokenLength)
    sink.tokenizer = tokenizer
    var start = 0
    var chunk = 0
    while start < bytes.count {
        let size = chunkSizes[min(chunk, chunkSizes.count - 1)]
        chunk += 1
        let end = min(bytes.count, start + max(1, min(size, bytes.count)))
        let outcome = bytes[start..<end].withUnsafeBytes { tokenizer.parse($0, scansKinds: streamed) }
        if outcome != .needsMore { return (sink.trace, sink.offsetsAtEvents, outcome, tokenizer.parserCalls) }
        start = end
    }
    let outcome = tokenizer.complete()
    return (sink.trace, sink.offsetsAtEvents, outcome, tokenizer.parserCalls)
}

@Suite("Tokenizer")
struct TokenizerTests {
    static let golden: [(json: String, trace: String)] = [
        (
            #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#,
            "{ key:a num:1 key:b [ true false null ] key:c { key:d str:e } }"
        ),
        (
            #"[-0.0, 1e400, 12345678901234567890, -9223372036854775808]"#,
            "[ num:-0.0 num:1e400 num:12345678901234567890 num:-9223372036854775808 ]"
        ),
        (#"{"k\"ey":"a\u00e9\ud83d\ude00\n"}"#, "{ key:k\"ey str:aé😀\n }"),
        (#""just a string""#, "str:just a string"),
        ("  42  ", "num:42"),
        ("[[],{}]", "[ [ ] { } ]"),
    ]

    @Test("Golden event traces", arguments: golden.indices)
    func goldenTrace(index: Int) {
        let (json, expected) = Self.golden[index]
        let whole = tokenize(json)
        #expect(whole.outcome == .complete)
        #expect(whole.trace.joined(separator: " ") == expected)
    }

    @Test("Every chunk size gives the same trace", arguments: [1, 2, 3, 5, 7, 64])
    func chunkSplitsAnywhere(chunkSize: Int) {
        for (json, expected) in Self.golden {
            for streamed in [false, true] {
                let split = tokenize(json, chunkSize: chunkSize, streamed: streamed)
                #expect(split.outcome == .complete, "\(json)")
                #expect(
                    split.trace.joined(separator: " ") == expected,
                    "chunk size \(chunkSize), streamed \(streamed): \(json)")
            }
        }
    }

    @Test("Malformed input is reported with yajl's message and the offset")
    func malformed() {
        let result = tokenize(#"{"a":1 "b":2}"#)
        guard case .malformed(let failure) = result.outcome else {
            Issue.record("expected malformed, got \(result.outcome)")
            return
        }
        #expect(failure.message == "after key and value, inside map, I expect ',' or '}'")
        #expect(failure.isLexical == false)
        // yajl stops inside the offending token: the `"b"` that stands where a ',' belongs.
        #expect(failure.offset == 9)
        #expect(result.trace == ["{", "key:a", "num:1"])
    }

    @Test("A truncated document is reported when the input ends")
    func truncated() {
        let result = tokenize(#"{"a":[1,2"#)
        #expect(result.outcome == .malformed(.init(message: "premature EOF", isLexical: false, offset: 9)))
    }

    @Test("Empty input and invalid UTF-8 are errors")
    func emptyAndInvalidUTF8() {
        #expect(tokenize("").outcome == .malformed(.init(message: "premature EOF", isLexical: false, offset: 0)))
        let sink = TraceSink()
        let tokenizer = Tokenizer(sink: sink)
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]  // "\xC3(" : a broken two-byte sequence
        let outcome = bytes.withUnsafeBytes { tokenizer.parse($0) }
        guard case .malformed(let failure) = outcome else {
            Issue.record("expected malformed, got \(outcome)")
            return
        }
        #expect(failure.isLexical)
        #expect(failure.message.hasPrefix("invalid bytes in UTF8 string"))
    }

    @Test("A sink that returns false stops the parse; the offset is just past the token")
    func stopping() {
        let sink = TraceSink()
        sink.stopAt = 2
        let tokenizer = Tokenizer(sink: sink)
        sink.tokenizer = tokenizer
        let json = Array(#"{"a":12345, "b": [1,2,3]}"#.utf8)
        let outcome = json.withUnsafeBytes { tokenizer.parse($0) }
        #expect(outcome == .stopped)
        #expect(sink.trace == ["{", "key:a", "num:12345"])
        // yajl peeks at the byte after a number to know it has ended, but does not consume it.
        #expect(sink.offsetsAtEvents == [1, 4, 10])
    }

    @Test("Several top-level values when asked for")
    func multipleValues() {
        let lines = "{\"a\":1}\n{\"a\":2}\n[3]\n"
        #expect(
            tokenize(lines, multipleValues: true).trace.joined(separator: " ")
                == "{ key:a num:1 } { key:a num:2 } [ num:3 ]")
        guard case .malformed(let failure) = tokenize(lines).outcome else {
            Issue.record("a second value must be refused by default")
            return
        }
        #expect(failure.message == "trailing garbage")
    }
}
