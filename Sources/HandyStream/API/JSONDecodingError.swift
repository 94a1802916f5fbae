import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one error type of decoding outside `Decodable`'s own calls: everything wrong with a document, and the mistakes
/// of a call found before any input is read (a path that is not a path, a model that can't be decoded, a decoder used
/// after it ended, a file that can't be read).
///
/// An error in the input says where: the byte offset, the 1-based line and column (in characters), the JSON path,
/// and a snippet of the input with a caret. Line and column are worked out only when an error is made.
///
///     3:17: expected ',' or '}' after an object member at $.data.items[3]
public struct JSONDecodingError: Error, CustomStringConvertible, LocalizedError, Equatable, Sendable {
    /// What went wrong: with the input, or with the call.
    ///
    /// A struct with a static member per kind rather than an enum, so that kinds can be added without breaking
    /// source: compare with `==`, or `switch` with a `default:` case.
    ///
    ///     switch error.kind {
    ///     case .truncated: waitForMore()
    ///     case .typeMismatch: report(error.path)
    ///     default: throw error
    ///     }
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        private init(_ name: String) { description = name }

        /// The bytes are not JSON: a misplaced token, a bad literal, a malformed number or string.
        public static let malformed = Kind("malformed")
        /// The input ended before the document did (this includes empty input).
        public static let truncated = Kind("truncated")
        /// A string or key is not valid UTF-8.
        public static let invalidUTF8 = Kind("invalidUTF8")
        /// The designated path is not in the document.
        public static let pathNotFound = Kind("pathNotFound")
        /// Containers nest deeper than the decoder's cap.
        public static let tooDeep = Kind("tooDeep")
        /// A string, key or number is longer than ``DecodingOptions/maximumTokenLength``.
        public static let tokenTooLong = Kind("tokenTooLong")
        /// Strict mode: a value does not fit its property or element (the lenient rules would have kept the default,
        /// or dropped the element); also the root value's own mismatch, in every mode.
        public static let typeMismatch = Kind("typeMismatch")
        /// The designated path is not well formed (thrown before any input is read).
        public static let invalidPath = Kind("invalidPath")
        /// The type asked for can't be decoded: a property of a type that can't be, a mapping that can never match.
        public static let invalidModel = Kind("invalidModel")
        /// A push decoder was fed or finished after it ended.
        public static let misuse = Kind("misuse")
        /// The file or descriptor could not be opened or read: the message gives the system's reason.
        public static let unreadable = Kind("unreadable")
    }

    /// What went wrong.
    public var kind: Kind
    /// What went wrong, in a short sentence without position.
    public var message: String
    /// Bytes of input before the point of the error.
    public var offset: Int
    /// 1-based line; 0 when the input was not available to count lines in.
    public var line: Int
    /// 1-based column, in Unicode scalars; 0 when the input was not available.
    public var column: Int
    /// Where in the document: `$.data.items[3].price`; empty for a mistake of the call, not of the input.
    public var path: String
    /// The line of input around the error, and a caret under the point of the error.
    public var snippet: String

    public var description: String {
        guard !path.isEmpty else { return message }
        let position = line > 0 ? "\(line):\(column): " : "byte \(offset): "
        return position + message + " at " + path
    }

    /// A mistake of the call, found before or without reading input: no position, no path.
    init(_ kind: Kind, _ message: String) {
        (self.kind, self.message, offset, path, line, column, snippet) = (kind, message, 0, "", 0, 0, "")
    }

    static func unreadable(_ name: String, code: Int32) -> JSONDecodingError {
        JSONDecodingError(.unreadable, "\(name): cannot read: \(String(cString: strerror(code)))")
    }

    init(kind: Kind, message: String, offset: Int, path: String, input: UnsafeRawBufferPointer?) {
        (self.kind, self.message, self.offset, self.path) = (kind, message, offset, path)
        (line, column, snippet) = Self.locate(offset, in: input)
    }

    /// An error in streamed input: `chunk` begins at `chunkStart`; `lines` counted the chunks before it.
    init(
        kind: Kind, message: String, offset: Int, path: String, chunk: UnsafeRawBufferPointer, chunkStart: Int,
        lines: LineTracker
    ) {
        (self.kind, self.message, self.offset, self.path) = (kind, message, offset, path)
        let within = min(max(offset - chunkStart, 0), chunk.count)
        var (line, column, snippet) = Self.locate(within, in: chunk)
        if line == 1 {
            // The line began in an earlier chunk: its characters there were counted as the chunks went by.
            column += lines.columnsBefore
        }
        line += lines.newlines
        (self.line, self.column, self.snippet) = (line, column, snippet)
    }

    /// An error in a token that began before the chunk being read: `before` holds the stream's bytes from `offset` up
    /// to `chunkStart` (a token held back across chunks has no line feed unless it is malformed there).
    init(
        kind: Kind, message: String, offset: Int, path: String, before: [UInt8], chunk: UnsafeRawBufferPointer,
        chunkStart: Int, lines: LineTracker
    ) {
        var joined = before
        joined.append(contentsOf: chunk.prefix(Self.snippetRadius))
        self = joined.withUnsafeBytes {
            JSONDecodingError(
                kind: kind, message: message, offset: offset, path: path, chunk: $0, chunkStart: offset,
                lines: lines)
        }
        let characters = { (bytes: ArraySlice<UInt8>) in
            bytes.withUnsafeBytes { $0.baseAddress.map { LineTracker.characters($0, count: bytes.count) } ?? 0 }
        }
        let feeds = before.indices.filter { before[$0] == UInt8(ascii: "\n") }
        if feeds.isEmpty {
            // `lines` counted up to the chunk: step back over `before`'s characters.
            column -= characters(before[...])
        } else if feeds.count == 1, offset + feeds[0] == lines.lastLineFeed {
            // The line the last line feed counted ended: step back from its end.
            line = lines.newlines
            column = lines.lastLineColumns - characters(before[..<feeds[0]]) + 1
        }
    }

    private static let snippetRadius = 30

    private static func locate(_ offset: Int, in input: UnsafeRawBufferPointer?) -> (Int, Int, String) {
        guard let input, offset <= input.count else { return (0, 0, "") }
        // The line starts after the last line feed (`lastLineFeed` is -1 without one).
        var lines = LineTracker()
        lines.advance(over: UnsafeRawBufferPointer(rebasing: input[..<offset]), startingAt: 0, kinds: .all)
        let (line, column, lineStart) = (lines.newlines + 1, lines.columnsBefore + 1, lines.lastLineFeed + 1)
        var lineEnd = offset
        while lineEnd < input.count && input[lineEnd] != UInt8(ascii: "\n") && lineEnd - offset < snippetRadius {
            lineEnd += 1
        }
        let start = max(lineStart, offset - snippetRadius)
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: input[start..<lineEnd]), as: UTF8.self)
        let caretColumn = String(decoding: UnsafeRawBufferPointer(rebasing: input[start..<offset]), as: UTF8.self)
            .unicodeScalars.count
        let snippet = text.replacingTabs + "\n" + String(repeating: " ", count: caretColumn) + "^"
        return (line, column, snippet)
    }
}

/// Counts the lines of streamed input chunk by chunk, so that an error in a later chunk knows its line and column.
struct LineTracker {
    private(set) var newlines = 0
    /// The characters (Unicode scalars) of the current line in the chunks read so far.
    private(set) var columnsBefore = 0

    init(newlines: Int = 0) { self.newlines = newlines }

    /// The stream offset of the last line feed counted, and the characters of the line it ends: an error that a token
    /// held across chunks puts before it is located there.
    private(set) var lastLineFeed = -1
    private(set) var lastLineColumns = 0

    /// Counts `chunk`'s lines and characters; one whose ``ByteKinds`` lack line feeds and non-ASCII adds its length.
    mutating func advance(over chunk: UnsafeRawBufferPointer, startingAt start: Int, kinds: ByteKinds) {
        guard let base = chunk.baseAddress else { return }
        if !kinds.contains(.newline) && !kinds.contains(.nonASCII) {
            columnsBefore += chunk.count
            return
        }
        var cursor = base
        let end = base + chunk.count
        var lineStart = base
        var endedLine: UnsafeRawPointer?
        while cursor < end, let found = memchr(cursor, 0x0A, end - cursor) {
            newlines += 1
            endedLine = lineStart
            cursor = UnsafeRawPointer(found) + 1
            lineStart = cursor
        }
        if let endedLine {
            let feed = lineStart - 1
            lastLineFeed = start + base.distance(to: feed)
            lastLineColumns =
                (endedLine == base ? columnsBefore : 0)
                + Self.characters(endedLine, count: endedLine.distance(to: feed))
            columnsBefore = 0
        }
        columnsBefore += Self.characters(lineStart, count: lineStart.distance(to: end))
    }

    /// The characters in `length` bytes of UTF-8: every byte that does not continue a sequence (10xxxxxx) starts one;
    /// 32 bytes at a time while ASCII.
    static func characters(_ bytes: UnsafeRawPointer, count length: Int) -> Int {
        var continuations = 0
        var offset = 0
        while offset &+ 32 <= length {
            let any =
                bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                | bytes.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
                | bytes.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self)
                | bytes.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self)
            if any & 0x8080_8080_8080_8080 != 0 {
                for word in 0..<4 {
                    let word = bytes.loadUnaligned(fromByteOffset: offset &+ word &* 8, as: UInt64.self)
                    continuations &+= (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
                }
            }
            offset &+= 32
        }
        while offset &+ 8 <= length {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            continuations &+= (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
            offset &+= 8
        }
        while offset < length {
            if bytes.load(fromByteOffset: offset, as: UInt8.self) & 0xC0 == 0x80 { continuations &+= 1 }
            offset &+= 1
        }
        return length - continuations
    }
}

extension String {
    fileprivate var replacingTabs: String {
        String(unicodeScalars.map { $0 == "\t" || $0 == "\r" ? " " : Character($0) })
    }
}

extension JSONDecodingError {
    /// yajl's messages, mapped one by one; an unknown one is passed on as it is.
    static func translate(_ failure: Tokenizer.SyntaxFailure) -> (Kind, String) {
        switch failure.message {
        case "premature EOF": (.truncated, "unexpected end of input")
        case "trailing garbage": (.malformed, "unexpected data after the JSON value")
        case "after key and value, inside map, I expect ',' or '}'":
            (.malformed, "expected ',' or '}' after an object member")
        case "after array element, I expect ',' or ']'": (.malformed, "expected ',' or ']' after an array element")
        case "object key and value must be separated by a colon (':')": (.malformed, "expected ':' after an object key")
        case "invalid object key (must be a string)": (.malformed, "expected a string as an object key")
        case "unallowed token at this point in JSON text": (.malformed, "unexpected token")
        case "invalid bytes in UTF8 string.": (.invalidUTF8, "invalid UTF-8 in a string")
        case "invalid char in json text.": (.malformed, "invalid character")
        case "invalid string in json text.": (.malformed, "invalid literal (expected true, false or null)")
        case "invalid character inside string.":
            (.malformed, "invalid character in a string (control characters must be escaped)")
        case "invalid (non-hex) character occurs after '\\u' inside string.":
            (.malformed, "invalid \\u escape in a string")
        case "malformed number, a digit is required after the exponent.":
            (.malformed, "malformed number: a digit must follow the exponent")
        case "malformed number, a digit is required after the decimal point.":
            (.malformed, "malformed number: a digit must follow the decimal point")
        case "malformed number, a digit is required after the minus sign.":
            (.malformed, "malformed number: a digit must follow the minus sign")
        case "probable comment found in input text, comments are not enabled.": (.malformed, "comments are not allowed")
        case Tokenizer.byteOrderMarkMessage: (.malformed, "a byte order mark (U+FEFF) is not allowed in JSON")
        case let message where message.hasPrefix(Tokenizer.unpairedSurrogatePrefix):
            (
                .malformed,
                "an unpaired UTF-16 surrogate escape (\(message.dropFirst(Tokenizer.unpairedSurrogatePrefix.count))) "
                    + "in a string; lenient decoding reads it as U+FFFD"
            )
        case let message where message.hasPrefix(Tokenizer.tokenTooLongPrefix):
            (
                .tokenTooLong,
                "a string, key or number longer than \(message.dropFirst(Tokenizer.tokenTooLongPrefix.count)) bytes "
                    + "(the decoder's maximumTokenLength)"
            )
        case Tokenizer.controlCharacterMessage:
            (
                .malformed,
                "invalid character (form feed and vertical tab are not "
                    + "JSON whitespace, nor allowed unescaped in strings)"
            )
        default: (.malformed, failure.message)
        }
    }
}

/// A value the lenient rules passed over (kept the default, dropped an element), reported to
/// ``DecodingOptions/diagnostics`` without changing the result.
public struct DecodingDiagnostic: Sendable, CustomStringConvertible {
    /// Where: `$.items[3].price`.
    public var path: String
    /// What happened: `expected an integer that fits Int, found a string; the default was kept`.
    public var message: String

    public var description: String { "\(path): \(message)" }
}

// Every error prints what it means, also through `localizedDescription` (which code that only knows `Error` calls).

extension JSONDecodingError {
    /// The description: position, problem and path.
    public var errorDescription: String? { description }
}
