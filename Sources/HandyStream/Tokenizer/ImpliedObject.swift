/// A document that is an object's members without braces (`"a": 1, "b": 2`), for
/// ``DecodingOptions/assumesTopLevelDictionary`` as Foundation's `JSONDecoder` reads it: when the first byte past
/// white space isn't `{`, the stage writes braces around the text (only white space is `{}`). With JSON5,
/// ``JSON5Text`` does this itself, since it must know that a key comes first.
final class ImpliedObject: TextStage {
    private var decided = false
    private var implied = false
    private var output: [UInt8] = []

    func rewrite(
        _ chunk: UnsafeRawBufferPointer, isLast: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        output.removeAll(keepingCapacity: true)
        if !decided, let first = chunk.firstIndex(where: { !ASCII.isJSONSpace($0) }) {
            decided = true
            implied = chunk[first] != UInt8(ascii: "{")
            if implied { output.append(UInt8(ascii: "{")) }
        }
        output.append(contentsOf: chunk)
        if isLast && (implied || !decided) {
            if !decided { output.append(UInt8(ascii: "{")) }
            output.append(UInt8(ascii: "}"))
        }
        try output.withUnsafeBytes { try body($0) }
    }
}
