/// Where in a document the values to decode sit: keys separated by `.` (`data.cat`), indices in brackets
/// (`list[3].name`), `[*]` for every element of an array and `*` for every member of an object, anywhere
/// (`statuses[*].user`, `rates.*`). A backslash makes the next character literal (`a\.b`, `\[`, `\*`). Empty segments
/// are ignored, as HandyJSON ignores them; the empty path is the whole document. Without wildcards a path designates
/// one value, the first occurrence of each key on the way; with wildcards, every match, in document order.
struct DesignatedPath: Equatable, CustomStringConvertible {
    enum Segment: Equatable {
        case key([UInt8])
        case index(Int)
        case everyElement
        case everyMember
        /// JSONPath's `*`: every element of an array or member of an object.
        case everyChild
    }

    var segments: [Segment]
    let text: String
    /// An RFC 9535 query: a part missing from the document, or of another shape, is no match rather than an error.
    private(set) var isQuery = false
    /// A query's segments from its first filter on, applied by a ``QueryStage`` to each candidate the path selects.
    private(set) var tail: [JSONPath.Segment] = []

    /// A path that begins with `$` is a JSONPath query; HandyJSON's dot paths otherwise.
    init(parsing text: String) throws(JSONDecodingError) {
        guard text.first == "$" else {
            try self.init(text, keysOnly: false)
            return
        }
        var segments: [Segment] = []
        let query = try JSONPath(parsing: text).segments
        for (position, segment) in query.enumerated() {
            if Self.startsTail(segment) {
                // Every filter after it is evaluated on one candidate too: none may read the document's root.
                guard !query[position...].contains(where: Self.readsRoot) else { throw Self.notYetStreamed(text) }
                // The filter's candidates are streamed as `*` matches; the stage after the filter does the rest.
                segments.append(.everyChild)
                self.init(text: text, segments: segments, tail: Array(query[position...]))
                return
            }
            guard !segment.isDescendant, segment.selectors.count == 1 else { throw Self.notYetStreamed(text) }
            switch segment.selectors[0] {
            case .name(let name): segments.append(.key(Array(name.utf8)))
            case .index(let index) where index >= 0: segments.append(.index(index))
            case .wildcard: segments.append(.everyChild)
            default: throw Self.notYetStreamed(text)
            }
        }
        self.init(text: text, segments: segments, tail: [])
    }

    private init(text: String, segments: [Segment], tail: [JSONPath.Segment]) {
        self.text = text
        self.segments = segments
        self.tail = tail
        isQuery = true
    }

    private static func readsRoot(_ segment: JSONPath.Segment) -> Bool {
        segment.selectors.contains { if case .filter(let filter) = $0 { filter.readsRoot } else { false } }
    }

    /// A child segment with one filter that asks nothing of the document's root: its candidates can be held one at a
    /// time.
    private static func startsTail(_ segment: JSONPath.Segment) -> Bool {
        guard !segment.isDescendant, segment.selectors.count == 1, case .filter(let filter) = segment.selectors[0]
        else { return false }
        return !filter.readsRoot
    }

    private static func notYetStreamed(_ text: String) -> JSONDecodingError {
        JSONDecodingError(
            .invalidPath,
            "JSONPath '\(text)' is valid but not yet read on a stream: only names, indices from the start and '*', "
                + "one per segment, then filters that do not read '$', are")
    }

    /// The segments of a mapped key (`<--`): keys only, `\.` a literal dot, a trailing backslash itself (a mapping
    /// can't refuse a key); empty segments dropped, so a key with none never matches.
    static func mappedKey(_ text: String) -> [[UInt8]] {
        // Can't throw: keys-only parsing refuses nothing.
        guard let path = try? DesignatedPath(text, keysOnly: true) else { return [] }
        return path.segments.map {
            guard case .key(let bytes) = $0 else { preconditionFailure("DesignatedPath: a mapped key with an index") }
            return bytes
        }
    }

    private init(_ text: String, keysOnly: Bool) throws(JSONDecodingError) {
        self.text = text
        var segments: [Segment] = []
        var key: [UInt8] = []
        var hasKey = false
        var escapedStar = false
        var bytes = Array(text.utf8)[...]
        func endKey() {
            if hasKey && !key.isEmpty {
                segments.append(key == [UInt8(ascii: "*")] && !escapedStar && !keysOnly ? .everyMember : .key(key))
            }
            key = []
            hasKey = false
            escapedStar = false
        }
        while let byte = bytes.popFirst() {
            switch byte {
            case ASCII.backslash:
                guard let literal = bytes.popFirst() else {
                    if keysOnly {
                        key.append(byte)
                        hasKey = true
                        break
                    }
                    throw Self.invalid(text, "it ends with a lone backslash")
                }
                if literal == UInt8(ascii: "*") { escapedStar = true }
                key.append(literal)
                hasKey = true
            case UInt8(ascii: "."):
                endKey()
            case UInt8(ascii: "[") where !keysOnly:
                endKey()
                guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else {
                    throw Self.invalid(text, "a '[' is not closed")
                }
                let inside = bytes[bytes.startIndex..<close]
                bytes = bytes[(close + 1)...]
                if inside.elementsEqual("*".utf8) {
                    segments.append(.everyElement)
                } else if !inside.isEmpty, inside.count <= 18, inside.allSatisfy(ASCII.isDigit) {
                    segments.append(.index(inside.reduce(0) { $0 * 10 + Int($1 &- ASCII.zero) }))
                } else {
                    throw Self.invalid(
                        text,
                        "'[\(String(decoding: inside, as: UTF8.self))]' is "
                            + "neither an index nor [*]; write \\[ for a key containing '['")
                }
            default:
                key.append(byte)
                hasKey = true
            }
        }
        endKey()
        self.segments = segments
    }

    private static func invalid(_ text: String, _ reason: String) -> JSONDecodingError {
        JSONDecodingError(.invalidPath, "invalid path '\(text)': \(reason)")
    }

    var firstWildcard: Int? {
        segments.firstIndex { $0 == .everyElement || $0 == .everyMember || $0 == .everyChild }
    }

    /// For element streaming: `data.items` streams as `data.items[*]`; a wildcard path already says what it streams.
    func streamingElements() -> DesignatedPath {
        guard firstWildcard == nil else { return self }
        var path = self
        path.segments.append(.everyElement)
        return path
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
            case .everyMember: path += ".*"
            case .everyChild: path += "[*]"
            }
        }
        return path
    }
}
