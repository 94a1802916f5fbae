import Foundation

// Arrays, string-keyed dictionaries, optionals, sets and `[Int: Value]`, decoded by the tape decoder itself: strictly
// as `JSONDecoder`, and in rescue mode element by element (an element that can't be rescued is dropped, or `nil`).

/// `[Element]`, decoded by the decoder itself: strictly as `JSONDecoder`; in rescue mode every element is decoded in
/// rescue mode, and one that can't be rescued is dropped (or `nil` when `Element` is an optional).
protocol LenientArray {
    /// The array at `index` as `Result`, which is `Self` (a generic caller names it so that no `Any` is made).
    /// `node` is asked for only when an element needs its coding path.
    static func decodeElements<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest?, as: Result.Type
    ) throws -> Result
}

/// Lets a generic `Element` that is an `Optional` give its `nil`.
protocol OptionalNone {
    static var none: Self { get }
}

extension Optional: OptionalNone {}

extension TapeDecoder {
    /// `body`'s result, run with ``node`` set to `path`: for the values `JSONDecoder` decodes by their own
    /// `init(from:)` where this decoder reads them itself (its decoder path is theirs then).
    func reading<Value>(_ path: CodingPathNode, _ body: () throws -> Value) rethrows -> Value {
        let saved = node
        node = path
        defer { node = saved }
        return try body()
    }

    /// The header of the container at `index` of kind `kind` (`.array` or `.object`); `nil` for a value made from
    /// nothing (-1, in rescue mode: an empty container). Errors name `[Any]` or `[String: Any]`, as `JSONDecoder`'s
    /// containers do, whatever the collection's own type; `byContainer` as for ``mismatch(_:at:node:found:byContainer:)``.
    func containerHeader(
        _ kind: Tape.Kind, at index: Int, node: () -> CodingPathNode, rescue: RescueRequest?, byContainer: Bool = true
    ) throws -> Tape.Token? {
        guard index >= 0 else {
            if rescue != nil { return nil }
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

    /// The words a diagnostic ends with when a value of type `T` was replaced by its fallback.
    static func replaced<T>(_: T.Type) -> String {
        T.self is any OptionalNone.Type ? "the value became nil" : "the default was used"
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
        // `Result` names the array's type for the result: asking for `[Element]` in this generic code would look its
        // metadata up in the runtime's cache on every array.
        guard let header = try decoder.containerHeader(.array, at: index, node: node, rescue: rescue)
        else { return Self.identity([Element](), as: Result.self) }
        if let rescue {
            return Self.identity(try rescued(decoder, header, index, node, rescue), as: Result.self)
        }
        // The commonest element types are read straight into a concrete array: no generic code per element.
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
            // `JSONDecoder` reads the dates in the array's `init(from:)`: a malformed ISO 8601 date is reported at the
            // array's path.
            return Self.identity(
                try decoder.reading(node(), { try elements(decoder, header, index, node) }), as: Result.self)
        default:
            break
        }
        return Self.identity(try elements(decoder, header, index, node), as: Result.self)
    }

    /// The elements of the array `header` (at `index`), each decoded as `Element`.
    @inline(__always)
    static func elements(
        _ decoder: TapeDecoder, _ header: Tape.Token, _ index: Int, _ node: () -> CodingPathNode
    ) throws -> [Element] {
        var result: [Element] = []
        // An empty array: the shared empty one, with no element to read.
        guard header.start > 0 else { return result }
        result.reserveCapacity(unlessEmpty: header.start)
        try decoder.forEachElement(ofArrayAt: index) { position, count in
            result.append(try decoder.decode(Element.self, at: position, node: node().appending(index: count)))
        }
        return result
    }

    /// `array` as `Result`, which callers pass as `[Element]` (``LenientArray``): the one reference moved, without
    /// the metadata look-up that `_identityCast` makes to compare the two types.
    @inline(__always)
    static func identity<Result>(_ array: [Element], as _: Result.Type) -> Result {
        assert(Result.self == [Element].self, "LenientArray: Result is not the array type")
        return unsafeBitCast(array, to: Result.self)
    }

    /// The elements in rescue mode: each in rescue mode, those that can't be rescued dropped (`nil` in `[T?]`).
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
                if let none = (Element.self as? any OptionalNone.Type)?.none as? Element {
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
    /// The elements of the array `header` (at `index`), each read by `read` (given its token and its index), into
    /// a concrete array.
    @inline(__always)
    static func scalars<Scalar>(
        _ decoder: TapeDecoder, _ header: Tape.Token, _ index: Int, _ read: (Int, Int) throws -> Scalar
    ) throws -> [Scalar] {
        var values: [Scalar] = []
        // An empty array: the shared empty one, with no element to read.
        guard header.start > 0 else { return values }
        values.reserveCapacity(unlessEmpty: header.start)
        try decoder.forEachElement(ofArrayAt: index) { values.append(try read($0, $1)) }
        return values
    }
}

/// `[String: Value]`, decoded by the decoder itself, its keys as they are (whatever the key strategy, as
/// Foundation does); the first of duplicate keys counts, as in `JSONDecoder`. In rescue mode the members that can't
/// be rescued are dropped.
protocol LenientStringDictionary {
    /// The object at `index` as `Result`, which is `Self`; `node` is asked for only when a member needs it.
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
        // Under another key strategy than the default, `JSONDecoder` reads the members without a keyed container.
        let byContainer = decoder.context.options.keyDecodingStrategy == .useDefaultKeys
        guard
            let header = try decoder.containerHeader(
                .object, at: index, node: node, rescue: rescue, byContainer: byContainer)
        else { return _identityCast([String: Value](), to: Result.self) }
        var result: [String: Value] = [:]
        result.reserveCapacity(unlessEmpty: header.start)
        var dropped: Set<String> = []
        // `JSONDecoder` reads the members in the dictionary's `init(from:)` with the default key strategy (a
        // malformed ISO 8601 date is reported at the dictionary's path), by its decoder with another.
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

/// `Wrapped?`, decoded by the decoder itself as `Optional`'s `init(from:)` does (`null` is `nil`); in rescue mode a
/// value that can't be rescued is `nil` too.
protocol OptionalDecoding {
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

/// A collection whose strict decoding is the standard library's own `init(from:)`, and which this library decodes in
/// rescue mode, dropping the elements or entries that can't be rescued: `Set<Element>`, `[Int: Value]`.
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

// Room for a container's elements or members, counted on its tape token. An empty one stays the shared empty one:
// `reserveCapacity(0)` still goes through the standard library's making of a new buffer, which hands back the shared
// empty one (work and a release on every empty array, for nothing).

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
