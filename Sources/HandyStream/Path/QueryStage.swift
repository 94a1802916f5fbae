/// The part of a JSONPath query a stream can't follow alone (its tail), between the path filter and the builder: the
/// path filter hands it each candidate as events (the document itself when a filter reads `$`), and it replays the
/// events of the nodes the query selects into the builder: one by one in stream mode, or into one array, its own or,
/// after a wildcard, the path filter's (whose brackets go to the builder straight). How much of a candidate it holds is
/// each kind's own: ``HeldQueryStage`` holds the candidate, ``DescendantStage`` the matches of a `..` segment.
class QueryStage: TokenSink {
    let tail: [JSONPath.Segment]
    let run: DecodingRun
    private let next: Builder
    private let text: String
    /// One value is decoded (not a stream of them).
    private let single: Bool
    /// Single mode, no array of the path filter's: this stage makes the nodelist's array, for each candidate.
    private let wraps: Bool
    /// A singular query decoded as one value: exactly one node must be selected.
    let needsOneNode: Bool
    /// Stream mode: resumed when a candidate's nodes are all replayed. Unretained: the pipeline owns both.
    unowned(unsafe) var filter: PathFilter?
    /// The most values held at once (what the streaming bounds are tested by).
    var peakHeld = 0
    /// Whether this candidate's nodelist array was opened.
    private var opened = false
    /// The tail's evaluation, its regular expressions compiled once for every candidate.
    var context = JSONPathContext(root: .null)

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
        wraps = single && path.firstWildcard == nil && !path.isSingular
        needsOneNode = single && path.isSingular
        super.init()
    }

    /// Whether no candidate is being read: only then may the pipeline split the array being read across threads.
    var betweenCandidates: Bool { true }

    /// A selected node at `location`, or, when `rest` (the segments still to apply) is not empty, the node they
    /// start from.
    func emit(_ value: JSONValue, at location: [JSONPath.Step], rest: [JSONPath.Segment] = []) -> Bool {
        if wraps && !opened {
            opened = true
            guard next.tokenStartArray() else { return false }
        }
        if rest.isEmpty {
            run.record(location)
            return Self.replay(value, into: next)
        }
        context.root = value
        context.tracksLocations = run.recordsLocations
        for node in context.apply(rest, to: [JSONPath.Node(location: location, value: value)]) {
            run.record(node.location)
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
    func emitOnly(_ node: JSONPath.Node?) -> Bool {
        guard let node else {
            return run.fail(
                BuildFailure(
                    kind: .pathNotFound, message: "path '\(text)' not found: the query selects no node",
                    path: run.valuePath))
        }
        return emit(node.value, at: node.location)
    }

    func tooDeep() -> Bool { run.tooDeep(at: run.valuePath) }

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
    /// A filter's candidates: the filter, and the segments after its own.
    private let test: JSONPath.Expression?
    private let afterFilter: [JSONPath.Segment]
    /// A candidate array is held as at most this many last elements: all the tail's first segment can select.
    private let keepsLast: Int?

    /// The candidate being read. Unchecked: each event makes one call that mutates it and calls nothing back, so two
    /// accesses never overlap.
    @exclusivity(unchecked) private var assembly: CandidateAssembly

    override init(path: DesignatedPath, next: Builder, run: DecodingRun, single: Bool) {
        let tail = path.tail
        if path.tailStart == .children, case .filter(let filter) = tail[0].selectors[0] {
            test = filter
        } else {
            test = nil
        }
        afterFilter = Array(tail.dropFirst())
        keepsLast = test != nil ? nil : Self.lastElementsNeeded(by: path.tail)
        // Only the members the tail reads of a filter's candidate, or of an element counted from the end, are built.
        if let test, tail.count > 1, let tested = Self.membersRead(by: test), let taken = Self.names(of: tail[1]) {
            // A member read only by `length` is built as its count of elements, each `null`.
            let lengths = Self.lengthArguments(in: test)
            let counted = Set(lengths).filter { name in
                !taken.contains(name) && tested.filter { $0 == name }.count == lengths.filter { $0 == name }.count
            }
            assembly = CandidateAssembly(
                readMembers: (tested + taken).map { Array($0.utf8) }, countedMembers: counted.map { Array($0.utf8) },
                projectionDepth: 1, keepsLast: nil)
        } else if let keepsLast, tail.count > 1, let taken = Self.names(of: tail[1]) {
            assembly = CandidateAssembly(
                readMembers: taken.map { Array($0.utf8) }, countedMembers: [], projectionDepth: 2, keepsLast: keepsLast)
        } else {
            assembly = CandidateAssembly(readMembers: nil, countedMembers: [], projectionDepth: 0, keepsLast: keepsLast)
        }
        super.init(path: path, next: next, run: run, single: single)
    }

    /// The names a child segment of names only selects.
    private static func names(of segment: JSONPath.Segment) -> [String]? {
        let names = segment.selectors.compactMap { if case .name(let name) = $0 { name } else { nil } }
        return segment.isDescendant || names.count < segment.selectors.count ? nil : names
    }

    /// The members of `@` a filter reads, when it reads `@` only through them (`@.price`, `length(@.tags)`).
    private static func membersRead(by expression: JSONPath.Expression) -> [String]? {
        var all: [String] = []
        for case .query(let query) in expression.operands {
            guard query.isRelative, let first = query.segments.first, let names = names(of: first) else { return nil }
            all += names
        }
        return all
    }

    /// The members of `@` passed to `length` (`length(@.tags)`), once for each time.
    private static func lengthArguments(in expression: JSONPath.Expression) -> [String] {
        expression.operands.flatMap { operand -> [String] in
            guard case .call(.length, let arguments) = operand, case .operand(.query(let query)) = arguments[0],
                query.isRelative, query.segments.count == 1, let names = names(of: query.segments[0]), names.count == 1
            else { return [] }
            return names
        }
    }

    /// How many last elements of an array hold everything the tail's first segment can select from it, when that is
    /// only indices counted from the end and forward slices starting there; `nil` otherwise.
    private static func lastElementsNeeded(by tail: [JSONPath.Segment]) -> Int? {
        guard let first = tail.first, !first.isDescendant else { return nil }
        // A filter reading `$` reads the held document, which must then be whole.
        guard !tail.contains(where: \.readsRoot) else { return nil }
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

    override func tokenNull() -> Bool { took(assembly.scalar { .null }) }
    override func tokenBool(_ value: Bool) -> Bool { took(assembly.scalar { .bool(value) }) }
    override func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool {
        took(assembly.scalar { .number(String(decoding: text, as: UTF8.self)) })
    }
    override func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool {
        took(assembly.scalar { .string(String(decoding: bytes, as: UTF8.self)) })
    }
    override func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool {
        assembly.key(bytes)
        return true
    }
    override func tokenStartMap() -> Bool { took(assembly.start(isObject: true, allowance: run.depthAllowance)) }
    override func tokenStartArray() -> Bool { took(assembly.start(isObject: false, allowance: run.depthAllowance)) }
    override func tokenEndMap() -> Bool { took(assembly.end()) }
    override func tokenEndArray() -> Bool { took(assembly.end()) }

    override var betweenCandidates: Bool { assembly.isEmpty }

    private func took(_ step: CandidateAssembly.Step) -> Bool {
        switch step {
        case .more: true
        case .done(let candidate): candidateEnded(candidate)
        case .tooDeep: tooDeep()
        }
    }

    private func candidateEnded(_ held: JSONValue) -> Bool {
        peakHeld = max(peakHeld, assembly.peak)
        var candidate = held
        // Elements dropped from the front of an array held by its end: its nodes' indices count them back.
        var dropped = assembly.dropped
        if let keep = keepsLast, case .array(let elements) = held, elements.count > keep {
            candidate = .array(Array(elements.suffix(keep)))
            dropped += elements.count - keep
        }
        context.root = candidate
        context.tracksLocations = run.recordsLocations
        let start = [JSONPath.Node(location: [], value: candidate)]
        var nodes: [JSONPath.Node]
        if let test {
            // The filter's segment selects the candidate, one child of its node, or not.
            nodes = context.test(test, on: candidate) ? context.apply(afterFilter, to: start) : []
        } else {
            nodes = context.apply(tail, to: start)
        }
        if run.recordsLocations {
            let base = run.candidateLocation
            for index in nodes.indices {
                if dropped > 0, case .index(let at)? = nodes[index].location.first {
                    nodes[index].location[0] = .index(at + dropped)
                }
                nodes[index].location = base + nodes[index].location
            }
        }
        if needsOneNode { return emitOnly(nodes.first) }
        for node in nodes {
            guard emit(node.value, at: node.location) else { return false }
        }
        return candidateDone()
    }
}
