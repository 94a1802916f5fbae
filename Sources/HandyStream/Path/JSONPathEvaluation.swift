/// RFC 9535's semantics over a value held whole: the reference the streaming evaluation is checked against, and what
/// it falls back to for a value it must hold (a filter's candidate, an element counted from the end).
extension JSONPath {
    /// One node of a result: where it is and what it holds.
    package struct Node: Equatable {
        package var location: [Step]
        package var value: JSONValue
    }

    package enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    /// The nodelist the query selects from `root`, in the RFC's order.
    package func nodes(in root: JSONValue) -> [Node] {
        var context = JSONPathContext(root: root)
        return context.apply(segments, to: [Node(location: [], value: root)])
    }

    /// A normalized path (§2.7): `$['a'][0]`.
    package static func normalized(_ location: [Step]) -> String {
        var path = "$"
        for step in location {
            switch step {
            case .index(let index): path += "[\(index)]"
            case .key(let key):
                path += "['"
                for c in key.unicodeScalars {
                    switch c {
                    case "\u{8}": path += "\\b"
                    case "\u{C}": path += "\\f"
                    case "\n": path += "\\n"
                    case "\r": path += "\\r"
                    case "\t": path += "\\t"
                    case "'": path += "\\'"
                    case "\\": path += "\\\\"
                    case "\u{0}"..."\u{1F}": path += (c.value < 0x10 ? "\\u000" : "\\u00") + String(c.value, radix: 16)
                    default: path.unicodeScalars.append(c)
                    }
                }
                path += "']"
            }
        }
        return path
    }
}

struct JSONPathContext {
    /// What `$` is in a filter; a stage sets each candidate in turn, keeping the compiled regular expressions.
    var root: JSONValue
    /// Regular expressions compiled so far, by their I-Regexp text (`nil`: not a valid I-Regexp).
    private var regexes: [String: IRegexp?] = [:]
    /// Whether nodes know where they are; a stream, which sends only values, spares the arrays.
    var tracksLocations = true

    init(root: JSONValue) { self.root = root }

    typealias Node = JSONPath.Node

    mutating func apply(_ segments: [JSONPath.Segment], to input: [Node]) -> [Node] {
        var nodes = input
        for segment in segments {
            var output: [Node] = []
            for node in nodes {
                if segment.isDescendant {
                    visitDescendants(of: node) { context, descendant in
                        context.apply(segment.selectors, to: descendant, into: &output)
                    }
                } else {
                    apply(segment.selectors, to: node, into: &output)
                }
            }
            nodes = output
        }
        return nodes
    }

    /// The node, then each child and its descendants in turn: arrays in order, objects in member order.
    private mutating func visitDescendants(of node: Node, _ visit: (inout Self, Node) -> Void) {
        visit(&self, node)
        for child in children(of: node) { visitDescendants(of: child, visit) }
    }

    private func location(_ node: Node, _ step: JSONPath.Step) -> [JSONPath.Step] {
        tracksLocations ? node.location + [step] : []
    }

    func children(of node: Node) -> [Node] {
        switch node.value {
        case .array(let elements):
            return elements.enumerated().map { Node(location: location(node, .index($0)), value: $1) }
        case .object(let members):
            return members.map { Node(location: location(node, .key($0.key)), value: $0.value) }
        default:
            return []
        }
    }

    private mutating func apply(_ selectors: [JSONPath.Selector], to node: Node, into output: inout [Node]) {
        for selector in selectors {
            switch selector {
            case .name(let name):
                guard case .object(let members) = node.value,
                    let member = members.first(where: { JSONPath.same($0.key, name) })
                else { continue }
                output.append(Node(location: location(node, .key(name)), value: member.value))
            case .wildcard:
                output += children(of: node)
            case .index(let index):
                guard case .array(let elements) = node.value else { continue }
                let at = index < 0 ? elements.count + index : index
                guard elements.indices.contains(at) else { continue }
                output.append(Node(location: location(node, .index(at)), value: elements[at]))
            case .slice(let start, let end, let step):
                guard case .array(let elements) = node.value else { continue }
                for at in JSONPath.sliceIndices(start: start, end: end, step: step, count: elements.count) {
                    output.append(Node(location: location(node, .index(at)), value: elements[at]))
                }
            case .filter(let expression):
                for child in children(of: node) where test(expression, on: child.value) {
                    output.append(child)
                }
            }
        }
    }

    // MARK: - Filters

    /// What an operand gives: a value, nothing (an empty nodelist, a function's Nothing), a nodelist, or a logical.
    private enum Result {
        case value(JSONValue)
        case nothing
        case nodes([Node])
        case logical(Bool)

        var asValue: JSONValue? {
            switch self {
            case .value(let value): value
            case .nodes(let nodes) where nodes.count == 1: nodes[0].value
            default: nil
            }
        }

        var asLogical: Bool {
            switch self {
            case .logical(let truth): truth
            case .nodes(let nodes): !nodes.isEmpty
            case .value, .nothing: false
            }
        }
    }

    mutating func test(_ expression: JSONPath.Expression, on current: JSONValue) -> Bool {
        switch expression {
        case .or(let terms): return terms.contains { test($0, on: current) }
        case .and(let terms): return terms.allSatisfy { test($0, on: current) }
        case .not(let inner): return !test(inner, on: current)
        case .operand(let operand): return evaluate(operand, on: current).asLogical
        case .compare(let left, let comparison, let right):
            let a = value(of: left, on: current)
            let b = value(of: right, on: current)
            switch comparison {
            case .equal: return Self.equal(a, b)
            case .notEqual: return !Self.equal(a, b)
            case .less: return Self.less(a, b)
            case .greater: return Self.less(b, a)
            case .lessOrEqual: return Self.less(a, b) || Self.equal(a, b)
            case .greaterOrEqual: return Self.less(b, a) || Self.equal(a, b)
            }
        }
    }

    /// A comparison's operand: `@.name` is looked up directly (a filter's most common test), the rest evaluated.
    private mutating func value(of operand: JSONPath.Operand, on current: JSONValue) -> JSONValue? {
        if case .query(let query) = operand, query.isRelative, query.segments.count == 1,
            !query.segments[0].isDescendant, query.segments[0].selectors.count == 1,
            case .name(let name) = query.segments[0].selectors[0]
        {
            guard case .object(let members) = current else { return nil }
            return members.first { JSONPath.same($0.key, name) }?.value
        }
        return evaluate(operand, on: current).asValue
    }

    private mutating func evaluate(_ operand: JSONPath.Operand, on current: JSONValue) -> Result {
        switch operand {
        case .literal(let value):
            return .value(value)
        case .query(let query):
            let start = Node(location: [], value: query.isRelative ? current : root)
            return .nodes(apply(query.segments, to: [start]))
        case .call(let function, let arguments):
            switch function {
            case .length:
                switch valueArgument(arguments[0], on: current) {
                case .string(let string): return .value(.number(String(string.unicodeScalars.count)))
                case .array(let elements): return .value(.number(String(elements.count)))
                case .object(let members): return .value(.number(String(members.count)))
                default: return .nothing
                }
            case .count:
                guard case .nodes(let nodes) = argument(arguments[0], on: current) else { return .nothing }
                return .value(.number(String(nodes.count)))
            case .value:
                guard case .nodes(let nodes) = argument(arguments[0], on: current), nodes.count == 1 else {
                    return .nothing
                }
                return .value(nodes[0].value)
            case .match, .search:
                guard case .string(let string) = valueArgument(arguments[0], on: current),
                    case .string(let pattern) = valueArgument(arguments[1], on: current),
                    let regex = regex(pattern)
                else { return .logical(false) }
                return .logical(function == .match ? regex.matchesWhole(string) : regex.occurs(in: string))
            }
        }
    }

    /// An argument read as a value (a logical expression is none).
    private mutating func valueArgument(_ expression: JSONPath.Expression, on current: JSONValue) -> JSONValue? {
        guard case .operand(let operand) = expression else { return nil }
        return value(of: operand, on: current)
    }

    private mutating func argument(_ expression: JSONPath.Expression, on current: JSONValue) -> Result {
        guard case .operand(let operand) = expression else { return .logical(test(expression, on: current)) }
        return evaluate(operand, on: current)
    }

    private mutating func regex(_ pattern: String) -> IRegexp? {
        if let known = regexes[pattern] { return known }
        let compiled = IRegexp(pattern)
        // Patterns may come from the document: only so many are kept.
        if regexes.count < 64 { regexes[pattern] = compiled }
        return compiled
    }

    // MARK: - Comparisons (§2.3.5.2.2)

    static func equal(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.number(let x)?, .number(let y)?): return x == y || (numeric(x) == numeric(y) && sameNumber(x, y))
        case (.string(let x)?, .string(let y)?): return JSONPath.same(x, y)
        case (.array(let x)?, .array(let y)?):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x)?, .object(let y)?):
            return x.count == y.count
                && x.allSatisfy { member in
                    y.contains { JSONPath.same($0.key, member.key) && equal($0.value, member.value) }
                }
        case (let x?, let y?): return x == y
        default: return false
        }
    }

    static func less(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (.number(let x)?, .number(let y)?): return numeric(x) < numeric(y)
        case (.string(let x)?, .string(let y)?): return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
        default: return false
        }
    }

    /// Whether two number texts name the same number exactly (`1e2` and `100.0` do; `9007199254740993` and
    /// `9007199254740992` do not, though their `Double`s are equal).
    static func sameNumber(_ x: String, _ y: String) -> Bool {
        func exact(_ text: String) -> (negative: Bool, digits: [UInt8], exponent: Int) {
            var digits: [UInt8] = []
            var exponent = 0
            var negative = false
            var inFraction = false
            var bytes = Substring(text).utf8[...]
            while let byte = bytes.popFirst() {
                switch byte {
                case UInt8(ascii: "-"): negative = true
                case UInt8(ascii: "."): inFraction = true
                case UInt8(ascii: "e"), UInt8(ascii: "E"):
                    exponent += Int(String(decoding: bytes, as: UTF8.self).filter { $0 != "+" }) ?? 0
                    bytes = bytes[bytes.endIndex...]
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if byte != UInt8(ascii: "0") || !digits.isEmpty { digits.append(byte) }
                    if inFraction { exponent -= 1 }
                default: break
                }
            }
            while digits.last == UInt8(ascii: "0") {
                digits.removeLast()
                exponent += 1
            }
            return digits.isEmpty ? (false, [], 0) : (negative, digits, exponent)
        }
        let (a, b) = (exact(x), exact(y))
        return a.negative == b.negative && a.digits == b.digits && a.exponent == b.exponent
    }

    private static func numeric(_ text: String) -> Double {
        // A number's text is a JSON number token, from the document or the query.
        var text = text
        return text.withUTF8 { DecimalText.double(token: UnsafeRawBufferPointer($0)) } ?? Double(text) ?? .nan
    }
}

extension JSONPath {
    /// Strings are equal when their Unicode scalars are (§2.3.5.2.2), so when their UTF-8 is: no canonical
    /// equivalence, as `==` has.
    static func same(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    /// The indices a slice selects from an array of `count` elements, in order (§2.3.4.2.2).
    static func sliceIndices(start: Int?, end: Int?, step: Int?, count: Int) -> StrideTo<Int> {
        let step = step ?? 1
        func normalize(_ i: Int) -> Int { i >= 0 ? i : count + i }
        if step > 0 {
            let lower = min(max(normalize(start ?? 0), 0), count)
            let upper = min(max(normalize(end ?? count), 0), count)
            return stride(from: lower, to: max(lower, upper), by: step)
        } else if step < 0 {
            let upper = min(max(normalize(start ?? count - 1), -1), count - 1)
            let lower = min(max(end.map(normalize) ?? -1, -1), count - 1)
            return stride(from: upper, to: min(upper, lower), by: step)
        }
        return stride(from: 0, to: 0, by: 1)
    }
}
