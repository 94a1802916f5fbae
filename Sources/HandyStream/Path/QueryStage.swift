/// The part of a JSONPath query a stream can't follow alone (its tail), between the path filter and the builder: the
/// path filter hands it each candidate as events (the document itself when a filter reads `$`), and it replays the
/// events of the nodes the query selects into the builder, as one array of them or, in stream mode, one by one. How
/// much of a candidate it holds is each kind's own: ``HeldQueryStage`` holds the candidate, ``DescendantStage`` the
/// matches of a `..` segment.
class QueryStage: TokenSink {
    let tail: [JSONPath.Segment]
    let run: DecodingRun
    private let next: Builder
    private let text: String
    /// One value is decoded (not a stream of them).
    private let single: Bool
    /// Single mode: the path filter wraps every candidate in one array of its own, passed through to the builder.
    private let collected: Bool
    /// Single mode, no array of the path filter's: this stage makes the nodelist's array, for each candidate.
    private let wraps: Bool
    /// A singular query decoded as one value: exactly one node must be selected.
    let needsOneNode: Bool
    /// Stream mode: resumed when a candidate's nodes are all replayed. Unretained: the pipeline owns both.
    unowned(unsafe) var filter: PathFilter?
    /// The most values held at once (what the streaming bounds are tested by).
    var peakHeld = 0
    /// Single mode: whether the path filter's array of candidates is open.
    private var inCollection = false
    /// Whether this candidate's nodelist array was opened.
    private var opened = false

    /// The stage for `path`'s tail, if it has one.
    static func make(path: DesignatedPath, next: Builder, run: DecodingRun, single: Bool) -> QueryStage? {
        switch path.tailStart {
        case nil: nil
        case .descendants: DescendantStage(path: path, next: next, run: run, single: single)
        case .children, .node: HeldQueryStage(path: path, next: next, run: run, single: single)
        }
    }

    init(path: DesignatedPath, next: Builder, run: DecodingRun, single: Bool) {
        tail = path.tail
        text = path.text
        self.next = next
        self.run = run
        self.single = single
        collected = single && path.firstWildcard != nil
        wraps = single && path.firstWildcard == nil && !path.isSingular
        needsOneNode = single && path.isSingular
    }

    /// Whether no candidate is being read: only then can the path filter's array of candidates start or end.
    var betweenCandidates: Bool { true }

    override func tokenStartArray() -> Bool {
        guard collected, !inCollection, betweenCandidates else { return candidateStartsArray() }
        inCollection = true
        return next.tokenStartArray()
    }

    override func tokenEndArray() -> Bool {
        guard collected, inCollection, betweenCandidates else { return candidateEndsArray() }
        inCollection = false
        return next.tokenEndArray()
    }

    func candidateStartsArray() -> Bool { preconditionFailure("QueryStage: an array is someone's") }
    func candidateEndsArray() -> Bool { preconditionFailure("QueryStage: an array is someone's") }

    /// A selected node, from `value` the node `rest` (the segments still to apply) starts from.
    func emit(_ value: JSONValue, rest: ArraySlice<JSONPath.Segment> = []) -> Bool {
        if wraps && !opened {
            opened = true
            guard next.tokenStartArray() else { return false }
        }
        if rest.isEmpty { return Self.replay(value, into: next) }
        var context = JSONPathContext(root: value)
        for node in context.apply(Array(rest), to: [JSONPath.Node(location: [], value: value)]) {
            guard Self.replay(node.value, into: next) else { return false }
        }
        return true
    }

    /// The candidate's nodes are all out: the nodelist's array closes, or the path filter reads on.
    func candidateDone() -> Bool {
        if wraps {
            if !opened { guard next.tokenStartArray() else { return false } }
            opened = false
            return next.tokenEndArray()
        }
        if !single { filter?.resume() }
        return true
    }

    /// A singular query's one node, which must be there.
    func emitOnly(_ node: JSONValue?) -> Bool {
        guard let node else {
            return run.fail(
                BuildFailure(
                    kind: .pathNotFound, message: "path '\(text)' not found: the query selects no node",
                    path: run.valuePath))
        }
        return Self.replay(node, into: next)
    }

    func tooDeep() -> Bool {
        run.fail(
            BuildFailure(
                kind: .tooDeep, message: "nesting deeper than \(run.maximumDepth) levels", path: run.valuePath))
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

/// Holds each candidate whole, as a `JSONValue`, and applies the tail to it when it ends: a filter's candidates (each
/// child of the nodes the leading part selects), one at a time, or each node the leading part selects. An array
/// tested only from its end (`[-3:]`, `[-1]`) is held as its last elements.
final class HeldQueryStage: QueryStage {
    private let takesChildren: Bool
    /// A candidate array is held as at most this many last elements: all the tail's first segment can select.
    private let keepsLast: Int?

    override init(path: DesignatedPath, next: Builder, run: DecodingRun, single: Bool) {
        takesChildren = path.tailStart == .children
        keepsLast = path.tailStart == .children ? nil : Self.lastElementsNeeded(by: path.tail)
        super.init(path: path, next: next, run: run, single: single)
    }

    private enum Open {
        case array([JSONValue])
        case object([JSONValue.Member], key: String)
    }
    /// The candidate's open containers, outermost first.
    private var open: [Open] = []

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

    override var betweenCandidates: Bool { open.isEmpty }

    override func candidateStartsArray() -> Bool {
        guard open.count < run.depthAllowance else { return tooDeep() }
        open.append(.array([]))
        return true
    }

    override func tokenEndMap() -> Bool {
        guard case .object(let members, _)? = open.popLast() else { return false }
        return add(.object(members))
    }

    override func candidateEndsArray() -> Bool {
        guard case .array(let elements)? = open.popLast() else { return false }
        return add(.array(elements))
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
        if needsOneNode { return emitOnly(nodes.first?.value) }
        for node in nodes {
            guard emit(node.value) else { return false }
        }
        return candidateDone()
    }
}
