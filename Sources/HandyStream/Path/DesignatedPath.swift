/// A designated path: where in a document the value to decode sits.
///
/// Syntax: keys separated by `.` (`data.cat`), array indices in brackets (`list[3].name`), and `[*]` for "every
/// element" (at the end of a path, `data.items[*]` means the same array as `data.items`). A backslash makes the next
/// character literal (`a\.b` is the single key `a.b`, `\[` a key containing a bracket). Empty segments are ignored,
/// as HandyJSON ignores them: `data..cat` and `.data.cat` mean `data.cat`; the empty path is the whole document.
struct DesignatedPath: Equatable, CustomStringConvertible {
    enum Segment: Equatable {
        case key([UInt8])
        case index(Int)
        case everyElement
    }

    var segments: [Segment]
    let text: String

    init(parsing text: String) throws(InvalidPathError) {
        self.text = text
        var segments: [Segment] = []
        var key: [UInt8] = []
        var hasKey = false
        var bytes = Array(text.utf8)[...]
        func endKey() {
            if hasKey && !key.isEmpty { segments.append(.key(key)) }
            key = []
            hasKey = false
        }
        while let byte = bytes.popFirst() {
            switch byte {
            case ASCII.backslash:
                guard let literal = bytes.popFirst() else {
                    throw InvalidPathError(path: text, reason: "it ends with a lone backslash")
                }
                key.append(literal)
                hasKey = true
            case UInt8(ascii: "."):
                endKey()
            case UInt8(ascii: "["):
                endKey()
                guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else {
                    throw InvalidPathError(path: text, reason: "a '[' is not closed")
                }
                let inside = bytes[bytes.startIndex..<close]
                bytes = bytes[(close + 1)...]
                if inside.elementsEqual("*".utf8) {
                    segments.append(.everyElement)
                } else if !inside.isEmpty, inside.count <= 18, inside.allSatisfy(ASCII.isDigit) {
                    segments.append(.index(inside.reduce(0) { $0 * 10 + Int($1 &- ASCII.zero) }))
                } else {
                    throw InvalidPathError(path: text, reason: "'[\(String(decoding: inside, as: UTF8.self))]' is neither "
                        + "an index nor [*]; write \\[ for a key containing '['")
                }
            default:
                key.append(byte)
                hasKey = true
            }
        }
        endKey()
        // At the end, one "every element" designates the array itself.
        if segments.last == .everyElement { segments.removeLast() }
        if segments.contains(.everyElement) {
            throw InvalidPathError(path: text, reason: "[*] can only end a path, once")
        }
        self.segments = segments
    }

    var isEmpty: Bool { segments.isEmpty }

    var description: String { text }

    /// The JSON path of the first `count` segments: `$.data.items[3]`.
    func jsonPath(prefix count: Int) -> String {
        var path = "$"
        for segment in segments.prefix(count) {
            switch segment {
            case .key(let key): path += "." + String(decoding: key, as: UTF8.self)
            case .index(let index): path += "[\(index)]"
            case .everyElement: path += "[*]"
            }
        }
        return path
    }
}
