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
    /// A query that selects at most one node (names and indices only, RFC 9535's singular query): decoded as one value,
    /// which must exist. Any other query gives a nodelist, empty when nothing matches.
    private(set) var isSingular = true
    /// A query's segments from the first one a stream can't follow alone, applied by a ``QueryStage``.
    private(set) var tail: [JSONPath.Segment] = []
    /// What the tail starts from: `nil` without a tail.
    private(set) var tailStart: TailStart?

    enum TailStart: Equatable {
        /// Each child of a node the segments select: a filter's candidates, each held alone.
        case children
        /// A `..` segment of names and indices from the start, followed as the nodes arrive.
        case descendants
        /// Each node the segments select, held whole.
        case node
    }

    /// A path that is `$`, or begins with `$.`, `$[` or `$` and blank space, is a JSONPath query; HandyJSON's dot
    /// paths otherwise.
    init(parsing text: String) throws(JSONDecodingError) {
        // `$`, `$.a`, `$[0]`, `$..a`: HandyJSON's paths may start with a `$` key (`$oid.x`), which stays a key.
        guard text.first == "$", text.dropFirst().first.map({ ".[ \t\n\r".contains($0) }) ?? true else {
            try self.init(text, keysOnly: false)
            return
        }
        let query = try JSONPath(parsing: text).segments
        var segments: [Segment] = []
        for (position, segment) in query.enumerated() {
            // What the path filter follows alone: one name, index from the start or `*` in a child segment.
            if !segment.isDescendant, segment.selectors.count == 1, let step = Self.step(segment.selectors[0]) {
                segments.append(step)
                continue
            }
            var tail = Array(query[position...])
            var start = TailStart.node
            if tail.contains(where: \.readsRoot) {
                // A filter that reads `$` needs the whole document: it is held, and the whole query applied to it.
                segments = []
                tail = query
            } else if !segment.isDescendant, segment.selectors.count == 1, case .filter = segment.selectors[0] {
                // The filter's candidates are streamed as `*` matches, one held at a time.
                segments.append(.everyChild)
                start = .children
            } else if segment.isDescendant, segment.selectors.allSatisfy({ $0 != .wildcard && Self.step($0) != nil }) {
                start = .descendants
            }
            self.init(query: text, query, segments, tail: tail, start: start)
            return
        }
        self.init(query: text, query, segments, tail: [], start: nil)
    }

    private init(
        query text: String, _ query: [JSONPath.Segment], _ segments: [Segment], tail: [JSONPath.Segment],
        start: TailStart?
    ) {
        self.text = text
        self.segments = segments
        self.tail = tail
        tailStart = start
        isQuery = true
        isSingular = JSONPath.Query(isRelative: false, segments: query).isSingular
    }

    /// A name, an index from the start or `*`: a child known as soon as it starts.
    static func step(_ selector: JSONPath.Selector) -> Segment? {
        switch selector {
        case .name(let name): .key(Array(name.utf8))
        case .index(let index) where index >= 0: .index(index)
        case .wildcard: .everyChild
        default: nil
        }
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

    /// For element streaming: `data.items` streams as `data.items[*]`; a wildcard path, or a query whose tail selects
    /// the nodes, already says what it streams.
    func streamingElements() -> DesignatedPath {
        guard firstWildcard == nil, tail.isEmpty else { return self }
        var path = self
        path.segments.append(.everyElement)
        return path
    }

    var isEmpty: Bool { segments.isEmpty }

    /// The path from segment `start` on, which applies to each element of the array the segments before it reach,
    /// read as an array of its own (one span of a large array, split across threads). `eachElement`: the segments
    /// end there and a `..` of names follows, which gives what it gives from each element in turn.
    func fromSegment(_ start: Int, eachElement: Bool = false) -> DesignatedPath {
        var path = self
        path.segments.removeFirst(start)
        if eachElement { path.segments.insert(.everyChild, at: 0) }
        path.isSingular = false
        return path
    }

    var description: String { text }

    /// The JSON path of the segments: `$.data.items[3]`.
    var jsonPath: String {
        var path = "$"
        for segment in segments {
            switch segment {
            case .key(let key): path += "." + String(decoding: key, as: UTF8.self)
            case .index(let index): path += "[\(index)]"
            case .everyElement, .everyChild: path += "[*]"
            case .everyMember: path += ".*"
            }
        }
        return path
    }
}
