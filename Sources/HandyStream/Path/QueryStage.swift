/// The part of a JSONPath query that starts with a filter, on a stream: the path filter hands it each candidate (each
/// child of a node the streamed prefix selects) as events; it holds that one candidate as a `JSONValue`, applies the
/// filter and the segments after it, and replays the selected nodes' events into the builder, then lets the candidate
/// go. One candidate is held as a tree at a time (what the builder collects of the matches is the builder's).
final class QueryStage: TokenSink {
    private let tail: [JSONPath.Segment]
    private let next: Builder
    /// Single mode: the path filter wraps every candidate in one array of its own, passed through to the builder.
    private let single: Bool
    /// Stream mode: resumed when a candidate is done, also when it selects no node (each selected node's completion
    /// resumes it too; a filter already searching ignores that). Unretained: the pipeline owns both.
    unowned(unsafe) var filter: PathFilter?

    private enum Open {
        case array([JSONValue])
        case object([JSONValue.Member], key: String)
    }
    /// The candidate's open containers, outermost first.
    private var open: [Open] = []
    /// Single mode: whether the path filter's array of candidates is open.
    private var inCollection = false

    init(tail: [JSONPath.Segment], next: Builder, single: Bool) {
        self.tail = tail
        self.next = next
        self.single = single
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
        open.append(.object([], key: ""))
        return true
    }

    override func tokenStartArray() -> Bool {
        if single && !inCollection && open.isEmpty {
            inCollection = true
            return next.tokenStartArray()
        }
        open.append(.array([]))
        return true
    }

    override func tokenEndMap() -> Bool {
        guard case .object(let members, _)? = open.popLast() else { return false }
        return add(.object(members))
    }

    override func tokenEndArray() -> Bool {
        if open.isEmpty && single && inCollection {
            inCollection = false
            return next.tokenEndArray()
        }
        guard case .array(let elements)? = open.popLast() else { return false }
        return add(.array(elements))
    }

    /// A completed value: into the container it sits in, or, if it is a whole candidate, through the query's tail.
    private func add(_ value: JSONValue) -> Bool {
        switch open.last {
        case .array(var elements)?:
            open[open.count - 1] = .array([])
            elements.append(value)
            open[open.count - 1] = .array(elements)
            return true
        case .object(var members, let key)?:
            open[open.count - 1] = .object([], key: key)
            members.append(JSONValue.Member(key: key, value: value))
            open[open.count - 1] = .object(members, key: key)
            return true
        case nil:
            return candidateEnded(value)
        }
    }

    private func candidateEnded(_ candidate: JSONValue) -> Bool {
        // The filter's segment applies to the candidate as one child of its node: a one-element array stands for it.
        var context = JSONPathContext(root: candidate)
        let nodes = context.apply(tail, to: [JSONPath.Node(location: [], value: .array([candidate]))])
        for node in nodes {
            guard Self.replay(node.value, into: next) else { return false }
        }
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
