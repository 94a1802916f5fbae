/// An RFC 9535 JSONPath query, parsed and checked for well-typedness (§2.4.3) before any input is read.
package struct JSONPath: Equatable, CustomStringConvertible {
    var segments: [Segment]
    let text: String
    package var description: String { text }

    struct Segment: Equatable {
        var selectors: [Selector]
        /// `..`: the selectors apply to the node and to every node below it.
        var isDescendant: Bool

        /// Whether a filter in it reads `$`.
        var readsRoot: Bool {
            selectors.contains { if case .filter(let filter) = $0 { filter.readsRoot } else { false } }
        }
    }

    enum Selector: Equatable {
        case name(String)
        case wildcard
        case index(Int)
        case slice(start: Int?, end: Int?, step: Int?)
        case filter(Expression)
    }

    /// A query inside a filter: relative to `@` or absolute from `$`.
    struct Query: Equatable {
        var isRelative: Bool
        var segments: [Segment]
        /// Name and index segments only: it selects at most one node (§2.3.5.1).
        var isSingular: Bool {
            segments.allSatisfy { segment in
                guard !segment.isDescendant, segment.selectors.count == 1 else { return false }
                switch segment.selectors[0] {
                case .name, .index: return true
                default: return false
                }
            }
        }
    }

    enum Function: String, Equatable {
        case length, count, match, search, value

        enum Kind: Equatable { case value, logical, nodes }
        var parameters: [Kind] {
            switch self {
            case .length: [.value]
            case .count, .value: [.nodes]
            case .match, .search: [.value, .value]
            }
        }
        var result: Kind {
            switch self {
            case .length, .count, .value: .value
            case .match, .search: .logical
            }
        }
    }

    /// A literal, a query or a function call: what a comparison compares, what a function takes.
    indirect enum Operand: Equatable {
        case literal(JSONValue)
        case query(Query)
        case call(Function, [Expression])
    }

    /// In the order they are tried: `<=` before `<`.
    enum Comparison: String, Equatable, CaseIterable {
        case equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">=", less = "<", greater = ">"
    }

    indirect enum Expression: Equatable {
        case or([Expression])
        case and([Expression])
        case not(Expression)
        case compare(Operand, Comparison, Operand)
        /// A test (an existence test or a logical function) or, as a function's argument, a value or a nodelist.
        case operand(Operand)

        /// Its operands, those passed to functions included; not those of the filters in its queries.
        var operands: [Operand] {
            switch self {
            case .or(let terms), .and(let terms): terms.flatMap(\.operands)
            case .not(let inner): inner.operands
            case .compare(let left, _, let right): Self.operand(left).operands + Self.operand(right).operands
            case .operand(.call(let function, let arguments)):
                [.call(function, arguments)] + arguments.flatMap(\.operands)
            case .operand(let operand): [operand]
            }
        }

        /// Whether an absolute query (`$`) appears anywhere in it, nested filters included.
        var readsRoot: Bool {
            operands.contains { operand in
                guard case .query(let query) = operand else { return false }
                return !query.isRelative || query.segments.contains(where: \.readsRoot)
            }
        }
    }

    package init(parsing text: String) throws(JSONDecodingError) {
        self.text = text
        var parser = JSONPathParser(text)
        segments = try parser.query()
    }
}

/// Reads RFC 9535's grammar (§2.1.1 and appendix A) over Unicode scalars, with the failing column in each error.
struct JSONPathParser {
    private let text: String
    private let scalars: [Unicode.Scalar]
    private var position = 0
    /// Open filters, parentheses and calls: capped so that no query can exhaust the stack.
    private var nesting = 0

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    typealias Kind = JSONPath.Function.Kind

    mutating func query() throws(JSONDecodingError) -> [JSONPath.Segment] {
        guard take("$") else { throw failure("a JSONPath query begins with '$'") }
        let segments = try self.segments()
        guard position == scalars.count else {
            throw failure(peekIsBlank ? "blank space after the query" : "'\(scalars[position])' cannot follow here")
        }
        return segments
    }

    // MARK: - Segments and selectors

    private mutating func segments() throws(JSONDecodingError) -> [JSONPath.Segment] {
        var segments: [JSONPath.Segment] = []
        while true {
            let start = position
            skipBlanks()
            let isDescendant = take("..")
            let dotted = !isDescendant && take(".")
            if !dotted && peek == "[" {
                segments.append(.init(selectors: try bracket(), isDescendant: isDescendant))
            } else if isDescendant || dotted {
                let selector: JSONPath.Selector = take("*") ? .wildcard : .name(try shorthandName())
                segments.append(.init(selectors: [selector], isDescendant: isDescendant))
            } else {
                position = start
                return segments
            }
        }
    }

    private mutating func shorthandName() throws(JSONDecodingError) -> String {
        guard let first = peek, Self.isNameFirst(first) else {
            throw failure("expected a member name, '*' or '[' after the dot")
        }
        // A digit may follow the first character only.
        var name = String.UnicodeScalarView()
        while let next = peek, Self.isNameFirst(next) || ("0"..."9").contains(next) {
            name.append(next)
            position += 1
        }
        return String(name)
    }

    private static func isNameFirst(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || c.value >= 0x80
    }

    private mutating func bracket() throws(JSONDecodingError) -> [JSONPath.Selector] {
        precondition(take("["))
        var selectors: [JSONPath.Selector] = []
        repeat {
            skipBlanks()
            selectors.append(try selector())
            skipBlanks()
        } while take(",")
        guard take("]") else { throw failure(peek == nil ? "a '[' is not closed" : "expected ',' or ']'") }
        return selectors
    }

    private mutating func selector() throws(JSONDecodingError) -> JSONPath.Selector {
        switch peek {
        case "'", "\"": return .name(try stringLiteral())
        case "*":
            position += 1
            return .wildcard
        case "?":
            position += 1
            skipBlanks()
            let start = position
            let expression = try logicalOr()
            try check(expression, as: .logical, at: start)
            return .filter(expression)
        default:
            let start = try integerIfPresent()
            skipBlanks()
            guard take(":") else {
                guard let start else {
                    throw failure("expected a selector: a name, '*', an index, a slice or a filter")
                }
                return .index(start)
            }
            skipBlanks()
            let end = try integerIfPresent()
            skipBlanks()
            var step: Int?
            if take(":") {
                skipBlanks()
                step = try integerIfPresent()
            }
            return .slice(start: start, end: end, step: step)
        }
    }

    /// An index or slice bound: no leading zero, no `-0`, within I-JSON's exact integers (±(2^53 - 1)).
    private mutating func integerIfPresent() throws(JSONDecodingError) -> Int? {
        let start = position
        let negative = take("-")
        guard let first = peek, ("0"..."9").contains(first) else {
            if negative { throw failure("expected a digit after '-'") }
            return nil
        }
        var value = 0
        while let digit = peek, ("0"..."9").contains(digit) {
            value = value * 10 + Int(digit.value - 48)
            position += 1
            if value > (1 << 53) - 1 { throw failure("an index beyond ±(2^53 - 1)", at: start) }
        }
        if first == "0" && position - start > (negative ? 2 : 1) { throw failure("a leading zero", at: start) }
        if first == "0" && negative { throw failure("-0 is not an index", at: start) }
        return negative ? -value : value
    }

    // MARK: - Filter expressions

    private mutating func logicalOr() throws(JSONDecodingError) -> JSONPath.Expression {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= 64 else { throw failure("filters nested more than 64 deep") }
        var terms = [try logicalAnd()]
        while takeAfterBlanks("||") {
            skipBlanks()
            terms.append(try logicalAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func logicalAnd() throws(JSONDecodingError) -> JSONPath.Expression {
        var terms = [try basic()]
        while takeAfterBlanks("&&") {
            skipBlanks()
            terms.append(try basic())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func basic() throws(JSONDecodingError) -> JSONPath.Expression {
        if take("!") {
            skipBlanks()
            let start = position
            if take("(") { return .not(try parenthesized()) }
            let operand = try self.operand()
            if case .literal = operand {
                throw failure("'!' applies to a test or a parenthesized expression, not a literal", at: start)
            }
            return .not(.operand(operand))
        }
        if take("(") { return try parenthesized() }
        let left = try operand()
        let before = position
        skipBlanks()
        guard let comparison = JSONPath.Comparison.allCases.first(where: { take($0.rawValue) }) else {
            if peek == "=" { throw failure("'=' is not an operator; did you mean '=='?") }
            position = before
            return .operand(left)
        }
        skipBlanks()
        return .compare(left, comparison, try operand())
    }

    private mutating func parenthesized() throws(JSONDecodingError) -> JSONPath.Expression {
        skipBlanks()
        let start = position
        let inner = try logicalOr()
        try check(inner, as: .logical, at: start)
        guard takeAfterBlanks(")") else { throw failure("a '(' is not closed") }
        return inner
    }

    private mutating func operand() throws(JSONDecodingError) -> JSONPath.Operand {
        guard let c = peek else { throw failure("the filter ends early") }
        switch c {
        case "@", "$":
            position += 1
            return .query(JSONPath.Query(isRelative: c == "@", segments: try segments()))
        case "'", "\"":
            return .literal(.string(try stringLiteral()))
        case "-", "0"..."9":
            return .literal(.number(try numberLiteral()))
        case "a"..."z":
            let start = position
            var name = ""
            while let next = peek, ("a"..."z").contains(next) || ("0"..."9").contains(next) || next == "_" {
                name.unicodeScalars.append(next)
                position += 1
            }
            switch name {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default: break
            }
            guard let function = JSONPath.Function(rawValue: name) else {
                throw failure(peek == "(" ? "no function named '\(name)'" : "unknown word '\(name)'", at: start)
            }
            guard take("(") else { throw failure("expected '(' after the function's name") }
            var arguments: [JSONPath.Expression] = []
            skipBlanks()
            if !take(")") {
                repeat {
                    skipBlanks()
                    let argumentStart = position
                    let argument = try logicalOr()
                    let index = arguments.count
                    guard index < function.parameters.count else {
                        throw failure("\(name)() takes \(function.parameters.count) argument(s)", at: argumentStart)
                    }
                    try check(argument, as: function.parameters[index], at: argumentStart)
                    arguments.append(argument)
                    skipBlanks()
                } while take(",")
                guard take(")") else { throw failure("expected ',' or ')' in the call of \(name)()") }
            }
            guard arguments.count == function.parameters.count else {
                throw failure("\(name)() takes \(function.parameters.count) argument(s)", at: start)
            }
            return .call(function, arguments)
        case "=":
            throw failure("'=' is not an operator; did you mean '=='?")
        default:
            throw failure("expected a test, a comparison or a literal")
        }
    }

    /// §2.4.3: where an expression may stand. A comparison's sides are checked here too.
    private func check(_ expression: JSONPath.Expression, as kind: Kind, at: Int) throws(JSONDecodingError) {
        switch expression {
        case .or(let terms), .and(let terms):
            guard kind == .logical else { throw failure("a logical expression is not a value", at: at) }
            for term in terms { try check(term, as: .logical, at: at) }
        case .not(let inner):
            guard kind == .logical else { throw failure("a logical expression is not a value", at: at) }
            try check(inner, as: .logical, at: at)
        case .compare(let left, _, let right):
            guard kind == .logical else { throw failure("a comparison is not a value", at: at) }
            for side in [left, right] {
                switch side {
                case .literal: break
                case .query(let query):
                    guard query.isSingular else {
                        throw failure("a query that may select several nodes cannot be compared", at: at)
                    }
                case .call(let function, _):
                    guard function.result == .value else {
                        throw failure("\(function.rawValue)() gives a logical result, not a value to compare", at: at)
                    }
                }
            }
        case .operand(.literal):
            guard kind == .value else {
                throw failure(kind == .nodes ? "expected a query" : "a literal alone is not a test; compare it", at: at)
            }
        case .operand(.query(let query)):
            guard kind != .value || query.isSingular else {
                throw failure("a value argument must be a literal, a single-node query or a value function", at: at)
            }
        case .operand(.call(let function, _)):
            switch (kind, function.result) {
            case (.value, .value), (.logical, .logical), (.logical, .nodes), (.nodes, .nodes): break
            case (.logical, .value):
                throw failure("\(function.rawValue)() gives a value: compare it to make a test", at: at)
            default:
                throw failure("\(function.rawValue)() does not give what is expected here", at: at)
            }
        }
    }

    // MARK: - Literals

    /// A string literal in single or double quotes, with JSON's escapes plus `\'` in single quotes (§2.3.1.1).
    private mutating func stringLiteral() throws(JSONDecodingError) -> String {
        let start = position
        let quote = scalars[position]
        position += 1
        var result = String.UnicodeScalarView()
        while true {
            guard let c = peek else { throw failure("a string is not closed", at: start) }
            position += 1
            switch c {
            case quote:
                return String(result)
            case "\\":
                guard let escaped = peek else { throw failure("a string is not closed", at: start) }
                position += 1
                switch escaped {
                case "b": result.append("\u{8}")
                case "f": result.append("\u{C}")
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "/", "\\": result.append(escaped)
                case "u": result.append(try unicodeEscape())
                case quote: result.append(quote)
                default: throw failure("'\\\(escaped)' is not an escape", at: position - 2)
                }
            default:
                guard c.value >= 0x20 else { throw failure("a control character in a string must be escaped") }
                result.append(c)
            }
        }
    }

    private mutating func unicodeEscape() throws(JSONDecodingError) -> Unicode.Scalar {
        let start = position - 2
        let high = try hex4()
        if (0xDC00...0xDFFF).contains(high) { throw failure("a lone low surrogate", at: start) }
        guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high)! }
        guard take("\\u") else { throw failure("a high surrogate without its low half", at: start) }
        let low = try hex4()
        guard (0xDC00...0xDFFF).contains(low) else { throw failure("a high surrogate without its low half", at: start) }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
    }

    private mutating func hex4() throws(JSONDecodingError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek, c.isASCII, let digit = ASCII.hexValue(UInt8(c.value)) else {
                throw failure("'\\u' takes four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// A number in JSON's grammar, `-0` allowed (§2.3.5.1); kept as its text.
    private mutating func numberLiteral() throws(JSONDecodingError) -> String {
        let start = position
        _ = take("-")
        func digits() -> Int {
            let from = position
            while let c = peek, ("0"..."9").contains(c) { position += 1 }
            return position - from
        }
        let integerStart = position
        let count = digits()
        guard count > 0 else { throw failure("expected a digit", at: position) }
        if count > 1 && scalars[integerStart] == "0" { throw failure("a number with a leading zero", at: start) }
        if take(".") && digits() == 0 { throw failure("expected a digit after '.'") }
        if take("e") || take("E") {
            _ = take("+") || take("-")
            if digits() == 0 { throw failure("expected a digit in the exponent") }
        }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    // MARK: - Scanning

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private var peekIsBlank: Bool { peek.map(Self.isBlank) ?? false }

    private static func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }

    private mutating func skipBlanks() {
        while peekIsBlank { position += 1 }
    }

    private mutating func take(_ literal: String) -> Bool {
        var index = position
        for c in literal.unicodeScalars {
            guard index < scalars.count, scalars[index] == c else { return false }
            index += 1
        }
        position = index
        return true
    }

    /// `literal` after blank space; the blank space stays unread when `literal` isn't there.
    private mutating func takeAfterBlanks(_ literal: String) -> Bool {
        let start = position
        skipBlanks()
        if take(literal) { return true }
        position = start
        return false
    }

    private func failure(_ reason: String, at column: Int? = nil) -> JSONDecodingError {
        JSONDecodingError(
            .invalidPath, "invalid JSONPath '\(text)': at column \((column ?? position) + 1), \(reason)")
    }
}
