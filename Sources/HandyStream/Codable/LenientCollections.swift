import Foundation

// Collections the tape decoder reads itself: strictly as `JSONDecoder`, and in rescue mode element by element, an
// element that can't be rescued dropped (or `nil`).

/// `[Element]`, decoded by the decoder itself.
protocol LenientArray {
    /// `Result` is `Self`, named by a generic caller so that no `Any` is made.
    static func decodeElements<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest?, as: Result.Type
    ) throws -> Result
}

extension TapeDecoder {
    /// Runs `body` with ``node`` set to `path`, for values `JSONDecoder` reads in their own `init(from:)`, so that
    /// errors report that decoder path.
    func reading<Value>(_ path: CodingPathNode, _ body: () throws -> Value) rethrows -> Value {
        let saved = node
        node = path
        defer { node = saved }
        return try body()
    }

    /// `nil` for -1 where `absentAllowed` (rescue mode: an empty container). Errors name `[Any]` or
    /// `[String: Any]`, as `JSONDecoder`'s containers do, whatever the collection's type.
    func containerHeader(
        _ kind: Tape.Kind, at index: Int, node: () -> CodingPathNode, absentAllowed: Bool, byContainer: Bool = true
    ) throws -> Tape.Token? {
        guard index >= 0 else {
            if absentAllowed { return nil }
            throw mismatch(Self.containerType(kind), at: index, node: node(), found: .null, byContainer: byContainer)
        }
        let header = tape.pointee.tokens[index]
        guard header.kind == kind else {
            throw mismatch(
                Self.containerType(kind), at: index, node: node(), found: header.kind, byContainer: byContainer)
        }
        return header
    }

    private static func containerType(_ kind: Tape.Kind) -> Any.Type {
        kind == .array ? [Any].self : [String: Any].self
    }
}

extension Array: LenientArray where Element: Decodable {
    static func decodeElements<Result>(
        _ decoder: TapeDecoder, at index: Int, node makeNode: () -> CodingPathNode, rescue: RescueRequest?,
        as: Result.Type
    ) throws -> Result {
        var made: CodingPathNode?
        return try withUnsafeMutablePointer(to: &made) { made in
            func node() -> CodingPathNode { made.node(makeNode) }
            return try lazilyNamedElements(decoder, at: index, node: node, rescue: rescue, as: Result.self)
        }
    }

    @inline(__always)
    private static func lazilyNamedElements<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest?, as: Result.Type
    ) throws -> Result {
        // `Result`, not `[Element]`, whose metadata would be looked up on every array.
        guard let header = try decoder.containerHeader(.array, at: index, node: node, absentAllowed: rescue != nil)
        else { return Self.identity([Element](), as: Result.self) }
        if let rescue {
            return Self.identity(try rescued(decoder, header, index, node, rescue), as: Result.self)
        }
        // The commonest element types skip generic code per element.
        switch ObjectIdentifier(Element.self) {
        case ObjectIdentifier(Double.self):
            return unsafeBitCast(
                try scalars(decoder, header, index) {
                    try decoder.decodeDouble(at: $0, node: node().appending(index: $1))
                }, to: Result.self)
        case ObjectIdentifier(Int.self):
            return unsafeBitCast(
                try scalars(decoder, header, index) {
                    try decoder.decodeInteger(Int.self, at: $0, node: node().appending(index: $1))
                }, to: Result.self)
        case ObjectIdentifier(String.self):
            return unsafeBitCast(
                try scalars(decoder, header, index) {
                    try decoder.decodeString(at: $0, node: node().appending(index: $1))
                }, to: Result.self)
        case ObjectIdentifier(Date.self):
            // `JSONDecoder` reads them in the array's `init(from:)`: a bad ISO 8601 date is reported at its path.
            return Self.identity(
                try decoder.reading(node(), { try elements(decoder, header, index, node) }), as: Result.self)
        default:
            break
        }
        return Self.identity(try elements(decoder, header, index, node), as: Result.self)
    }

    @inline(__always)
    static func elements(
        _ decoder: TapeDecoder, _ header: Tape.Token, _ index: Int, _ node: () -> CodingPathNode
    ) throws -> [Element] {
        var result: [Element] = []
        guard header.start > 0 else { return result }
        result.reserveCapacity(unlessEmpty: header.start)
        try decoder.forEachElement(ofArrayAt: index) { position, count in
            result.append(try decoder.decode(Element.self, at: position, node: node().appending(index: count)))
        }
        return result
    }

    /// `Result` must be `[Element]`; unlike `_identityCast`, no metadata look-up to compare the types.
    @inline(__always)
    static func identity<Result>(_ array: [Element], as _: Result.Type) -> Result {
        assert(Result.self == [Element].self, "LenientArray: Result is not the array type")
        return unsafeBitCast(array, to: Result.self)
    }

    @inline(never)
    static func rescued(
        _ decoder: TapeDecoder, _ header: Tape.Token, _ index: Int, _ node: () -> CodingPathNode,
        _ rescue: RescueRequest
    ) throws -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(unlessEmpty: header.start)
        try decoder.forEachElement(ofArrayAt: index) { position, count in
            let here = node().appending(index: count)
            do {
                result.append(
                    try decoder.decode(
                        Element.self, at: position, node: here, rescue: rescue.inside(.index(count))))
            } catch let error as any RescuableFailure {
                if let none = (Element.self as? any OptionalDecoding.Type)?.none as? Element {
                    result.append(none)
                    decoder.context.report(decoder.pathPrefix, here, "\(error.summary); the element became nil")
                } else {
                    decoder.context.report(decoder.pathPrefix, here, "\(error.summary); the element was dropped")
                }
            }
        }
        return result
    }
}

extension Array where Element: Decodable {
    /// `read` is given each element's token and index.
    @inline(__always)
    static func scalars<Scalar>(
        _ decoder: TapeDecoder, _ header: Tape.Token, _ index: Int, _ read: (Int, Int) throws -> Scalar
    ) throws -> [Scalar] {
        var values: [Scalar] = []
        guard header.start > 0 else { return values }
        values.reserveCapacity(unlessEmpty: header.start)
        try decoder.forEachElement(ofArrayAt: index) { values.append(try read($0, $1)) }
        return values
    }
}

/// `[String: Value]`, keys as they are whatever the strategy, the first of duplicates counting (as `JSONDecoder`).
protocol LenientStringDictionary {
    /// `Result` is `Self`.
    static func decodeMembers<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest?, as: Result.Type
    ) throws -> Result
}

extension Dictionary: LenientStringDictionary where Key == String, Value: Decodable {
    static func decodeMembers<Result>(
        _ decoder: TapeDecoder, at index: Int, node makeNode: () -> CodingPathNode, rescue: RescueRequest?,
        as: Result.Type
    ) throws -> Result {
        var made: CodingPathNode?
        return try withUnsafeMutablePointer(to: &made) { made in
            func node() -> CodingPathNode { made.node(makeNode) }
            return try lazilyNamedMembers(decoder, at: index, node: node, rescue: rescue, as: Result.self)
        }
    }

    @inline(__always)
    private static func lazilyNamedMembers<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest?, as: Result.Type
    ) throws -> Result {
        // Under another key strategy, `JSONDecoder` reads the members without a keyed container.
        let byContainer = decoder.context.options.keyDecodingStrategy == .useDefaultKeys
        guard
            let header = try decoder.containerHeader(
                .object, at: index, node: node, absentAllowed: rescue != nil, byContainer: byContainer)
        else { return _identityCast([String: Value](), to: Result.self) }
        var result: [String: Value] = [:]
        result.reserveCapacity(unlessEmpty: header.start)
        var dropped: Set<String> = []
        // With the default key strategy, `JSONDecoder` reports a bad ISO 8601 date at the dictionary's path.
        let readsDates = Value.self == Date.self && byContainer
        try decoder.forEachMember(ofObjectAt: index) { position in
            let key = decoder.string(at: position)
            if result[key] != nil || (!dropped.isEmpty && dropped.contains(key)) { return }
            let here = node().appending(NamedKey(key))
            guard let rescue else {
                if readsDates {
                    result[key] = try decoder.reading(node()) {
                        try decoder.decode(Value.self, at: position + 1, node: here)
                    }
                } else {
                    result[key] = try decoder.decode(Value.self, at: position + 1, node: here)
                }
                return
            }
            do {
                result[key] = try decoder.decode(
                    Value.self, at: position + 1, node: here, rescue: rescue.inside(.key(key)))
            } catch let error as any RescuableFailure {
                dropped.insert(key)
                decoder.context.report(decoder.pathPrefix, here, "\(error.summary); the member was dropped")
            }
        }
        return _identityCast(result, to: Result.self)
    }
}

/// `Wrapped?`, as `Optional`'s `init(from:)` decodes it; in rescue mode a value that can't be rescued is `nil` too.
protocol OptionalDecoding {
    /// `nil`, for a generic `Element` that is an `Optional`.
    static var none: Self { get }
    static func decodeOptional<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest?, as: Result.Type
    ) throws -> Result
}

extension Optional: OptionalDecoding where Wrapped: Decodable {
    static func decodeOptional<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest?, as: Result.Type
    ) throws -> Result {
        if decoder.kind(at: index) == .null { return _identityCast(Wrapped?.none, to: Result.self) }
        guard let rescue else {
            if Wrapped.self == Date.self {
                // `JSONDecoder` reads the date in `Optional`'s `init(from:)`, so its decoder path is the date's.
                let node = node()
                return _identityCast(
                    Wrapped?.some(
                        try decoder.reading(node) { try decoder.decode(Wrapped.self, at: index, node: node) }),
                    to: Result.self)
            }
            return _identityCast(
                Wrapped?.some(try decoder.decode(Wrapped.self, at: index, node: node())), to: Result.self)
        }
        do {
            let value = try decoder.decode(Wrapped.self, at: index, node: node(), rescue: rescue)
            return _identityCast(Wrapped?.some(value), to: Result.self)
        } catch let error as any RescuableFailure {
            decoder.context.report(decoder.pathPrefix, node(), "\(error.summary); the value became nil")
            return _identityCast(Wrapped?.none, to: Result.self)
        }
    }
}

/// `Set<Element>` and `[Int: Value]`: strictly decoded by their own `init(from:)`, here only in rescue mode.
protocol RescuedCollection {
    static func decodeRescued<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest, as: Result.Type
    ) throws -> Result
}

extension Set: RescuedCollection where Element: Decodable {
    static func decodeRescued<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest, as: Result.Type
    ) throws -> Result {
        let elements = try [Element].decodeElements(decoder, at: index, node: node, rescue: rescue, as: [Element].self)
        return _identityCast(Set(elements), to: Result.self)
    }
}

extension Dictionary: RescuedCollection where Key == Int, Value: Decodable {
    static func decodeRescued<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest, as: Result.Type
    ) throws -> Result {
        let members = try [String: Value].decodeMembers(
            decoder, at: index, node: node, rescue: rescue, as: [String: Value].self)
        var result: [Int: Value] = [:]
        for (key, value) in members {
            guard let number = Int(key) else {
                decoder.context.report(
                    decoder.pathPrefix, node().appending(NamedKey(key)),
                    "the key is not an integer; the entry was dropped")
                continue
            }
            result[number] = value
        }
        return _identityCast(result, to: Result.self)
    }
}

// `reserveCapacity(0)` still goes through making a buffer, only to hand back the shared empty one.

extension Array {
    @inline(__always)
    mutating func reserveCapacity(unlessEmpty count: Int32) {
        if count > 0 { reserveCapacity(Int(count)) }
    }
}

extension Dictionary {
    @inline(__always)
    mutating func reserveCapacity(unlessEmpty count: Int32) {
        if count > 0 { reserveCapacity(Int(count)) }
    }
}
