/// Drops a comma that ends an array or an object (`[1, 2,]`, `{"a": 1,}`; not `[,]`), for
/// ``DecodingOptions/allowsTrailingCommas``: Foundation's `JSONDecoder` accepts them, RFC 8259 and yajl do not. A
/// comma outside strings is held back with the white space after it until the next byte says whether it ends a
/// container; strings pass untouched, across any chunk split. Offsets in errors count the filtered text.
///
/// `impliedObject`, for ``DecodingOptions/assumesTopLevelDictionary`` as Foundation's `JSONDecoder` reads a document
/// that is an object's members without braces (`"a": 1, "b": 2`): when the first byte past white space isn't `{`, the
/// stage writes braces around the text (only white space is `{}`), and the end closes the object after a comma or not.
/// With JSON5, ``JSON5Text`` does this itself, since it must know that a key comes first.
final class TrailingCommas: TextStage {
    private var inString = false
    private var escaped = false
    /// A comma outside a string, held back, and the white space after it.
    private var heldComma = false
    private var heldSpace: [UInt8] = []
    /// The last byte outside strings that is not white space: a comma right after `[` or `{` trails nothing.
    private var lastSignificant: UInt8 = 0
    private var output: [UInt8] = []
    private let impliedObject: Bool
    /// Whether the first byte past white space was met, and whether it wasn't `{`.
    private var decided = false
    private var implied = false

    init(impliedObject: Bool = false) { self.impliedObject = impliedObject }

    func rewrite(
        _ chunk: UnsafeRawBufferPointer, isLast: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        output.removeAll(keepingCapacity: true)
        if impliedObject && !decided, let first = chunk.firstIndex(where: { !ASCII.isJSONSpace($0) }) {
            decided = true
            implied = chunk[first] != UInt8(ascii: "{")
            if implied { consume(UInt8(ascii: "{")) }
        }
        for byte in chunk { consume(byte) }
        if isLast && impliedObject && (implied || !decided) {
            if !decided { consume(UInt8(ascii: "{")) }
            consume(UInt8(ascii: "}"))
        }
        if isLast && heldComma {
            // A comma at the very end is not trailing anything: the tokenizer reports it.
            output.append(ASCII.comma)
            output.append(contentsOf: heldSpace)
            heldComma = false
            heldSpace.removeAll()
        }
        try output.withUnsafeBytes { try body($0) }
    }

    @inline(__always)
    private func consume(_ byte: UInt8) {
        if inString {
            output.append(byte)
            if escaped {
                escaped = false
            } else if byte == ASCII.backslash {
                escaped = true
            } else if byte == ASCII.quote {
                inString = false
            }
            return
        }
        if heldComma {
            switch byte {
            case _ where ASCII.isJSONSpace(byte):
                heldSpace.append(byte)
                return
            case ASCII.closeBracket, ASCII.closeBrace:
                break
            default:
                output.append(ASCII.comma)
            }
            heldComma = false
            output.append(contentsOf: heldSpace)
            heldSpace.removeAll(keepingCapacity: true)
        }
        switch byte {
        case ASCII.comma where lastSignificant != UInt8(ascii: "[") && lastSignificant != UInt8(ascii: "{"):
            heldComma = true
            lastSignificant = byte
            return
        case ASCII.quote:
            inString = true
        default:
            break
        }
        if !ASCII.isJSONSpace(byte) {
            lastSignificant = byte
        }
        output.append(byte)
    }
}
