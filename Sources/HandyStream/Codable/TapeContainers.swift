import Foundation

// The `Decoder`'s containers. Every call first does what `JSONDecoder` does. In rescue mode (Rescue.swift), a call on
// the way to a rescued place decodes in rescue mode and, if that fails, puts lenient mode's fallback in its place
// (``TapeDecoder/replacement(for:_:key:defaults:node:)``), told to the diagnostics handler.

/// A keyed container over a ``TapeKeyedState``, its only field: the standard library's box copies the container on
/// every member, and this copy is one retain.
struct TapeKeyedContainer<Key: CodingKey>: TapeKeyedContainerMaking {
    private let state: TapeKeyedState

    init(_ state: TapeKeyedState) { self.state = state }

    var decoder: TapeDecoder { @inline(__always) get { state.decoder } }
    var object: Int { @inline(__always) get { state.object } }
    var node: CodingPathNode { @inline(__always) get { state.node } }
    var mapping: ModelRules? { @inline(__always) get { state.mapping } }
    var rescue: ContainerRescue? { @inline(__always) get { state.rescue } }

    var codingPath: [any CodingKey] { node.path }

    /// The object's keys, each once (the first of duplicates counts, as in `JSONDecoder`).
    var allKeys: [Key] {
        guard object >= 0 else { return [] }
        var keys: [Key] = []
        var seen = Set<String>()
        decoder.forEachMember(ofObjectAt: object) { position in
            let name = decoder.documentKey(at: position, path: node.path)
            if seen.insert(name).inserted, let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { find(key, decoder) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let index = find(key, decoder) else {
            if let rescue, rescue.route(RescueStep(key)) != nil { return true }
            throw keyNotFound(key)
        }
        return decoder.kind(at: index) == .null
    }

    private func keyNotFound(_ key: Key) -> DecodingError {
        decoder.errorToken = object
        return DecodingError.keyNotFound(
            key,
            .init(
                codingPath: node.path,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }

    @inline(__always)
    private func find(_ key: Key, _ decoder: TapeDecoder) -> Int? {
        if state.keysAreLiteral {
            guard object >= 0 else { return nil }
            let names = state.names
            if names.byByte {
                let byte = ByteKey.byte(of: key)
                if let name = names.name(ofByte: byte) ?? names.keep(key.stringValue, forByte: byte) {
                    return decoder.member(name, in: object)
                }
            }
            return decoder.member(named: key, in: object)
        }
        return decoder.lookUp(key, in: object, mapping: mapping, path: { node.path })
    }

    /// The decoder unretained (``TapeKeyedState/unretainedDecoder``), for the hot paths.
    @inline(__always)
    private func withDecoder<Result>(_ body: (TapeDecoder) throws -> Result) rethrows -> Result {
        try state.unretainedDecoder._withUnsafeGuaranteedRef(body)
    }

    /// `read` takes the decoder, the value's token and its rescue request.
    @inline(__always)
    private func member<T: Decodable>(
        _: T.Type, _ key: Key, _ read: (TapeDecoder, Int, RescueRequest?) throws -> T
    ) throws -> T {
        if state.mapping != nil { return try mappedMember(T.self, key, read) }
        return try plainMember(T.self, key, read)
    }

    @inline(__always)
    private func plainMember<T: Decodable>(
        _: T.Type, _ key: Key, _ read: (TapeDecoder, Int, RescueRequest?) throws -> T
    ) throws -> T {
        if let rescue { return try rescuedMember(T.self, key, rescue) { try read(decoder, $0, $1) } }
        return try withDecoder { decoder in
            guard let index = find(key, decoder) else {
                throw keyNotFound(key)
            }
            return try read(decoder, index, nil)
        }
    }

    // Out of line: they work with `T?`, whose metadata generic code would otherwise fetch on every member.

    @inline(never)
    private func rescuedMember<T: Decodable>(
        _: T.Type, _ key: Key, _ rescue: ContainerRescue, _ read: (Int, RescueRequest?) throws -> T
    ) throws -> T {
        let index = find(key, decoder)
        guard let request = rescue.route(RescueStep(key)) else {
            guard let index else { throw keyNotFound(key) }
            return try read(index, nil)
        }
        do {
            guard let index else { throw keyNotFound(key) }
            return try read(index, request)
        } catch let error as any RescuableFailure {
            return try decoder.replacement(
                for: error, T.self, key: key, defaults: rescue.path.isEmpty ? rescue.defaults : nil,
                node: node.appending(key))
        }
    }

    /// An excluded property keeps what `init()` gives it, the document unread; mapped keys are found by
    /// ``TapeDecoder/lookUp(_:in:mapping:path:)``.
    @inline(never)
    private func mappedMember<T: Decodable>(
        _: T.Type, _ key: Key, _ read: (TapeDecoder, Int, RescueRequest?) throws -> T
    ) throws -> T {
        guard let rule = mapping?.rule(for: key) else { return try plainMember(T.self, key, read) }
        if rule.isExcluded {
            guard let value = rule.initialValue() as? T else { throw keyNotFound(key) }
            return value
        }
        guard let transform = rule.transform, transform.applies(to: T.self) else {
            return try plainMember(T.self, key, read)
        }
        let node = node
        return try plainMember(T.self, key) { decoder, index, _ in
            try decoder.transformed(T.self, at: index, transform, node: node.appending(key))
        }
    }

    /// `nil` when missing or `null` (as `JSONDecoder`), and in rescue mode when it can't be rescued.
    @inline(__always)
    private func optionalMember<T: Decodable>(
        _: T.Type, _ key: Key, _ read: (TapeDecoder, Int, RescueRequest?) throws -> T
    ) throws -> T? {
        if state.mapping != nil { return try mappedOptionalMember(T.self, key, read) }
        return try plainOptionalMember(T.self, key, read)
    }

    @inline(never)
    private func mappedOptionalMember<T: Decodable>(
        _: T.Type, _ key: Key, _ read: (TapeDecoder, Int, RescueRequest?) throws -> T
    ) throws -> T? {
        guard let rule = mapping?.rule(for: key) else { return try plainOptionalMember(T.self, key, read) }
        if rule.isExcluded { return rule.initialValue() as? T }
        guard let transform = rule.transform, transform.applies(to: T.self) else {
            return try plainOptionalMember(T.self, key, read)
        }
        let node = node
        return try plainOptionalMember(T.self, key) { decoder, index, _ in
            try decoder.transformed(T.self, at: index, transform, node: node.appending(key))
        }
    }

    @inline(__always)
    private func plainOptionalMember<T: Decodable>(
        _: T.Type, _ key: Key, _ read: (TapeDecoder, Int, RescueRequest?) throws -> T
    ) throws -> T? {
        try withDecoder { decoder in
            guard let index = find(key, decoder),
                decoder.kind(at: index) != .null
            else { return nil }
            if let rescue { return try rescuedOptionalMember(T.self, key, index, rescue) { try read(decoder, $0, $1) } }
            return try read(decoder, index, nil)
        }
    }

    @inline(never)
    private func rescuedOptionalMember<T: Decodable>(
        _: T.Type, _ key: Key, _ index: Int, _ rescue: ContainerRescue, _ read: (Int, RescueRequest?) throws -> T
    ) throws -> T? {
        guard let request = rescue.route(RescueStep(key)) else { return try read(index, nil) }
        do {
            return try read(index, request)
        } catch let error as any RescuableFailure {
            decoder.context.report(decoder.pathPrefix, node.appending(key), "\(error.summary); the value became nil")
            return nil
        }
    }

    // The closures capture the node and the key, not `self`, whose metadata would be looked up on every member.

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let node = node
        return try member(type, key) { try $0.decodeBool(at: $1, node: node.appending(key), convert: $2 != nil) }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let node = node
        return try member(type, key) { try $0.decodeString(at: $1, node: node.appending(key), convert: $2 != nil) }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let node = node
        return try member(type, key) { try $0.decodeDouble(at: $1, node: node.appending(key), convert: $2 != nil) }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        let node = node
        return try member(type, key) { try $0.decodeFloat(at: $1, node: node.appending(key), convert: $2 != nil) }
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
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(type, key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let node = node
        return try member(type, key) { try $0.decode(T.self, at: $1, node: node.appending(key), rescue: $2) }
    }

    @inline(__always)
    private func integer<I: FixedWidthInteger & Decodable>(_ type: I.Type, _ key: Key) throws -> I {
        let node = node
        return try member(type, key) {
            try $0.decodeInteger(I.self, at: $1, node: node.appending(key), convert: $2 != nil)
        }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        let node = node
        return try optionalMember(type, key) {
            try $0.decodeBool(at: $1, node: node.appending(key), convert: $2 != nil)
        }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        let node = node
        return try optionalMember(type, key) {
            try $0.decodeString(at: $1, node: node.appending(key), convert: $2 != nil)
        }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        let node = node
        return try optionalMember(type, key) {
            try $0.decodeDouble(at: $1, node: node.appending(key), convert: $2 != nil)
        }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        let node = node
        return try optionalMember(type, key) {
            try $0.decodeFloat(at: $1, node: node.appending(key), convert: $2 != nil)
        }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try optionalInteger(type, key) }

    @inline(__always)
    private func optionalInteger<I: FixedWidthInteger & Decodable>(_ type: I.Type, _ key: Key) throws -> I? {
        let node = node
        return try optionalMember(type, key) {
            try $0.decodeInteger(I.self, at: $1, node: node.appending(key), convert: $2 != nil)
        }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let node = node
        return try optionalMember(type, key) { try $0.decode(T.self, at: $1, node: node.appending(key), rescue: $2) }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let inner = rescue?.inner(RescueStep(key))
        let index = try nestedIndex(key, inner)
        let here = node.appending(key)
        let object = try decoder.nested(inner, at: here) {
            try decoder.keyedObject(at: $0 ? -1 : index, node: here, absentAllowed: $0)
        }
        return decoder.keyedDecodingContainer(at: object, node: here, mapping: nil, rescue: inner, NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let inner = rescue?.inner(RescueStep(key))
        let index = try nestedIndex(key, inner)
        let here = node.appending(key)
        return try decoder.nested(inner, at: here) {
            try decoder.unkeyed(at: $0 ? -1 : index, node: here, rescue: inner, absentAllowed: $0)
        }
    }

    /// -1 when missing at a rescued place.
    private func nestedIndex(_ key: Key, _ inner: ContainerRescue?) throws -> Int {
        if let index = find(key, decoder) { return index }
        guard let inner, inner.route(nil) != nil else { throw keyNotFound(key) }
        return -1
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(
            at: decoder.lookUp(NamedKey("super"), in: object, mapping: nil, path: { node.path }), key: NamedKey("super")
        )
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(at: find(key, decoder), key: key)
    }

    private func superDecoder(at index: Int?, key: any CodingKey) throws -> any Decoder {
        decoder.detached(at: index ?? -1, node: node.appending(key), rescue: rescue?.inner(RescueStep(key)))
    }
}

struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    /// -1: absent, no elements.
    let array: Int
    let count: Int?
    let node: CodingPathNode
    let rescue: ContainerRescue?
    private(set) var currentIndex = 0
    /// The token of the next element.
    private var position: Int

    init(decoder: TapeDecoder, array: Int, count: Int, node: CodingPathNode, rescue: ContainerRescue?) {
        self.decoder = decoder
        self.array = array
        self.count = count
        self.node = node
        self.rescue = rescue
        position = array + 1
    }

    var codingPath: [any CodingKey] { node.path }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private mutating func advance() {
        position = decoder.tape.pointee.next(after: position)
        currentIndex += 1
    }

    /// `JSONDecoder`'s error past the end, of the type asked for.
    private func atEnd(_ type: Any.Type) -> DecodingError {
        decoder.errorToken = array
        let message =
            type == (any Decoder).self
            ? "Cannot get superDecoder() -- unkeyed container is at end." : "Unkeyed container is at end."
        return DecodingError.valueNotFound(
            type, .init(codingPath: node.appending(index: currentIndex).path, debugDescription: message))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw atEnd(Never.self) }
        if decoder.kind(at: position) == .null {
            advance()
            return true
        }
        return false
    }

    /// The container moves on only when the element was read, as `JSONDecoder`'s does.
    private mutating func element<T: Decodable>(
        _: T.Type, _ read: (TapeDecoder, Int, CodingPathNode, RescueRequest?) throws -> T
    ) throws -> T {
        guard !isAtEnd else { throw atEnd(T.self) }
        let here = node.appending(index: currentIndex)
        guard let rescue, let request = rescue.route(.index(currentIndex)) else {
            let value = try read(decoder, position, here, nil)
            advance()
            return value
        }
        do {
            let value = try read(decoder, position, here, request)
            advance()
            return value
        } catch let error as any RescuableFailure {
            let value = try decoder.replacement(for: error, T.self, key: nil, defaults: nil, node: here)
            advance()
            return value
        }
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try element(type) { try $0.decodeBool(at: $1, node: $2, convert: $3 != nil) }
    }
    mutating func decode(_ type: String.Type) throws -> String {
        try element(type) { try $0.decodeString(at: $1, node: $2, convert: $3 != nil) }
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        try element(type) { try $0.decodeDouble(at: $1, node: $2, convert: $3 != nil) }
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        try element(type) { try $0.decodeFloat(at: $1, node: $2, convert: $3 != nil) }
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
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try element(type) { try $0.decode(T.self, at: $1, node: $2, rescue: $3) }
    }

    @inline(__always)
    private mutating func integer<I: FixedWidthInteger & Decodable>(_ type: I.Type) throws -> I {
        try element(type) { try $0.decodeInteger(I.self, at: $1, node: $2, convert: $3 != nil) }
    }

    /// As `JSONDecoder`: past the end, `nil` and one more index (the protocol's default doesn't count it, so each
    /// overload is written out).
    private mutating func ifPresent<T>(_ decode: (inout Self) throws -> T) throws -> T? {
        if isAtEnd {
            currentIndex += 1
            return nil
        }
        if try decodeNil() { return nil }
        return try decode(&self)
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try ifPresent { try $0.decode(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        guard !isAtEnd else { throw atEnd(KeyedDecodingContainer<NestedKey>.self) }
        let inner = rescue?.inner(.index(currentIndex))
        let here = node.appending(index: currentIndex)
        let position = self.position
        let object = try decoder.nested(inner, at: here) {
            try decoder.keyedObject(at: $0 ? -1 : position, node: here, absentAllowed: $0)
        }
        advance()
        return decoder.keyedDecodingContainer(at: object, node: here, mapping: nil, rescue: inner, NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard !isAtEnd else { throw atEnd((any UnkeyedDecodingContainer).self) }
        let inner = rescue?.inner(.index(currentIndex))
        let here = node.appending(index: currentIndex)
        let position = self.position
        let container = try decoder.nested(inner, at: here) {
            try decoder.unkeyed(at: $0 ? -1 : position, node: here, rescue: inner, absentAllowed: $0)
        }
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        guard !isAtEnd else { throw atEnd((any Decoder).self) }
        let child = decoder.detached(
            at: position, node: node.appending(index: currentIndex), rescue: rescue?.inner(.index(currentIndex)))
        advance()
        return child
    }
}

struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    /// -1: absent, a value made from nothing.
    let index: Int
    let node: CodingPathNode
    let rescue: ContainerRescue?

    var codingPath: [any CodingKey] { node.path }

    func decodeNil() -> Bool { decoder.kind(at: index) == .null }

    @inline(__always)
    private func value<T: Decodable>(_: T.Type, _ read: (RescueRequest?) throws -> T) throws -> T {
        guard let rescue, let request = rescue.route(nil) else { return try read(nil) }
        do {
            return try read(request)
        } catch let error as any RescuableFailure {
            return try decoder.replacement(for: error, T.self, key: nil, defaults: nil, node: node)
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try value(type) { try decoder.decodeBool(at: index, node: node, convert: $0 != nil) }
    }
    func decode(_ type: String.Type) throws -> String {
        try value(type) { try decoder.decodeString(at: index, node: node, convert: $0 != nil) }
    }
    func decode(_ type: Double.Type) throws -> Double {
        try value(type) { try decoder.decodeDouble(at: index, node: node, convert: $0 != nil) }
    }
    func decode(_ type: Float.Type) throws -> Float {
        try value(type) { try decoder.decodeFloat(at: index, node: node, convert: $0 != nil) }
    }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try value(type) { try decoder.decode(T.self, at: index, node: node, rescue: $0) }
    }

    @inline(__always)
    private func integer<I: FixedWidthInteger & Decodable>(_ type: I.Type) throws -> I {
        try value(type) { try decoder.decodeInteger(I.self, at: index, node: node, convert: $0 != nil) }
    }
}

extension UnsafeMutablePointer<CodingPathNode?> {
    /// A container's coding path, made at most once and only when needed, kept where this points: a captured local
    /// variable would be boxed on the heap, once per container.
    @inline(__always)
    func node(_ make: () -> CodingPathNode) -> CodingPathNode {
        if let node = pointee { return node }
        let node = make()
        pointee = node
        return node
    }
}

extension DecodingError {
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
