internal import CYajl
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The yajl boundary: the only caller of yajl's parser, fed chunk after chunk. Thunks in static callback tables
/// recover the tokenizer from yajl's context pointer and pass each event on to a ``TokenSink``.
///
///     chunk ──▶ yajl_parse ──▶ thunk ──▶ sink.tokenNumber(…)   (returns false ──▶ yajl stops: "stopped")
///
/// yajl resets its consumed-bytes count at every `yajl_parse` and advances it past each token before calling back,
/// so during a callback `chunkStart + yajl_get_bytes_consumed` is the offset just after the current token.
final class Tokenizer {
    /// How a call to ``parse(_:scansKinds:)`` or ``complete()`` ended.
    enum Outcome: Equatable {
        /// The chunk was read entirely; more may follow.
        case needsMore
        /// The input is complete and well formed.
        case complete
        /// The sink returned `false`: it holds the reason (an error, or the value it wanted is complete).
        case stopped
        /// yajl found the bytes to be malformed.
        case malformed(SyntaxFailure)
    }

    /// yajl's own account of malformed input: its message and the byte offset where it gave up.
    struct SyntaxFailure: Equatable {
        /// yajl's text without its "parse error: " / "lexical error: " prefix and trailing newline.
        var message: String
        var isLexical: Bool
        var offset: Int
    }

    /// Where events go; whoever sets it keeps the sink alive while the tokenizer parses.
    var sink: Sink

    /// A sink, unretained. The builder, which gets nearly every event, is named, so that thunks call it directly.
    enum Sink {
        case builder(Unmanaged<Builder>)
        case other(Unmanaged<TokenSink>)

        init(_ sink: TokenSink) {
            if let builder = sink as? Builder {
                self = .builder(.passUnretained(builder))
            } else {
                self = .other(.passUnretained(sink))
            }
        }
    }
    private var handle: yajl_handle?
    private let multipleValues: Bool
    /// The stream offset of the buffer yajl is parsing.
    private var chunkStart = 0
    private(set) var bytesFed = 0
    /// Bytes handed to yajl so far: ``bytesFed`` less what is held back.
    private var bytesParsed = 0
    /// The end of a chunk whose escapes the next chunk decides (see ``SurrogateEscapes``), held back from yajl.
    private var held: [UInt8] = []
    /// The token a streamed chunk's end cut, held back from yajl until the chunk that ends it (``PartialToken``).
    private var partial = PartialToken()
    let maximumTokenLength: Int
    /// The token held last, once handed to yajl, until the next chunk: an error inside it is located in its bytes.
    private var lastToken: (start: Int, bytes: [UInt8]) = (0, [])
    /// Held escape bytes joined with the next chunk's first (``parseEscapes(_:_:)``), once handed to yajl: the same.
    private var lastJoined: (start: Int, bytes: [UInt8]) = (0, [])
    /// Calls of yajl's parser: a token cut by chunks is handed over once, whole, however many chunks it spans.
    private(set) var parserCalls = 0
    private let rejectsUnpairedSurrogates: Bool
    private var ownFailure: SyntaxFailure?
    /// The text yajl is parsing, while it parses (empty otherwise): see ``isVerbatim(_:)``.
    private var parsing = UnsafeRawBufferPointer(start: nil, count: 0)
    /// The text being parsed has no byte past ASCII: its verbatim strings and keys need no UTF-8 check.
    private var parsingIsASCII = false
    /// The ``ByteKinds`` of the last chunk parsed; ``ByteKinds/all`` when it was not scanned.
    private(set) var lastChunkKinds = ByteKinds.all
    private let scansWithAVX2: Int32 = ByteKinds.avx2

    /// `multipleValues`: a stream of top-level values (JSON Lines). `rejectsUnpairedSurrogates`: a lone `"\uD800"` is
    /// an error, not U+FFFD. `maximumTokenLength`: a longer string, key or number is an error.
    init(
        sink: TokenSink, multipleValues: Bool = false, rejectsUnpairedSurrogates: Bool = false,
        maximumTokenLength: Int = .max
    ) {
        self.sink = Sink(sink)
        self.multipleValues = multipleValues
        self.rejectsUnpairedSurrogates = rejectsUnpairedSurrogates
        self.maximumTokenLength = maximumTokenLength
    }

    deinit { if let handle { yajl_free(handle) } }

    /// Makes yajl's parser, with the callbacks for scanned chunks or not; either table is right for any chunk.
    @inline(never)
    private func makeHandle(scansKinds: Bool) -> yajl_handle {
        // yajl keeps the callbacks pointer and the context for the handle's whole life.
        guard
            let handle = yajl_alloc(
                Self.callbacks(scansKinds: scansKinds, limitsLength: maximumTokenLength != .max), nil,
                Unmanaged.passUnretained(self).toOpaque())
        else {
            fatalError("yajl_alloc failed: out of memory")
        }
        self.handle = handle
        if multipleValues { _ = cyajl_set_allow_multiple_values(handle, 1) }
        // Strings and keys are validated once, strictly, by ``checkUTF8(_:)``; yajl's lax pass would repeat the work.
        _ = cyajl_set_dont_validate_strings(handle, 1)
        return handle
    }

    /// Reads from the middle of a stream: the next chunk starts at `offset`, between two top-level values.
    func start(atOffset offset: Int) {
        precondition(bytesFed == 0 && offset >= 0, "Tokenizer: a stream is resumed before its first chunk")
        (chunkStart, bytesFed, bytesParsed) = (offset, offset, offset)
    }

    /// During a callback, the offset just after the token; after a call returns, the bytes yajl has consumed.
    var offset: Int { chunkStart + yajl_get_bytes_consumed(handle) }  // (yajl answers 0 for no handle)

    /// Parses one chunk. Chunks may split a token anywhere: a streamed chunk's cut token is held back until the chunk
    /// that ends it (``PartialToken``), as are an escape's first bytes. `scansKinds` (streamed chunks): find the
    /// chunk's ``ByteKinds`` first, to skip the checks for kinds it lacks; the first chunk decides the callbacks.
    func parse(_ chunk: UnsafeRawBufferPointer, scansKinds: Bool = false) -> Outcome {
        lastChunkKinds = .all
        if let failure = ownFailure { return .malformed(failure) }
        lastToken = (0, [])
        lastJoined = (0, [])
        guard !chunk.isEmpty else { return .needsMore }
        if bytesFed == 0 && chunk.count >= 3 && chunk[0] == 0xEF && chunk[1] == 0xBB && chunk[2] == 0xBF {
            ownFailure = SyntaxFailure(message: Self.byteOrderMarkMessage, isLexical: true, offset: 0)
            return .malformed(ownFailure!)
        }
        bytesFed += chunk.count
        if handle == nil { _ = makeHandle(scansKinds: scansKinds) }
        let kinds = scansKinds ? ByteKinds(chunk, avx2: scansWithAVX2) : .all
        lastChunkKinds = kinds
        // A whole document is parsed at once: only streamed chunks cut tokens.
        guard scansKinds else { return parseEscapes(chunk, kinds) }
        var rest = chunk
        if !partial.isEmpty {
            guard let end = partial.end(in: rest) else {
                partial.append(rest)
                return refuseIfTooLong()
            }
            partial.append(UnsafeRawBufferPointer(rebasing: rest[..<end]))
            rest = UnsafeRawBufferPointer(rebasing: rest[end...])
            let refused = refuseIfTooLong()
            guard refused == .needsMore else { return refused }
            lastToken = (partial.start, partial.take())
            let outcome = lastToken.bytes.withUnsafeMutableBytes {
                let token = UnsafeRawBufferPointer($0)
                return parseEscapes(token, ByteKinds(token, avx2: scansWithAVX2))
            }
            guard outcome == .needsMore else { return outcome }
        }
        let (cut, kind) = PartialToken.cut(rest, kinds: kinds, avx2: scansWithAVX2)
        if cut < rest.count {
            partial.begin(kind, UnsafeRawBufferPointer(rebasing: rest[cut...]), at: bytesFed - rest.count + cut)
            rest = UnsafeRawBufferPointer(rebasing: rest[..<cut])
        }
        let outcome = parseEscapes(rest, kinds)
        guard outcome == .needsMore, !partial.isEmpty else { return outcome }
        return refuseIfTooLong()
    }

    /// The stream's bytes `offset..<end`, when a held (or just handed over) token has them: to locate its errors.
    func bytes(from offset: Int, upTo end: Int) -> [UInt8]? {
        for (start, bytes) in [(partial.start, partial.bytes), lastToken, lastJoined]
        where start <= offset && offset <= end && end <= start + bytes.count {
            return Array(bytes[(offset - start)..<(end - start)])
        }
        return nil
    }

    /// A token held that grew past ``maximumTokenLength`` is refused where it starts (``PartialToken/exceeds(_:)``).
    private func refuseIfTooLong() -> Outcome {
        guard partial.exceeds(maximumTokenLength) else { return .needsMore }
        ownFailure = SyntaxFailure(message: tokenTooLongMessage, isLexical: true, offset: partial.start)
        return .malformed(ownFailure!)
    }

    private var tokenTooLongMessage: String { Self.tokenTooLongPrefix + "\(maximumTokenLength)" }

    private func parseEscapes(_ chunk: UnsafeRawBufferPointer, _ kinds: ByteKinds) -> Outcome {
        var rest = chunk
        // Bytes held back are joined with the start of this chunk, enough to decide their escape.
        while !held.isEmpty {
            if rest.isEmpty { return .needsMore }
            let taken = min(rest.count, SurrogateEscapes.longestEscape)
            var joined = held + UnsafeRawBufferPointer(rebasing: rest[..<taken])
            held = []
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            // Held bytes come right after all those parsed.
            lastJoined = (bytesParsed, joined)
            let outcome = joined.withUnsafeMutableBytes {
                let joined = UnsafeRawBufferPointer($0)
                return parseDecided(joined, kinds == .all ? .all : ByteKinds(joined, avx2: scansWithAVX2))
            }
            guard outcome == .needsMore else { return outcome }
        }
        return parseDecided(rest, kinds)
    }

    /// Parses what `buffer`'s escapes decide, holding the rest back; unpaired surrogates are refused or replaced first.
    private func parseDecided(_ buffer: UnsafeRawBufferPointer, _ kinds: ByteKinds) -> Outcome {
        guard kinds.contains(.backslash) else { return parseChecked(buffer, kinds) }
        let (decided, unpaired) = SurrogateEscapes.scan(buffer)
        if decided < buffer.count { held = Array(UnsafeRawBufferPointer(rebasing: buffer[decided...])) }
        let ready = UnsafeRawBufferPointer(rebasing: buffer[..<decided])
        guard let first = unpaired.first else { return parseChecked(ready, kinds) }
        return _slowpath_unpairedSurrogates(ready, unpaired, first: first, kinds)
    }

    @inline(never)
    private func _slowpath_unpairedSurrogates(
        _ ready: UnsafeRawBufferPointer, _ unpaired: [Int], first: Int, _ kinds: ByteKinds
    ) -> Outcome {
        if rejectsUnpairedSurrogates {
            let before = parseChecked(UnsafeRawBufferPointer(rebasing: ready[..<first]), kinds)
            guard before == .needsMore else { return before }
            held = []
            ownFailure = SyntaxFailure(
                message: Self.unpairedSurrogatePrefix + SurrogateEscapes.text(ready, at: first), isLexical: true,
                offset: bytesParsed)
            return .malformed(ownFailure!)
        }
        var replaced = Array(ready)
        for offset in unpaired { SurrogateEscapes.replace(at: offset, in: &replaced) }
        // The escapes are rewritten as ASCII text: the bytes hold the same kinds.
        return replaced.withUnsafeBytes { parseChecked($0, kinds) }
    }

    /// Hands `buffer` to yajl, after the checks yajl lacks. `kinds`: what `buffer` may hold.
    private func parseChecked(_ buffer: UnsafeRawBufferPointer, _ kinds: ByteKinds) -> Outcome {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .needsMore }
        // yajl takes form feed and vertical tab for white space; JSON takes them nowhere unescaped.
        if kinds.contains(.formFeedOrVerticalTab), let forbidden = Self.firstNonJSONWhitespace(buffer) {
            let before = parseChecked(UnsafeRawBufferPointer(rebasing: buffer[..<forbidden]), kinds)
            guard before == .needsMore else { return before }
            held = []
            ownFailure = SyntaxFailure(message: Self.controlCharacterMessage, isLexical: true, offset: bytesParsed)
            return .malformed(ownFailure!)
        }
        chunkStart = bytesParsed
        bytesParsed += buffer.count
        parsing = buffer
        parsingIsASCII = !kinds.contains(.nonASCII)
        parserCalls += 1
        let status = yajl_parse(handle.unsafelyUnwrapped, base.assumingMemoryBound(to: UInt8.self), buffer.count)
        parsing = UnsafeRawBufferPointer(start: nil, count: 0)
        parsingIsASCII = false
        return outcome(of: status, ifOK: .needsMore)
    }

    /// Whether a string's or key's bytes are the text between its quotes (yajl hands out unescaped strings in place):
    /// such text holds nothing a writer escapes but `/` (no control character, quote or backslash).
    func isVerbatim(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let start = bytes.baseAddress, let text = parsing.baseAddress else { return false }
        return start >= text && start + bytes.count <= text + parsing.count
    }

    /// Verbatim (``isVerbatim(_:)``) in text the chunk scan found all ASCII: ASCII, so no UTF-8 check is needed.
    @inline(__always)
    func isVerbatimASCII(_ bytes: UnsafeRawBufferPointer) -> Bool { parsingIsASCII && isVerbatim(bytes) }

    static let controlCharacterMessage = "form feed and vertical tab are not allowed in JSON"
    static let invalidUTF8Message = "invalid bytes in UTF8 string."
    static let byteOrderMarkMessage = "byte order mark"
    static let unpairedSurrogatePrefix = "unpaired surrogate "
    static let tokenTooLongPrefix = "token longer than "

    private static func firstNonJSONWhitespace(_ chunk: UnsafeRawBufferPointer) -> Int? {
        let base = chunk.baseAddress!
        let formFeed = memchr(base, 0x0C, chunk.count)
        let verticalTab = memchr(base, 0x0B, chunk.count)
        switch (formFeed, verticalTab) {
        case (nil, nil): return nil
        case (let found?, nil), (nil, let found?): return base.distance(to: UnsafeRawPointer(found))
        case (let first?, let second?): return base.distance(to: UnsafeRawPointer(min(first, second)))
        }
    }

    @inline(__always)
    fileprivate func checkLength(_ length: Int, quoted: Bool) -> Bool {
        length <= maximumTokenLength || _slowpath_tooLong(length, quoted: quoted)
    }

    @inline(never)
    private func _slowpath_tooLong(_ length: Int, quoted: Bool) -> Bool {
        // The token ends at `offset`: point at its start (exactly, unless a string's escapes changed its length).
        ownFailure = SyntaxFailure(
            message: tokenTooLongMessage, isLexical: true, offset: max(offset - length - (quoted ? 2 : 0), chunkStart))
        return false
    }

    /// Called for strings and keys: refuses what yajl's lax UTF-8 check lets through.
    @inline(__always)
    fileprivate func checkUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let bad = UTF8Validation.firstInvalidByte(bytes) else { return true }
        return _slowpath_invalidUTF8(bytes, at: bad)
    }

    /// Out of line, so that the callbacks that check every string and key keep few registers.
    @inline(never)
    private func _slowpath_invalidUTF8(_ bytes: UnsafeRawBufferPointer, at bad: Int) -> Bool {
        // The token ends just past its closing quote: point at the bad byte (within the string, if it has escapes).
        let position = max(offset - 1 - (bytes.count - bad), chunkStart)
        ownFailure = SyntaxFailure(message: Self.invalidUTF8Message, isLexical: true, offset: position)
        return false
    }

    /// Tells yajl the input has ended: a document cut short is reported here.
    func complete() -> Outcome {
        if let failure = ownFailure { return .malformed(failure) }
        if !partial.isEmpty {
            // A token the input's end completes (a number), or leaves cut: yajl says which.
            lastToken = (partial.start, partial.take())
            let outcome = lastToken.bytes.withUnsafeMutableBytes { parseEscapes(UnsafeRawBufferPointer($0), .all) }
            guard outcome == .needsMore else { return outcome }
        }
        if !held.isEmpty {
            // An escape cut off by the end of the input: yajl says what is wrong with it.
            let rest = held
            held = []
            lastJoined = (bytesParsed, rest)
            let outcome = rest.withUnsafeBytes { parseChecked($0, .all) }
            guard outcome == .needsMore else { return outcome }
        }
        chunkStart = bytesParsed
        let handle = handle ?? makeHandle(scansKinds: false)
        let status = yajl_complete_parse(handle)
        if status == yajl_status_ok && bytesParsed > 0 && Self.tabIsRefused(by: handle) {
            // yajl ends the input by its parser's state alone: after a whole value, a string its lexer still holds
            // open (`1 "ab`, whole or cut by the input's end) would pass for nothing. A tab is white space anywhere
            // but in a string, where it must be escaped: refused, it shows that string.
            ownFailure = SyntaxFailure(message: "premature EOF", isLexical: false, offset: bytesParsed)
            return .malformed(ownFailure!)
        }
        return outcome(of: status, ifOK: .complete)
    }

    private static func tabIsRefused(by handle: yajl_handle) -> Bool {
        var tab = UInt8(ascii: "\t")
        return yajl_parse(handle, &tab, 1) != yajl_status_ok
    }

    private func outcome(of status: yajl_status, ifOK success: Outcome) -> Outcome {
        if status == yajl_status_ok { return success }
        if let failure = ownFailure { return .malformed(failure) }
        if status == yajl_status_client_canceled { return .stopped }
        return .malformed(syntaxFailure())
    }

    @inline(never)
    private func syntaxFailure() -> SyntaxFailure {
        // yajl_complete_parse feeds yajl one blank of its own: never report an offset past the real input.
        let at = min(offset, bytesParsed)
        guard let handle, let raw = yajl_get_error(handle, 0, nil, 0) else {
            return SyntaxFailure(message: "malformed JSON", isLexical: false, offset: at)
        }
        defer { yajl_free_error(handle, raw) }
        var text = String(cString: raw)
        while text.last == "\n" { text.removeLast() }
        var isLexical = false
        if text.hasPrefix("lexical error: ") {
            isLexical = true
            text.removeFirst("lexical error: ".count)
        } else if text.hasPrefix("parse error: ") {
            text.removeFirst("parse error: ".count)
        }
        return SyntaxFailure(message: text, isLexical: isLexical, offset: at)
    }

    // MARK: - The callbacks tables

    private typealias TextCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Int32

    /// The table for chunks scanned or not, with or without a limit (only then is each token's length compared).
    private static func callbacks(scansKinds: Bool, limitsLength: Bool) -> UnsafePointer<yajl_callbacks> {
        callbackTables[(scansKinds ? 1 : 0) | (limitsLength ? 2 : 0)]
    }

    /// Indexed by scanning (1) and limiting (2). Chunks not scanned (a whole document) have every string and key
    /// checked; in scanned chunks (streamed) a string known to be ASCII is not. With a limit (``maximumTokenLength``),
    /// every string's, key's and number's length is checked.
    nonisolated(unsafe) private static let callbackTables = [
        callbacks(
            string: { text($0, $1, $2, skipsKnownASCII: false, isKey: false, limited: false) },
            key: { text($0, $1, $2, skipsKnownASCII: false, isKey: true, limited: false) }, limitsLength: false),
        callbacks(
            string: { text($0, $1, $2, skipsKnownASCII: true, isKey: false, limited: false) },
            key: { text($0, $1, $2, skipsKnownASCII: true, isKey: true, limited: false) }, limitsLength: false),
        callbacks(
            string: { text($0, $1, $2, skipsKnownASCII: false, isKey: false, limited: true) },
            key: { text($0, $1, $2, skipsKnownASCII: false, isKey: true, limited: true) }, limitsLength: true),
        callbacks(
            string: { text($0, $1, $2, skipsKnownASCII: true, isKey: false, limited: true) },
            key: { text($0, $1, $2, skipsKnownASCII: true, isKey: true, limited: true) }, limitsLength: true),
    ]

    /// A table of callbacks with these for strings and keys, numbers' lengths checked or not. yajl keeps the pointer
    /// for the handle's life, so it must never move: each table is allocated once, for the process.
    private static func callbacks(string: TextCallback, key: TextCallback, limitsLength: Bool)
        -> UnsafePointer<yajl_callbacks>
    {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(
            to: yajl_callbacks(
                yajl_null: { context in send(context) { $0.tokenNull() } },
                yajl_boolean: { context, value in send(context) { $0.tokenBool(value != 0) } },
                yajl_integer: nil,
                yajl_double: nil,
                // Numbers arrive only as raw text: yajl_integer and yajl_double would lose precision.
                yajl_number: { context, text, length in
                    let buffer = UnsafeRawBufferPointer(start: text, count: length)
                    return send(context) { $0.tokenNumber(buffer) }
                },
                yajl_string: string,
                yajl_start_map: { context in send(context) { $0.tokenStartMap() } },
                yajl_map_key: key,
                yajl_end_map: { context in send(context) { $0.tokenEndMap() } },
                yajl_start_array: { context in send(context) { $0.tokenStartArray() } },
                yajl_end_array: { context in send(context) { $0.tokenEndArray() } }
            ))
        if limitsLength {
            table.pointee.yajl_number = { context, text, length in
                guard tokenizer(context).withInstance({ $0.checkLength(length, quoted: false) }) else { return 0 }
                let buffer = UnsafeRawBufferPointer(start: text, count: length)
                return send(context) { $0.tokenNumber(buffer) }
            }
        }
        return UnsafePointer(table)
    }
}

@inline(__always)
private func tokenizer(_ context: UnsafeMutableRawPointer?) -> Unmanaged<Tokenizer> {
    Unmanaged<Tokenizer>.fromOpaque(context.unsafelyUnwrapped)
}

/// A string or key event: its length and UTF-8 checked, then handed on. Inlined into each thunk with its constants.
@inline(__always)
private func text(
    _ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ length: Int, skipsKnownASCII: Bool,
    isKey: Bool, limited: Bool
) -> Int32 {
    let buffer = UnsafeRawBufferPointer(start: bytes, count: length)
    let valid = tokenizer(context).withInstance {
        (!limited || $0.checkLength(length, quoted: true))
            && ((skipsKnownASCII && $0.isVerbatimASCII(buffer)) || $0.checkUTF8(buffer))
    }
    guard valid else { return 0 }
    return send(context) { isKey ? $0.tokenKey(buffer) : $0.tokenString(buffer) }
}

/// Hands an event to the sink: the builder by a direct, inlined call; any other sink through its class table.
@inline(__always)
private func send(_ context: UnsafeMutableRawPointer?, _ event: (TokenSink) -> Bool) -> Int32 {
    switch tokenizer(context).withInstance({ $0.sink }) {
    case .builder(let builder): builder.withInstance { event($0) } ? 1 : 0
    case .other(let sink): sink.withInstance { event($0) } ? 1 : 0
    }
}
