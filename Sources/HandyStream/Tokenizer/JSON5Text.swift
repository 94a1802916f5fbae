/// JSON5 rewritten as JSON as it streams in, for ``DecodingOptions/allowsJSON5``, accepting what Foundation's
/// `JSONDecoder` accepts: comments (a block comment keeps its line breaks, so that later errors name the right line);
/// vertical tab, form feed and 0xA0 as white space; single-quoted strings; `\'`, `\xHH` and escaped line breaks;
/// unquoted keys (identifier characters and `\u`/`\x` escapes, no leading digit); numbers with a leading `+` or a
/// leading or trailing point, hexadecimal ones, `Infinity`, `-Infinity` and `NaN`. Trailing commas are left to
/// ``TrailingCommas``. With `impliedObject` (``DecodingOptions/assumesTopLevelDictionary``) a document not starting
/// with `{` is an object's members.
///
/// Numbers are written in JSON's grammar with a lower-case exponent, so that the special values are spelled as numbers
/// no input gives: `1E999999` (infinity), `-1E999999` and `2E999999` (NaN), read back by ``JSON5Text/special(_:)``;
/// users see `NaN`, `Infinity` or `-Infinity` (``DecodingOptions/numberText(_:)``). A hexadecimal number past `UInt64`
/// becomes `1e999999`, which no type holds (Foundation refuses it too).
final class JSON5Text: TextStage {
    private enum State {
        /// Between tokens.
        case between
        /// A `/` that may open a comment.
        case slash
        case lineComment
        case blockComment
        /// A `*` in a block comment, which may close it.
        case blockCommentStar
        /// Inside a string opened by `quote`.
        case string(quote: UInt8)
        /// After a backslash in a string.
        case escape(quote: UInt8)
        /// After `\x` in a string, with the digits read so far.
        case hexEscape(quote: UInt8, digits: Int, value: UInt8)
        /// After `\u` in a string (passed on as it is), with the digits read so far.
        case unicodeEscape(quote: UInt8, digits: Int, value: UInt16)
        /// After a backslash and a carriage return in a string: a line feed may follow.
        case escapedReturn(quote: UInt8)
        /// A number, a literal or an unquoted key, collected in `word`.
        case word
    }

    private var state = State.between
    /// The open containers, `true` for an object.
    private var containers: [Bool] = []
    /// An unquoted key may come next (after `{` or after a comma in an object).
    private var expectsKey = false
    private var wordIsKey = false
    private var word: [UInt8] = []
    private var output: [UInt8] = []
    /// Bytes consumed so far, and the line and column (in scalars) they end on, for errors.
    private var offset = 0
    private var line = 1
    private var column = 1
    private var wordStart = (offset: 0, line: 1, column: 1)
    /// The document is an object's members without braces: decided at its first significant byte.
    private var impliedObject: Bool
    private var decidedStart = false

    init(impliedObject: Bool) {
        self.impliedObject = impliedObject
    }

    func rewrite(
        _ chunk: UnsafeRawBufferPointer, isLast: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        output.removeAll(keepingCapacity: true)
        for byte in chunk {
            try consume(byte)
            offset += 1
            if byte == ASCII.newline {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        if isLast { try end() }
        try output.withUnsafeBytes { try body($0) }
    }

    private func fail(_ message: String, atWord: Bool = false, truncated: Bool = false) -> TextStageError {
        let at = atWord ? wordStart : (offset, line, column)
        return TextStageError(
            message: message, offset: at.offset, line: at.line, column: at.column, truncated: truncated)
    }

    private func consume(_ byte: UInt8) throws {
        switch state {
        case .between:
            try between(byte)
        case .slash:
            switch byte {
            case UInt8(ascii: "/"): state = .lineComment
            case UInt8(ascii: "*"): state = .blockComment
            default:
                // Not a comment: the tokenizer reports the slash.
                output.append(UInt8(ascii: "/"))
                state = .between
                try between(byte)
            }
        case .lineComment:
            if byte == ASCII.newline || byte == ASCII.carriageReturn {
                output.append(byte)
                state = .between
            }
        case .blockComment, .blockCommentStar:
            if byte == ASCII.newline { output.append(byte) }
            if case .blockCommentStar = state, byte == UInt8(ascii: "/") {
                output.append(ASCII.space)
                state = .between
            } else {
                state = byte == UInt8(ascii: "*") ? .blockCommentStar : .blockComment
            }
        case .string(let quote):
            if byte == quote {
                output.append(ASCII.quote)
                state = .between
            } else if byte == ASCII.backslash {
                state = .escape(quote: quote)
            } else if byte == ASCII.quote {
                output.append(ASCII.backslash)
                output.append(ASCII.quote)
            } else {
                output.append(byte)
            }
        case .escape(let quote):
            state = .string(quote: quote)
            switch byte {
            case UInt8(ascii: "'"):
                output.append(byte)
            case UInt8(ascii: "x"):
                state = .hexEscape(quote: quote, digits: 0, value: 0)
            case UInt8(ascii: "u"):
                output.append(ASCII.backslash)
                output.append(byte)
                state = .unicodeEscape(quote: quote, digits: 0, value: 0)
            case ASCII.newline:
                output.append(contentsOf: [ASCII.backslash, UInt8(ascii: "n")])
            case ASCII.carriageReturn:
                output.append(contentsOf: [ASCII.backslash, UInt8(ascii: "r")])
                state = .escapedReturn(quote: quote)
            default:
                // JSON's own escapes; the tokenizer refuses any other.
                output.append(ASCII.backslash)
                output.append(byte)
            }
        case .hexEscape(let quote, let digits, let value):
            guard let digit = ASCII.hexValue(byte) else {
                throw fail("invalid \\x escape in a string (two hexadecimal digits expected)")
            }
            let value = value << 4 | digit
            if digits == 0 {
                state = .hexEscape(quote: quote, digits: 1, value: value)
            } else {
                guard value != 0 else { throw fail("\\x00 is not allowed in a string") }
                appendEscape(UInt16(value))
                state = .string(quote: quote)
            }
        case .unicodeEscape(let quote, let digits, let value):
            guard let digit = ASCII.hexValue(byte) else {
                // Not four digits: the tokenizer refuses the escape.
                state = .string(quote: quote)
                try consume(byte)
                return
            }
            output.append(byte)
            let value = value << 4 | UInt16(digit)
            if digits < 3 {
                state = .unicodeEscape(quote: quote, digits: digits + 1, value: value)
            } else {
                // Foundation's JSON5 scanner refuses `\u0000` (plain JSON allows it).
                guard value != 0 else { throw fail("\\u0000 is not allowed in a JSON5 string") }
                state = .string(quote: quote)
            }
        case .escapedReturn(let quote):
            state = .string(quote: quote)
            if byte == ASCII.newline {
                output.append(contentsOf: [ASCII.backslash, UInt8(ascii: "n")])
            } else {
                try consume(byte)
            }
        case .word:
            if wordIsKey ? Self.continuesKey(byte) : Self.startsValue(byte) {
                word.append(byte)
            } else {
                try finishWord()
                state = .between
                try between(byte)
            }
        }
    }

    private func between(_ byte: UInt8) throws {
        switch byte {
        case _ where ASCII.isJSONSpace(byte):
            output.append(byte)
            return
        case 0x0B, 0x0C, 0xA0:
            output.append(ASCII.space)
            return
        case UInt8(ascii: "/"):
            state = .slash
            return
        default:
            break
        }
        if !decidedStart {
            decidedStart = true
            if impliedObject && byte != UInt8(ascii: "{") {
                output.append(UInt8(ascii: "{"))
                containers.append(true)
                expectsKey = true
            } else {
                impliedObject = false
            }
        }
        let isKey = expectsKey
        expectsKey = false
        switch byte {
        case ASCII.quote, UInt8(ascii: "'"):
            output.append(ASCII.quote)
            state = .string(quote: byte)
        case UInt8(ascii: "{"):
            containers.append(true)
            expectsKey = true
            output.append(byte)
        case UInt8(ascii: "["):
            containers.append(false)
            output.append(byte)
        case ASCII.closeBrace, ASCII.closeBracket:
            // A mismatched or extra one is the tokenizer's to report.
            if !containers.isEmpty { containers.removeLast() }
            output.append(byte)
        case ASCII.comma:
            expectsKey = containers.last == true
            output.append(byte)
        default:
            if isKey ? Self.startsKey(byte) : Self.startsValue(byte) {
                wordIsKey = isKey
                word.removeAll(keepingCapacity: true)
                word.append(byte)
                wordStart = (offset, line, column)
                state = .word
            } else {
                output.append(byte)
            }
        }
    }

    private func end() throws {
        switch state {
        case .word:
            try finishWord()
        case .slash:
            output.append(UInt8(ascii: "/"))
        case .blockComment, .blockCommentStar:
            throw fail("a comment that is never closed (\"*/\" expected)", truncated: true)
        case .between, .lineComment, .string, .escape, .hexEscape, .unicodeEscape, .escapedReturn:
            // An unterminated string is the tokenizer's to report.
            break
        }
        state = .between
        if !decidedStart && impliedObject {
            // Nothing but white space: an empty object.
            output.append(UInt8(ascii: "{"))
            output.append(UInt8(ascii: "}"))
        } else if impliedObject {
            output.append(UInt8(ascii: "}"))
        }
    }

    // MARK: - Words

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || ASCII.isDigit(byte)
    }

    private static func startsValue(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || byte == ASCII.plus || byte == ASCII.minus || byte == ASCII.period
    }

    private static func startsKey(_ byte: UInt8) -> Bool {
        (isLetterOrDigit(byte) && !ASCII.isDigit(byte)) || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "_")
            || byte == ASCII.backslash || byte >= 0x80
    }

    private static func continuesKey(_ byte: UInt8) -> Bool { startsKey(byte) || ASCII.isDigit(byte) }

    private func finishWord() throws {
        if wordIsKey {
            try writeKey()
        } else {
            try writeValue()
        }
    }

    /// The word as errors quote it: its first 40 bytes (a word may be as long as the input).
    private var wordText: String {
        word.count <= 40
            ? String(decoding: word, as: UTF8.self) : String(decoding: word.prefix(40), as: UTF8.self) + "…"
    }

    private func writeValue() throws {
        switch word {
        case Array("true".utf8), Array("false".utf8), Array("null".utf8):
            output.append(contentsOf: word)
            return
        default:
            break
        }
        var index = 0
        var negative = false
        if word[0] == ASCII.plus || word[0] == ASCII.minus {
            negative = word[0] == ASCII.minus
            index = 1
        }
        let rest = word[index...]
        if rest.elementsEqual("Infinity".utf8) {
            output.append(contentsOf: Array((negative ? "-1E999999" : "1E999999").utf8))
            return
        }
        if rest.elementsEqual("NaN".utf8) {
            output.append(contentsOf: Array("2E999999".utf8))
            return
        }
        if rest.count > 2 && rest.first == ASCII.zero && rest.dropFirst().first.map({ $0 | 0x20 }) == UInt8(ascii: "x")
        {
            return try writeHexadecimal(rest.dropFirst(2), negative: negative)
        }
        // Digits, an optional fraction (either side of the point may be empty, not both), an optional exponent.
        var integer = rest.startIndex
        while integer < rest.endIndex && ASCII.isDigit(rest[integer]) { integer += 1 }
        var fractionEnd = integer
        let hasPoint = integer < rest.endIndex && rest[integer] == ASCII.period
        if hasPoint {
            fractionEnd += 1
            while fractionEnd < rest.endIndex && ASCII.isDigit(rest[fractionEnd]) { fractionEnd += 1 }
        }
        let integerDigits = rest[rest.startIndex..<integer]
        let fractionDigits = hasPoint ? rest[(integer + 1)..<fractionEnd] : rest[integer..<integer]
        guard !integerDigits.isEmpty || !fractionDigits.isEmpty else {
            throw fail("invalid value \"\(wordText)\"", atWord: true)
        }
        guard integerDigits.count < 2 || integerDigits.first != ASCII.zero else {
            throw fail("a number with a leading zero (\"\(wordText)\")", atWord: true)
        }
        var exponent = ArraySlice<UInt8>()
        if fractionEnd < rest.endIndex {
            var cursor = fractionEnd
            guard rest[cursor] | 0x20 == ASCII.lowerE else {
                throw fail("invalid value \"\(wordText)\"", atWord: true)
            }
            cursor += 1
            if cursor < rest.endIndex && (rest[cursor] == ASCII.plus || rest[cursor] == ASCII.minus) { cursor += 1 }
            let digits = cursor
            while cursor < rest.endIndex && ASCII.isDigit(rest[cursor]) { cursor += 1 }
            guard cursor > digits && cursor == rest.endIndex else {
                throw fail("invalid number \"\(wordText)\"", atWord: true)
            }
            exponent = rest[(fractionEnd + 1)..<rest.endIndex]
        }
        if negative { output.append(ASCII.minus) }
        if integerDigits.isEmpty { output.append(ASCII.zero) } else { output.append(contentsOf: integerDigits) }
        if hasPoint {
            output.append(ASCII.period)
            if fractionDigits.isEmpty { output.append(ASCII.zero) } else { output.append(contentsOf: fractionDigits) }
        }
        if !exponent.isEmpty {
            output.append(ASCII.lowerE)
            output.append(contentsOf: exponent)
        }
    }

    private func writeHexadecimal(_ digits: ArraySlice<UInt8>, negative: Bool) throws {
        var value: UInt64 = 0
        var overflow = false
        for byte in digits {
            guard let digit = ASCII.hexValue(byte) else {
                throw fail("invalid hexadecimal number \"\(wordText)\"", atWord: true)
            }
            let (shifted, over) = value.multipliedReportingOverflow(by: 16)
            overflow = overflow || over
            value = shifted | UInt64(digit)
        }
        if overflow {
            output.append(contentsOf: Array("1e999999".utf8))
            return
        }
        // `-0x0` is 0: Foundation reads a hexadecimal number as an integer.
        if negative && value != 0 { output.append(ASCII.minus) }
        output.append(contentsOf: Array(String(value).utf8))
    }

    private func writeKey() throws {
        var scalars: [(scalar: Unicode.Scalar, escaped: Bool)] = []
        var index = 0
        while index < word.count {
            if word[index] == ASCII.backslash {
                let kind = index + 1 < word.count ? word[index + 1] : 0
                let length = kind == UInt8(ascii: "u") ? 4 : kind == UInt8(ascii: "x") ? 2 : 0
                guard length > 0, index + 2 + length <= word.count else {
                    throw fail("invalid escape in the unquoted key \"\(wordText)\"", atWord: true)
                }
                var value: UInt32 = 0
                for byte in word[(index + 2)..<(index + 2 + length)] {
                    guard let digit = ASCII.hexValue(byte) else {
                        throw fail("invalid escape in the unquoted key \"\(wordText)\"", atWord: true)
                    }
                    value = value << 4 | UInt32(digit)
                }
                guard value != 0, let scalar = Unicode.Scalar(value) else {
                    throw fail("invalid escape in the unquoted key \"\(wordText)\"", atWord: true)
                }
                scalars.append((scalar, true))
                index += 2 + length
                continue
            }
            // One scalar of UTF-8.
            let lead = word[index]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
            guard length > 0, index + length <= word.count,
                let decoded = String(validating: word[index..<(index + length)], as: UTF8.self)?.unicodeScalars,
                decoded.count == 1, let scalar = decoded.first
            else {
                throw fail("invalid UTF-8 in an unquoted key", atWord: true)
            }
            scalars.append((scalar, false))
            index += length
        }
        for (position, (scalar, _)) in scalars.enumerated() {
            // An escaped character obeys the same rule (`\u0031` can't start a key), as the specification says.
            let allowed =
                position == 0 ? scalar == "$" || scalar == "_" || Self.startsKey(scalar) : Self.continuesKey(scalar)
            guard allowed else {
                throw fail("\"\(scalar)\" is not allowed in an unquoted key", atWord: true)
            }
        }
        output.append(ASCII.quote)
        for (scalar, escaped) in scalars {
            if escaped {
                // JSON's own escape, two for a scalar past the Basic Multilingual Plane.
                for unit in String(scalar).utf16 { appendEscape(unit) }
            } else {
                output.append(contentsOf: Array(String(scalar).utf8))
            }
        }
        output.append(ASCII.quote)
    }

    private static func startsKey(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber:
            true
        default:
            false
        }
    }

    private static func continuesKey(_ scalar: Unicode.Scalar) -> Bool {
        if startsKey(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation:
            return true
        default:
            return scalar == "$" || scalar == "_" || scalar == "\u{200C}" || scalar == "\u{200D}"
        }
    }

    /// JSON's `\u` escape of a UTF-16 code unit, its digits in lower case.
    private func appendEscape(_ unit: UInt16) {
        output.append(contentsOf: [ASCII.backslash, UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8((unit >> UInt16(shift)) & 0xF)
            output.append(digit < 10 ? ASCII.zero + digit : UInt8(ascii: "a") + digit - 10)
        }
    }

    // MARK: - Special numbers

    /// `Infinity`, `-Infinity` or `NaN` as this stage writes them; `nil` for any other number text.
    static func special(_ text: UnsafeRawBufferPointer) -> Double? {
        guard text.count >= 8, text.count <= 9, text[text.count - 7] == ASCII.upperE else { return nil }
        switch String(decoding: text, as: UTF8.self) {
        case "1E999999": return .infinity
        case "-1E999999": return -.infinity
        case "2E999999": return .nan
        default: return nil
        }
    }

    /// JSON5's spelling of a special number this stage wrote (`+Infinity` is `Infinity`; `±NaN` is `NaN`); else `nil`.
    static func spelling(_ text: UnsafeRawBufferPointer) -> String? {
        guard let value = special(text) else { return nil }
        return value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity"
    }
}

extension DecodingOptions {
    /// A number token's text as users see it: with ``allowsJSON5``, `NaN` and `±Infinity`, not this stage's texts.
    @inline(__always)
    func numberText(_ text: UnsafeRawBufferPointer) -> String {
        if allowsJSON5, let spelling = JSON5Text.spelling(text) { return spelling }
        return String(jsonBytes: text)
    }
}
