/// The part of a JSONPath query a stream can't follow alone (its tail), between the path filter and the builder. The
/// path filter hands it each candidate as events: each child of a node the streamed segments select when the tail
/// starts with a filter, or else each such node whole (the document itself when a filter reads `$`). It holds that one
/// candidate as a `JSONValue`, applies the tail, replays the selected nodes' events into the builder, and lets the
/// candidate go. An array tested only from its end (`[-3:]`, `[-1]`) is held as its last elements.
final class QueryStage: TokenSink {
    private let tail: [JSONPath.Segment]
    private let takesChildren: Bool
    private let next: Builder
    private let run: DecodingRun
    private let text: String
    /// One value is decoded (not a stream of them).
    private let single: Bool
    /// Single mode: the path filter wraps every candidate in one array of its own, passed through to the builder.
    private let collected: Bool
    /// A singular query decoded as one value: exactly one node must be selected.
    private let needsOneNode: Bool
    /// A candidate array is held as at most this many last elements: all the tail's first segment can select.
    private let keepsLast: Int?
    /// Stream mode: resumed when a candidate's nodes are all replayed. Unretained: the pipeline owns both.
    unowned(unsafe) var filter: PathFilter?
    /// The most children the held candidate had at once (what the streaming bounds are tested by).
    private(set) var peakHeld = 0

    private enum Open {
        case array([JSONValue])
        case object([JSONValue.Member], key: String)
    }
    /// The candidate's open containers, outermost first.
    private var open: [Open] = []
    /// Single mode: whether the path filter's array of candidates is open.
    private var inCollection = false

    init(path: DesignatedPath, next: Builder, run: DecodingRun, single: Bool) {
        tail = path.tail
        takesChildren = path.tailTakesChildren
        text = path.text
        self.next = next
        self.run = run
        self.single = single
        collected = single && path.firstWildcard != nil
        needsOneNode = single && path.isSingular
        keepsLast = path.tailTakesChildren ? nil : Self.lastElementsNeeded(by: path.tail)
    }

    /// How many last elements of an array hold everything the tail's first segment can select from it, when that is
    /// only indices counted from the end and forward slices starting there; `nil` otherwise.
    private static func lastElementsNeeded(by tail: [JSONPath.Segment]) -> Int? {
        guard let first = tail.first, !first.isDescendant else { return nil }
        // A filter reading `$` reads the held document, which must then be whole.
        let readsRoot = tail.contains { segment in
            segment.selectors.contains { if case .filter(let filter) = $0 { filter.readsRoot } else { false } }
        }
        guard !readsRoot else { return nil }
        var needed = 0
        for selector in first.selectors {
            switch selector {
            case .index(let index) where index < 0:
                needed = max(needed, index < -(Int.max / 2) ? Int.max / 2 : -index)
            case .slice(let start?, let end, let step) where start < 0 && (end ?? -1) < 0 && (step ?? 1) > 0:
                needed = max(needed, start < -(Int.max / 2) ? Int.max / 2 : -start)
            default:
                return nil
            }
        }
        return needed
    }

    override func tokenNull() -> Bool { add(.null) }
    override func tokenBool(_ value: Bool) -> Bool { add(.bool(value)) }
    override func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool {
        add(.number(String(decoding: text, as: UTF8.self)))
    }
    override func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool {
        add(.string(String(decoding: bytes, as: UTF8.self)))
    }

    override func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard case .object(let members, _)? = open.last else { return false }
        open[open.count - 1] = .object(members, key: String(decoding: bytes, as: UTF8.self))
        return true
    }

    override func tokenStartMap() -> Bool {
        guard open.count < run.depthAllowance else { return tooDeep() }
        open.append(.object([], key: ""))
        return true
    }

    override func tokenStartArray() -> Bool {
        if collected && !inCollection && open.isEmpty {
            inCollection = true
            return next.tokenStartArray()
        }
        guard open.count < run.depthAllowance else { return tooDeep() }
        open.append(.array([]))
        return true
    }

    override func tokenEndMap() -> Bool {
        guard case .object(let members, _)? = open.popLast() else { return false }
        return add(.object(members))
    }

    override func tokenEndArray() -> Bool {
        if open.isEmpty && collected && inCollection {
            inCollection = false
            return next.tokenEndArray()
        }
        guard case .array(let elements)? = open.popLast() else { return false }
        return add(.array(elements))
    }

    private func tooDeep() -> Bool {
        run.fail(
            BuildFailure(
                kind: .tooDeep, message: "nesting deeper than \(run.maximumDepth) levels", path: run.valuePath))
    }

    /// A completed value: into the container it sits in, or, if it is a whole candidate, through the query's tail.
    private func add(_ value: JSONValue) -> Bool {
        switch open.last {
        case .array(var elements)?:
            open[open.count - 1] = .array([])
            elements.append(value)
            if open.count == 1 {
                // Dropped in batches, so that each element is moved a constant number of times.
                if let keep = keepsLast, elements.count >= max(2 * keep, 16) {
                    elements.removeFirst(elements.count - keep)
                }
                peakHeld = max(peakHeld, elements.count)
            }
            open[open.count - 1] = .array(elements)
            return true
        case .object(var members, let key)?:
            open[open.count - 1] = .object([], key: key)
            members.append(JSONValue.Member(key: key, value: value))
            if open.count == 1 { peakHeld = max(peakHeld, members.count) }
            open[open.count - 1] = .object(members, key: key)
            return true
        case nil:
            return candidateEnded(value)
        }
    }

    private func candidateEnded(_ held: JSONValue) -> Bool {
        var candidate = held
        if let keep = keepsLast, case .array(let elements) = held, elements.count > keep {
            candidate = .array(Array(elements.suffix(keep)))
        }
        var context = JSONPathContext(root: candidate)
        // A filter's segment applies to the candidate as one child of its node: a one-element array stands for it.
        let start = takesChildren ? JSONValue.array([candidate]) : candidate
        let nodes = context.apply(tail, to: [JSONPath.Node(location: [], value: start)])
        if needsOneNode {
            guard let node = nodes.first else {
                return run.fail(
                    BuildFailure(
                        kind: .pathNotFound, message: "path '\(text)' not found: the query selects no node",
                        path: run.valuePath))
            }
            return Self.replay(node.value, into: next)
        }
        let wraps = single && !collected
        guard !wraps || next.tokenStartArray() else { return false }
        for node in nodes {
            guard Self.replay(node.value, into: next) else { return false }
        }
        guard !wraps || next.tokenEndArray() else { return false }
        if !single { filter?.resume() }
        return true
    }

    /// A value's events, as the tokenizer would send them.
    private static func replay(_ value: JSONValue, into sink: TokenSink) -> Bool {
        switch value {
        case .null: return sink.tokenNull()
        case .bool(let truth): return sink.tokenBool(truth)
        case .number(var text): return text.withUTF8 { sink.tokenNumber(UnsafeRawBufferPointer($0)) }
        case .string(var text): return text.withUTF8 { sink.tokenString(UnsafeRawBufferPointer($0)) }
        case .array(let elements):
            guard sink.tokenStartArray() else { return false }
            for element in elements where !replay(element, into: sink) { return false }
            return sink.tokenEndArray()
        case .object(let members):
            guard sink.tokenStartMap() else { return false }
            for member in members {
                var key = member.key
                guard key.withUTF8({ sink.tokenKey(UnsafeRawBufferPointer($0)) }), replay(member.value, into: sink)
                else { return false }
            }
            return sink.tokenEndMap()
        }
    }
}
