import Foundation

// The three containers of the `Decoder` over a tape, and the fast paths for arrays and string-keyed dictionaries.
//
// Lenient mode's rules live here, where a value's place is known: a missing key, `null`, or a value that doesn't
// fit gives the property's declared default, the type's default, or the type decoded from nothing; an optional
// becomes `nil`; an array element is dropped (`nil` in `[T?]`). Each fallback is told to the diagnostics handler.
// Strict mode throws what `JSONDecoder` throws.

struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    /// The object's token, or -1 (absent: every key is missing).
    let object: Int
    /// The container's coding path, kept by the decoder (``TapeDecoder/containerNode(_:)``): the container is
    /// copied on every member decoded, and a plain index copies for free.
    let entry: Int
    let mapping: MappingTable?

    init(decoder: TapeDecoder, object: Int, node: CodingPathNode, mapping: MappingTable?) {
        self.decoder = decoder
        self.object = object
        entry = decoder.keep(node)
        self.mapping = mapping
    }

    var node: CodingPathNode { decoder.containerNode(entry) }

    var codingPath: [any CodingKey] { node.path }

    var allKeys: [Key] {
        guard object >= 0 else { return [] }
        var keys: [Key] = []
        let tape = decoder.tape
        let end = Int(tape.pointee.tokens[object].length)
        var position = object + 1
        while position < end {
            if let key = Key(stringValue: decoder.string(at: position)) { keys.append(key) }
            position = tape.pointee.next(after: position + 1)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { decoder.lookUp(key, in: object, mapping: mapping) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let index = decoder.lookUp(key, in: object, mapping: mapping) else {
            if decoder.strict { throw keyNotFound(key) }
            return true
        }
        return decoder.kind(at: index) == .null
    }

    private func keyNotFound(_ key: Key) -> DecodingError {
        decoder.errorToken = object
        return DecodingError.keyNotFound(key, .init(
            codingPath: node.path,
            debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }

    /// A member's value: read, or in lenient mode replaced by a default when missing or unfit.
    @inline(__always)
    private func member<T: Decodable>(_: T.Type, _ key: Key, _ read: (Int) throws -> T) throws -> T {
        guard let index = decoder.lookUp(key, in: object, mapping: mapping) else { return try missing(T.self, key) }
        do {
            return try read(index)
        } catch let error as DecodingError where !decoder.strict {
            return try unfit(T.self, key, error)
        }
    }

    // The fallbacks are out of line: they work with `T?`, whose metadata generic code would otherwise fetch on
    // every member.

    @inline(never)
    private func missing<T: Decodable>(_: T.Type, _ key: Key) throws -> T {
        guard !decoder.strict,
            let value = decoder.fallback(T.self, property: key.stringValue, mapping: mapping, node: node.appending(key))
        else { throw keyNotFound(key) }
        decoder.context.report(decoder.pathPrefix, node.appending(key), "the key is missing; the default was used")
        return value
    }

    @inline(never)
    private func unfit<T: Decodable>(_: T.Type, _ key: Key, _ error: DecodingError) throws -> T {
        guard let value = decoder.fallback(
            T.self, property: key.stringValue, mapping: mapping, node: node.appending(key))
        else { throw error }
        decoder.context.report(decoder.pathPrefix, node.appending(key), "\(error.summary); the default was used")
        return value
    }

    /// An optional member's value: `nil` when missing or `null`, and in lenient mode when it doesn't fit.
    @inline(__always)
    private func optionalMember<T: Decodable>(_: T.Type, _ key: Key, _ read: (Int) throws -> T) throws -> T? {
        guard let index = decoder.lookUp(key, in: object, mapping: mapping),
            decoder.kind(at: index) != .null
        else { return nil }
        do {
            return try read(index)
        } catch let error as DecodingError where !decoder.strict {
            decoder.context.report(
                decoder.pathPrefix, node.appending(key), "\(error.summary); the value became nil")
            return nil
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try member(type, key) { try decoder.decodeBool(at: $0, node: node.appending(key)) }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try member(type, key) { try decoder.decodeString(at: $0, node: node.appending(key)) }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try member(type, key) { try decoder.decodeDouble(at: $0, node: node.appending(key)) }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try member(type, key) { try decoder.decodeFloat(at: $0, node: node.appending(key)) }
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try member(type, key) { try decoder.decode(T.self, at: $0, node: node.appending(key)) }
    }

    @inline(__always)
    private func integer<I: FixedWidthInteger & Decodable>(_ type: I.Type, _ key: Key) throws -> I {
        try member(type, key) { try decoder.decodeInteger(I.self, at: $0, node: node.appending(key)) }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try optionalMember(type, key) { try decoder.decodeBool(at: $0, node: node.appending(key)) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try optionalMember(type, key) { try decoder.decodeString(at: $0, node: node.appending(key)) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optionalMember(type, key) { try decoder.decodeDouble(at: $0, node: node.appending(key)) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try optionalMember(type, key) { try decoder.decodeInteger(Int.self, at: $0, node: node.appending(key)) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try optionalMember(type, key) { try decoder.decodeInteger(Int64.self, at: $0, node: node.appending(key)) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try optionalMember(type, key) { try decoder.decode(T.self, at: $0, node: node.appending(key)) }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try nestedIndex(key)
        return KeyedDecodingContainer(
            try decoder.keyedContainer(NestedKey.self, at: index, node: node.appending(key), mapping: nil))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyed(at: try nestedIndex(key), node: node.appending(key))
    }

    /// The value of a nested container: missing is an error in strict mode and an empty container in lenient.
    private func nestedIndex(_ key: Key) throws -> Int {
        if let index = decoder.lookUp(key, in: object, mapping: mapping) { return index }
        if decoder.strict { throw keyNotFound(key) }
        return -1
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(at: decoder.lookUp(NamedKey("super"), in: object, mapping: nil), key: NamedKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(at: decoder.lookUp(key, in: object, mapping: mapping), key: key)
    }

    private func superDecoder(at index: Int?, key: any CodingKey) throws -> any Decoder {
        decoder.detached(at: index ?? -1, node: node.appending(key))
    }
}

struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    /// The array's token, or -1 (absent: no elements).
    let array: Int
    let count: Int?
    let node: CodingPathNode
    private(set) var currentIndex = 0
    /// The token of the next element.
    private var position: Int

    init(decoder: TapeDecoder, array: Int, count: Int, node: CodingPathNode) {
        self.decoder = decoder
        self.array = array
        self.count = count
        self.node = node
        position = array + 1
    }

    var codingPath: [any CodingKey] { node.path }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private mutating func advance() {
        position = decoder.tape.pointee.next(after: position)
        currentIndex += 1
    }

    private func atEnd(_ type: Any.Type) -> DecodingError {
        decoder.errorToken = array
        return DecodingError.valueNotFound(type, .init(
            codingPath: node.appending(index: currentIndex).path, debugDescription: "Unkeyed container is at end."))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw atEnd(Any?.self) }
        if decoder.kind(at: position) == .null {
            advance()
            return true
        }
        return false
    }

    /// The next element: read, or in lenient mode replaced by the type's default when it doesn't fit (an unkeyed
    /// container can't skip it; arrays decoded whole drop such elements instead).
    private mutating func element<T: Decodable>(
        _: T.Type, _ read: (TapeDecoder, Int, CodingPathNode) throws -> T
    ) throws -> T {
        guard !isAtEnd else { throw atEnd(T.self) }
        let here = node.appending(index: currentIndex)
        do {
            let value = try read(decoder, position, here)
            advance()
            return value
        } catch let error as DecodingError where !decoder.strict {
            guard let value = decoder.fallback(T.self, property: nil, mapping: nil, node: here) else { throw error }
            decoder.context.report(decoder.pathPrefix, here, "\(error.summary); the default was used")
            advance()
            return value
        }
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) { try $0.decodeBool(at: $1, node: $2) } }
    mutating func decode(_ type: String.Type) throws -> String {
        try element(type) { try $0.decodeString(at: $1, node: $2) }
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        try element(type) { try $0.decodeDouble(at: $1, node: $2) }
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        try element(type) { try $0.decodeFloat(at: $1, node: $2) }
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try element(type) { try $0.decode(T.self, at: $1, node: $2) }
    }

    @inline(__always)
    private mutating func integer<I: FixedWidthInteger & Decodable>(_ type: I.Type) throws -> I {
        try element(type) { try $0.decodeInteger(I.self, at: $1, node: $2) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        guard !isAtEnd else { throw atEnd(KeyedDecodingContainer<NestedKey>.self) }
        let container = try decoder.keyedContainer(
            NestedKey.self, at: position, node: node.appending(index: currentIndex), mapping: nil)
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard !isAtEnd else { throw atEnd((any UnkeyedDecodingContainer).self) }
        let container = try decoder.unkeyed(at: position, node: node.appending(index: currentIndex))
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        guard !isAtEnd else { throw atEnd((any Decoder).self) }
        let child = decoder.detached(at: position, node: node.appending(index: currentIndex))
        advance()
        return child
    }
}

struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    /// The value's token, or -1 (absent: lenient mode reads the type's zero or empty value).
    let index: Int
    let node: CodingPathNode

    var codingPath: [any CodingKey] { node.path }

    func decodeNil() -> Bool { decoder.kind(at: index) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool(at: index, node: node) }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString(at: index, node: node) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble(at: index, node: node) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloat(at: index, node: node) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(type, at: index, node: node) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(type, at: index, node: node) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(type, at: index, node: node) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(type, at: index, node: node) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(type, at: index, node: node) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(type, at: index, node: node) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(type, at: index, node: node) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(type, at: index, node: node) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(type, at: index, node: node) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(type, at: index, node: node) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(T.self, at: index, node: node) }
}

// MARK: - Arrays and dictionaries, decoded whole

/// A container's own coding path, made at most once, and only when one of its values needs it (an error, a
/// diagnostic, or a value with containers of its own).
struct LazyCodingPath {
    private var made: CodingPathNode?

    /// The path, made by `make` the first time it is asked for.
    mutating func node(_ make: () -> CodingPathNode) -> CodingPathNode {
        if let made { return made }
        let node = make()
        made = node
        return node
    }
}

/// `[Element]`, decoded by the decoder itself: in lenient mode an element that doesn't fit is dropped, or becomes
/// `nil` when `Element` is an optional.
protocol LenientArray {
    /// The array at `index` as `Result`, which is `Self` (a generic caller names it so that no `Any` is made).
    /// `node` is asked for only when an element needs its coding path.
    static func decodeElements<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, as: Result.Type
    ) throws -> Result
}

/// Lets a generic `Element` that is an `Optional` give its `nil`.
protocol OptionalNone {
    static var none: Self { get }
}

extension Optional: OptionalNone {}

extension Array: LenientArray where Element: Decodable {
    static func decodeElements<Result>(
        _ decoder: TapeDecoder, at index: Int, node makeNode: () -> CodingPathNode, as: Result.Type
    ) throws -> Result {
        var path = LazyCodingPath()
        func node() -> CodingPathNode { path.node(makeNode) }
        guard index >= 0 else {
            if decoder.strict {
                throw DecodingError.valueNotFound(
                    [Element].self, .init(codingPath: node().path, debugDescription: "No value to decode"))
            }
            return _identityCast([Element](), to: Result.self)
        }
        let tape = decoder.tape
        let header = tape.pointee.tokens[index]
        guard header.kind == .array else {
            throw decoder.mismatch([Element].self, at: index, node: node(), found: header.kind)
        }
        // The commonest element types are read straight into a concrete array: no generic code per element.
        switch ObjectIdentifier(Element.self) {
        case ObjectIdentifier(Double.self):
            if let values = try scalars(decoder, header, index, {
                try decoder.decodeDouble(at: $0, node: node().appending(index: $1))
            }) { return _identityCast(values, to: Result.self) }
        case ObjectIdentifier(Int.self):
            if let values = try scalars(decoder, header, index, {
                try decoder.decodeInteger(Int.self, at: $0, node: node().appending(index: $1))
            }) { return _identityCast(values, to: Result.self) }
        case ObjectIdentifier(String.self):
            if let values = try scalars(decoder, header, index, {
                try decoder.decodeString(at: $0, node: node().appending(index: $1))
            }) { return _identityCast(values, to: Result.self) }
        default:
            break
        }
        var result: [Element] = []
        result.reserveCapacity(Int(header.start))
        let end = Int(header.length)
        var position = index + 1
        var count = 0
        while position < end {
            let next = tape.pointee.next(after: position)
            do {
                result.append(try decoder.decode(Element.self, at: position, node: node().appending(index: count)))
            } catch let error as DecodingError where !decoder.strict {
                unfitElement(error, decoder: decoder, node: node().appending(index: count), into: &result)
            }
            position = next
            count += 1
        }
        return _identityCast(result, to: Result.self)
    }
}

extension Array where Element: Decodable {
    /// The elements of the array `header` (at `index`), each read by `read` (given its token and its index), into
    /// a concrete array; `nil` when one doesn't fit in lenient mode, for the generic path to decode the array with
    /// its fallbacks (dropping the element, or `nil`, and telling the diagnostics handler).
    @inline(__always)
    static func scalars<Scalar>(
        _ decoder: TapeDecoder, _ header: Tape.Token, _ index: Int, _ read: (Int, Int) throws -> Scalar
    ) throws -> [Scalar]? {
        var values: [Scalar] = []
        values.reserveCapacity(Int(header.start))
        let end = Int(header.length)
        var position = index + 1
        var count = 0
        while position < end {
            do {
                values.append(try read(position, count))
            } catch is DecodingError where !decoder.strict {
                return nil
            }
            position = decoder.tape.pointee.next(after: position)
            count += 1
        }
        return values
    }

    /// An element that doesn't fit, in lenient mode: `nil` in `[T?]`, otherwise dropped; reported either way.
    @inline(never)
    static func unfitElement(
        _ error: DecodingError, decoder: TapeDecoder, node: CodingPathNode, into result: inout [Element]
    ) {
        if let none = (Element.self as? any OptionalNone.Type)?.none as? Element {
            result.append(none)
            decoder.context.report(decoder.pathPrefix, node, "\(error.summary); the element became nil")
        } else {
            decoder.context.report(decoder.pathPrefix, node, "\(error.summary); the element was dropped")
        }
    }
}

/// `[String: Value]`, decoded by the decoder itself, its keys as they are (whatever the key strategy, as
/// Foundation does); lenient mode drops the members that don't fit.
protocol LenientStringDictionary {
    /// The object at `index` as `Result`, which is `Self`; `node` is asked for only when a member needs it.
    static func decodeMembers<Result>(
        _ decoder: TapeDecoder, at index: Int, node: () -> CodingPathNode, as: Result.Type
    ) throws -> Result
}

extension Dictionary: LenientStringDictionary where Key == String, Value: Decodable {
    static func decodeMembers<Result>(
        _ decoder: TapeDecoder, at index: Int, node makeNode: () -> CodingPathNode, as: Result.Type
    ) throws -> Result {
        var path = LazyCodingPath()
        func node() -> CodingPathNode { path.node(makeNode) }
        guard index >= 0 else {
            if decoder.strict {
                throw DecodingError.valueNotFound(
                    [String: Value].self, .init(codingPath: node().path, debugDescription: "No value to decode"))
            }
            return _identityCast([String: Value](), to: Result.self)
        }
        let tape = decoder.tape
        let header = tape.pointee.tokens[index]
        guard header.kind == .object else {
            throw decoder.mismatch([String: Value].self, at: index, node: node(), found: header.kind)
        }
        var result: [String: Value] = [:]
        result.reserveCapacity(Int(header.start))
        let end = Int(header.length)
        var position = index + 1
        while position < end {
            let key = decoder.string(at: position)
            let next = tape.pointee.next(after: position + 1)
            do {
                let value = try decoder.decode(Value.self, at: position + 1, node: node().appending(NamedKey(key)))
                if result[key] == nil { result[key] = value }
            } catch let error as DecodingError where !decoder.strict {
                decoder.context.report(
                    decoder.pathPrefix, node().appending(NamedKey(key)), "\(error.summary); the member was dropped")
            }
            position = next
        }
        return _identityCast(result, to: Result.self)
    }
}

extension DecodingError {
    /// The error's sentence without its final period, for diagnostics.
    var summary: String {
        let sentence: String
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            sentence = context.debugDescription
        @unknown default:
            sentence = "\(self)"
        }
        return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }
}
