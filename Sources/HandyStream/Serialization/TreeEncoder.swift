import Foundation

/// The `Encoder` that fills an ``EncodableTree``. One encoder serves a whole value: encoding a member moves
/// ``slot`` and ``node`` and restores them, as the decoder does; containers remember their own node.
///
/// Coding paths are `JSONEncoder`'s, which are not always the path to the value: a container's own `codingPath` and
/// the path a custom key strategy is given include the keys of the nested containers it sits in, but a value encoded
/// through a container (and a `superEncoder`) gets the path of the encoder that made the outermost of them, its
/// ``TreeKeyedContainer/owner``, plus its own key or index; with a key strategy other than the default, a
/// `[String: Value]`'s members get the path of the encoder that encoded the dictionary plus their key. Errors and
/// custom keys then name what `JSONEncoder`'s name.
final class TreeEncoder: Encoder {
    let tree: EncodableTree
    var slot: Int
    var node: CodingPathNode
    /// The rules of the model whose `encode(to:)` runs, when its `mapping(mapper:)` says something (ModelRules.swift):
    /// the keyed containers it asks for write with them. Kept for the process's life by ``TypeRegistry``.
    private var rules: Unmanaged<ModelRules>?
    /// Values being encoded inside one another: capped by the options' depth (a cyclic class graph ends there).
    private var depth = 0
    /// What the thread's stack has room for (``StackBudget``), from where the encoder was made.
    private let stackBudget = StackBudget()

    init(tree: EncodableTree, slot: Int, node: CodingPathNode) {
        self.tree = tree
        self.slot = slot
        self.node = node
    }

    var codingPath: [any CodingKey] { node.path }
    var userInfo: [CodingUserInfoKey: Any] { tree.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let previous = tree.makeContainer(slot, object: true)
        if previous != .pending && previous != .object { tree.replaced(previous, by: .object, at: node.path) }
        return keyedEncodingContainer(
            .init(encoder: self, object: slot, node: node, owner: node, rules: rules), Key.self)
    }

    /// The keyed container over `parts`, made by the maker the tree keeps for `Key` (``KeyedContainerMakers``).
    @inline(__always)
    func keyedEncodingContainer<Key: CodingKey>(_ parts: TreeKeyedContainerParts, _: Key.Type)
        -> KeyedEncodingContainer<Key>
    {
        guard let known = tree.keyedMakers.pointee.maker(for: ObjectIdentifier(Key.self)) else {
            return _slowpath_keyedContainerMaker(Key.self).wrapped(parts)
        }
        return known.withInstance {
            unsafeDowncast($0, to: TreeKeyedContainerMaker<TreeKeyedContainer<Key>, KeyedEncodingContainer<Key>>.self)
        }
        .wrapped(parts)
    }

    /// Out of line: the maker type's metadata, which making it looks up, is asked for only here.
    @inline(never)
    private func _slowpath_keyedContainerMaker<Key: CodingKey>(_: Key.Type) -> TreeKeyedContainerMaker<
        TreeKeyedContainer<Key>, KeyedEncodingContainer<Key>
    > {
        tree.keyedMakers.pointee.keep(
            TreeKeyedContainerMaker<TreeKeyedContainer<Key>, KeyedEncodingContainer<Key>>(),
            for: ObjectIdentifier(Key.self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let previous = tree.makeContainer(slot, object: false)
        if previous != .pending && previous != .array { tree.replaced(previous, by: .array, at: node.path) }
        return TreeUnkeyedContainer(encoder: self, array: slot, node: node, owner: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TreeSingleValueContainer(encoder: self, slot: slot, node: node)
    }

    // MARK: Values

    func encodeDouble(_ value: Double, into index: Int, node: @autoclosure () -> CodingPathNode) throws {
        try encodeFloatingPoint(value, into: index, node: node) { try $0.double(value) }
        if value.isFinite { tree.keep(value, for: index) }
    }

    func encodeFloat(_ value: Float, into index: Int, node: @autoclosure () -> CodingPathNode) throws {
        try encodeFloatingPoint(value, into: index, node: node) { try $0.float(value) }
        if value.isFinite { tree.keep(value, for: index) }
    }

    /// A floating-point number by `write`, or infinity and NaN as the strings the non-conforming float strategy
    /// names (with `.throw`, ``EncodingOptions/nonFiniteNumbers`` decides, in `write`).
    @inline(__always)
    private func encodeFloatingPoint<F: BinaryFloatingPoint>(
        _ value: F, into index: Int, node: () -> CodingPathNode, _ write: (inout JSONWriter) throws -> Void
    ) throws {
        if !value.isFinite, tree.options.nonFiniteNumbers == .throwError,
            case .throw = tree.options.nonConformingFloatEncodingStrategy
        {
            throw Self.nonFinite(value, at: node().path)
        }
        try tree.setText(index) { text in
            if !value.isFinite,
                case .convertToString(let positive, let negative, let nan) =
                    tree.options.nonConformingFloatEncodingStrategy
            {
                text.string(value.isNaN ? nan : value < 0 ? negative : positive)
            } else {
                try write(&text)
            }
        }
    }

    /// What `JSONEncoder` throws for infinity or NaN without a strategy for them.
    @inline(never)
    static func nonFinite<F: BinaryFloatingPoint>(_ value: F, at path: [any CodingKey]) -> EncodingError {
        .invalidValue(
            value, .init(codingPath: path, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
    }

    /// Whether `text` is a JSON number (a `JSONValue` made by hand may hold anything).
    static func isNumberText(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { DecimalText(UnsafeRawBufferPointer($0)) != nil }
    }

    func encodeString(_ value: String, into index: Int) { tree.setText(index) { $0.string(value) } }
    func encodeBool(_ value: Bool, into index: Int) { tree.setText(index) { $0.bool(value) } }
    func encodeInteger<I: BinaryInteger>(_ value: I, into index: Int) {
        tree.setText(index) { $0.integer(value) }
        tree.keep(value, for: index)
    }
    func encodeNull(into index: Int) { tree.setText(index) { $0.null() } }

    /// Encodes `value` into the node `index`: scalars and Foundation's types directly (with the options'
    /// strategies), anything else by its `encode(to:)` (a model's with its `mapping(mapper:)`). `node` is the value's
    /// coding path: with `keyed`, the path of the encoder that encodes it plus the value's key or index (a
    /// container's member); without, that encoder's own path (a single value, the root, a dictionary's member).
    func encode<T: Encodable>(
        _ value: T, into index: Int, node: @autoclosure () -> CodingPathNode, keyed: Bool = false
    ) throws {
        // Exact type tests (`_identityCast` after an equal metatype costs nothing), then the few protocol tests.
        switch ObjectIdentifier(T.self) {
        case ObjectIdentifier(String.self): return encodeString(_identityCast(value, to: String.self), into: index)
        case ObjectIdentifier(Int.self): return encodeInteger(_identityCast(value, to: Int.self), into: index)
        case ObjectIdentifier(Double.self):
            return try encodeDouble(_identityCast(value, to: Double.self), into: index, node: node())
        case ObjectIdentifier(Float.self):
            return try encodeFloat(_identityCast(value, to: Float.self), into: index, node: node())
        case ObjectIdentifier(Bool.self): return encodeBool(_identityCast(value, to: Bool.self), into: index)
        case ObjectIdentifier(Int64.self): return encodeInteger(_identityCast(value, to: Int64.self), into: index)
        case ObjectIdentifier(UInt64.self): return encodeInteger(_identityCast(value, to: UInt64.self), into: index)
        case ObjectIdentifier(Date.self):
            return try encodeDate(_identityCast(value, to: Date.self), into: index, node: node())
        case ObjectIdentifier(Data.self):
            return try encodeData(_identityCast(value, to: Data.self), into: index, node: node())
        case ObjectIdentifier(URL.self):
            return encodeString(_identityCast(value, to: URL.self).absoluteString, into: index)
        case ObjectIdentifier(Decimal.self):
            let decimal = _identityCast(value, to: Decimal.self)
            try tree.setText(index) { try $0.decimal(decimal) }
            return tree.keep(decimal, for: index)
        case ObjectIdentifier(JSONValue.self):
            // A number's text as it is (its `encode(to:)` would go through Decimal or Double).
            if case .number(let text) = _identityCast(value, to: JSONValue.self), Self.isNumberText(text) {
                return tree.setText(index) { $0.numberText(text) }
            }
        default: break
        }
        switch tree.kind(of: T.self) {
        case .plain: break
        case .stringDictionary:
            if let dictionary = value as? any StringKeyedEncodable {
                let path = node()
                // Members' paths: the dictionary's, plus their key; under another key strategy, `JSONEncoder`
                // writes them through an encoder of its own, whose path is that of the encoder of the dictionary.
                let base = tree.options.keyEncodingStrategy.isDefault || !keyed ? path : path.parent
                return try nested(index, path) { try dictionary.encodeMembers(into: index, base: base, with: self) }
            }
        case .model(let rules):
            return try nested(index, node(), rules: rules) { try value.encode(to: self) }
        }
        try nested(index, node()) { try value.encode(to: self) }
    }

    /// Encodes `value` as a new child of the container `parent` (a member or an element, made by `child`); a value
    /// whose encoding throws leaves nothing there (see ``EncodableTree/dropLastChild(of:back:)``). Inlined, so that
    /// each container's call stays specialized for the value's type.
    @inline(__always)
    func encode<T: Encodable>(
        _ value: T, asChildOf parent: Int, _ child: () -> Int, node: @autoclosure () -> CodingPathNode
    ) throws {
        let previous = tree.lastChild(of: parent)
        do {
            try encode(value, into: child(), node: node(), keyed: true)
        } catch {
            tree.dropLastChild(of: parent, back: previous)
            throw error
        }
    }

    /// Runs `body` with the encoder at `index`, for a value whose mapping's rules are `rules`; a value that asked for
    /// no container is an empty object.
    private func nested(
        _ index: Int, _ node: CodingPathNode, rules: Unmanaged<ModelRules>? = nil, _ body: () throws -> Void
    ) throws {
        depth += 1
        defer { depth -= 1 }
        guard stackBudget.hasRoom(nesting: depth - 1) else {
            throw JSONEncodingError(message: StackExhausted(codingPath: node.path, call: "encode(to:)").description)
        }
        guard depth <= tree.options.maximumDepth else {
            throw EncodingError.invalidValue(
                0,
                .init(
                    codingPath: node.path,
                    debugDescription:
                        "nesting deeper than \(tree.options.maximumDepth) levels (a cycle in the object graph?)"))
        }
        let saved = (slot, self.node, self.rules)
        slot = index
        self.node = node
        self.rules = rules
        defer { (slot, self.node, self.rules) = saved }
        try body()
    }

    private func encodeDate(_ date: Date, into index: Int, node: CodingPathNode) throws {
        switch tree.options.dateEncodingStrategy {
        case .deferredToDate: try nested(index, node) { try date.encode(to: self) }
        case .secondsSince1970: try encodeDouble(date.timeIntervalSince1970, into: index, node: node)
        case .millisecondsSince1970: try encodeDouble(date.timeIntervalSince1970 * 1000, into: index, node: node)
        case .iso8601: encodeString(date.formatted(.iso8601), into: index)
        case .custom(let closure):
            try nested(index, node) { try closure(date, self) }
            tree.emptyObjectIfPending(index)
        @unknown default: try nested(index, node) { try date.encode(to: self) }
        }
    }

    private func encodeData(_ data: Data, into index: Int, node: CodingPathNode) throws {
        switch tree.options.dataEncodingStrategy {
        case .deferredToData: try nested(index, node) { try data.encode(to: self) }
        case .base64: encodeString(data.base64EncodedString(), into: index)
        case .custom(let closure):
            try nested(index, node) { try closure(data, self) }
            tree.emptyObjectIfPending(index)
        @unknown default: try nested(index, node) { try data.encode(to: self) }
        }
    }
}

/// `[String: Value]`, written member by member with its keys as they are.
protocol StringKeyedEncodable {
    /// Each member's coding path is `base` plus its key.
    func encodeMembers(into index: Int, base: CodingPathNode, with encoder: TreeEncoder) throws
}

extension Dictionary: StringKeyedEncodable where Key == String, Value: Encodable {
    func encodeMembers(into index: Int, base: CodingPathNode, with encoder: TreeEncoder) throws {
        encoder.tree.makeContainer(index, object: true)
        for (key, value) in self {
            try encoder.encode(
                value, into: encoder.tree.addVerbatim(to: index, key: key), node: base.appending(NamedKey(key)))
        }
    }
}

/// What a keyed container holds, whatever its key type.
struct TreeKeyedContainerParts {
    let encoder: TreeEncoder
    let object: Int
    /// The container's coding path: its encoder's, plus the keys of the nested containers it sits in.
    let node: CodingPathNode
    /// The coding path of the encoder that made the outermost of those containers: a member's path is this one plus
    /// its key (see ``TreeEncoder``).
    let owner: CodingPathNode
    /// The mapping's rules of the model whose `encode(to:)` made the container (its own keyed container only).
    var rules: Unmanaged<ModelRules>? = nil
}

/// What changes when a pooled keyed container is handed out again (``TreeKeyedContainerMaker``): its object and
/// paths. The container holds its encoder itself, as a constant (read without reference counting), and is handed
/// out again only for that encoder (one encoder serves a whole value; a super encoder is another, with a nesting
/// depth and a stack budget of its own, which the values encoded through the container must count against).
final class TreeKeyedState {
    let encoder: ObjectIdentifier
    var object: Int
    var node: CodingPathNode
    var owner: CodingPathNode
    var rules: Unmanaged<ModelRules>?

    init(_ parts: TreeKeyedContainerParts) {
        encoder = ObjectIdentifier(parts.encoder)
        object = parts.object
        node = parts.node
        owner = parts.owner
        rules = parts.rules
    }

    @inline(__always)
    func set(_ parts: TreeKeyedContainerParts) {
        object = parts.object
        node = parts.node
        owner = parts.owner
        rules = parts.rules
    }
}

/// A keyed container type over its encoder and a ``TreeKeyedState`` (``TreeKeyedContainerMaker``).
protocol TreeKeyedContainerMaking: KeyedEncodingContainerProtocol {
    init(_ encoder: TreeEncoder, _ state: TreeKeyedState)
}

/// Makes the `KeyedEncodingContainer`s of a keyed container type, and keeps them for use again, as the decoder's
/// makers do (KeyedContainerPool.swift): `KeyedEncodingContainer.init` boxes the container in a box of the standard
/// library's, whose type metadata the runtime looks up on every call, and allocates it, for every container. The
/// tree keeps one maker per key type (``KeyedContainerMakers``); the kept containers are a ``ContainerPool``.
///
/// A kept container is handed out again once nothing but the pool holds its box. It holds its encoder, which holds
/// the tree, which holds the maker: ``reclaim()`` lets the kept containers go when the value is written (a container
/// that user code kept holds the tree until it goes). `Wrapped` is `KeyedEncodingContainer<Container.Key>`,
/// named as a parameter of its own for the reason the decoder's maker gives.
final class TreeKeyedContainerMaker<Container: TreeKeyedContainerMaking, Wrapped>: KeyedContainerReclaiming {
    private var pool = ContainerPool<Wrapped, TreeKeyedState>(understood: KeyedContainerBox.encodingIsUnderstood)

    init() {
        precondition(Wrapped.self == KeyedEncodingContainer<Container.Key>.self, "TreeKeyedContainerMaker: Wrapped")
    }

    deinit { pool.deallocate() }

    /// A container over `parts`: a kept one of the same encoder that nothing else holds, set again, or a new one
    /// (kept while the pool has room).
    func wrapped(_ parts: TreeKeyedContainerParts) -> Wrapped {
        let encoder = ObjectIdentifier(parts.encoder)
        // A copy of the pool's handles: reading the property once, not around each call below.
        let pool = self.pool
        if let index = pool.free(accepting: { $0.encoder == encoder }) {
            pool.states[index]._withUnsafeGuaranteedRef { $0.set(parts) }
            return pool.containers[index]
        }
        return _slowpath_new(parts)
    }

    /// A new container, kept while the pool has room. Out of line: making one asks the runtime for
    /// `KeyedEncodingContainer<Container.Key>`'s metadata, which the code above then never does.
    @inline(never)
    private func _slowpath_new(_ parts: TreeKeyedContainerParts) -> Wrapped {
        let state = TreeKeyedState(parts)
        let container = unsafeBitCast(KeyedEncodingContainer(Container(parts.encoder, state)), to: Wrapped.self)
        pool.keep(container, state)
        return container
    }

    /// The value is written: the kept containers are let go (see above).
    func reclaim() {
        pool.containers.deinitialize(count: pool.count)
        pool.count = 0
    }

    /// The decoder's makers pass on to another decoder; an encoder's never do.
    func unbind() {}
}

/// A keyed container's member `key` in `object`, added to the tree. Outside ``TreeKeyedContainer`` so that a
/// closure calling it captures the container's fields and not the container: capturing a `TreeKeyedContainer<Key>`
/// asks the runtime for that type's metadata in unspecialized code, at every member.
private func treeMember<Key: CodingKey>(
    _ key: Key, of object: Int, node: CodingPathNode, in encoder: TreeEncoder
) -> Int {
    encoder.tree.addVerbatim(to: object, key: treeKeyName(key, node: node, in: encoder))
}

/// A model's member `key` in `object`, added to the tree as its mapping says (ModelRules.swift): under its first mapped
/// key, as declared, a dotted key in the nested objects it names; else as ``treeMember(_:of:node:in:)`` adds it. The
/// member of an excluded property is made outside the tree written (a root of its own), and never written.
private func mappedTreeMember<Key: CodingKey>(
    _ key: Key, _ rule: ModelRules.Rule?, of object: Int, node: CodingPathNode, in encoder: TreeEncoder
) -> Int {
    if rule?.isExcluded == true { return encoder.tree.add(to: -1, key: nil) }
    let place = mappedPlace(key, rule, of: object, node: node, in: encoder)
    return encoder.tree.addVerbatim(to: place.parent, key: place.key)
}

/// Where a model's member goes: the object its first mapped key leads to (the levels of a dotted key made as they are
/// needed, and shared with the other keys under them) and the key written there, as declared; without a mapped key,
/// `object` and the key under the key strategy.
private func mappedPlace<Key: CodingKey>(
    _ key: Key, _ rule: ModelRules.Rule?, of object: Int, node: CodingPathNode, in encoder: TreeEncoder
) -> (parent: Int, key: String) {
    guard let first = rule?.keys?.first else { return (object, treeKeyName(key, node: node, in: encoder)) }
    let segments = DesignatedPath.mappedKey(first).map { String(decoding: $0, as: UTF8.self) }
    guard let last = segments.last else { return (object, first) }
    var parent = object
    for segment in segments.dropLast() { parent = encoder.tree.objectMember(of: parent, key: segment) }
    return (parent, last)
}

/// The key as written: under the key strategy, which a custom one applies to the path to the member (`node`, the
/// container's path, plus the key).
private func treeKeyName<Key: CodingKey>(_ key: Key, node: CodingPathNode, in encoder: TreeEncoder) -> String {
    if encoder.tree.options.keyEncodingStrategy.isDefault { return key.stringValue }
    return encoder.tree.converted(key.stringValue) { node.path + [key] }
}

struct TreeKeyedContainer<Key: CodingKey>: TreeKeyedContainerMaking {
    let encoder: TreeEncoder
    private let state: TreeKeyedState

    init(_ encoder: TreeEncoder, _ state: TreeKeyedState) {
        self.encoder = encoder
        self.state = state
    }

    var object: Int { @inline(__always) get { state.object } }
    /// See ``TreeKeyedContainerParts``.
    var node: CodingPathNode { @inline(__always) get { state.node } }
    var owner: CodingPathNode { @inline(__always) get { state.owner } }
    var rules: Unmanaged<ModelRules>? { @inline(__always) get { state.rules } }

    var codingPath: [any CodingKey] { node.path }

    private func member(_ key: Key) -> Int {
        guard let rules else { return treeMember(key, of: object, node: node, in: encoder) }
        return mappedTreeMember(key, rules.takeUnretainedValue().rule(for: key), of: object, node: node, in: encoder)
    }

    /// A member of a container whose type's mapping says nothing (``rules`` is `nil`, checked by the caller).
    @inline(__always)
    private func unmappedMember(_ key: Key) -> Int { treeMember(key, of: object, node: node, in: encoder) }

    private func keyName(_ key: Key) -> String { treeKeyName(key, node: node, in: encoder) }

    mutating func encodeNil(forKey key: Key) throws { encoder.encodeNull(into: member(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        guard rules == nil else { return try encodeMapped(value, forKey: key) }
        encoder.encodeBool(value, into: unmappedMember(key))
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        guard rules == nil else { return try encodeMapped(value, forKey: key) }
        encoder.encodeString(value, into: unmappedMember(key))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encodeMember(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encodeMember(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try integer(value, key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encodeMember(value, forKey: key) }

    @inline(__always)
    private func integer<I: BinaryInteger & Encodable>(_ value: I, _ key: Key) throws {
        guard rules == nil else { return try encodeMapped(value, forKey: key) }
        encoder.encodeInteger(value, into: unmappedMember(key))
    }

    /// The closures capture the fields they need, not `self` (see ``treeMember(_:of:node:in:)``).
    private func encodeMember<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard rules == nil else { return try encodeMapped(value, forKey: key) }
        let (encoder, object, node, owner) = (self.encoder, self.object, self.node, self.owner)
        try encoder.encode(
            value, asChildOf: object, { treeMember(key, of: object, node: node, in: encoder) },
            node: owner.appending(key))
    }

    /// A member of a model whose mapping says something (ModelRules.swift): an excluded property is left out, a
    /// transformed one written as its transform makes it (left out when it makes nothing, unless the options write
    /// `nil` as `null`), each under its mapped key.
    @inline(never)
    private func encodeMapped<T: Encodable>(_ value: T, forKey key: Key) throws {
        let rule = rules?.takeUnretainedValue().rule(for: key)
        if rule?.isExcluded == true { return }
        let (encoder, object, node, owner) = (self.encoder, self.object, self.node, self.owner)
        let place = mappedPlace(key, rule, of: object, node: node, in: encoder)
        guard let transform = rule?.transform, transform.applies(to: T.self) else {
            return try encoder.encode(
                value, asChildOf: place.parent, { encoder.tree.addVerbatim(to: place.parent, key: place.key) },
                node: owner.appending(key))
        }
        guard let json = transform.json(of: value) else {
            if encoder.tree.options.nilEncoding == .null {
                encoder.encodeNull(into: encoder.tree.addVerbatim(to: place.parent, key: place.key))
            }
            return
        }
        let written = try JSONValue.written(json, options: encoder.tree.options)
        try encoder.encode(
            written, asChildOf: place.parent, { encoder.tree.addVerbatim(to: place.parent, key: place.key) },
            node: owner.appending(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let index = nested(key, object: true)
        return encoder.keyedEncodingContainer(
            .init(encoder: encoder, object: index, node: node.appending(key), owner: owner), NestedKey.self)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let index = nested(key, object: false)
        return TreeUnkeyedContainer(encoder: encoder, array: index, node: node.appending(key), owner: owner)
    }

    /// The node of a nested container: the one already made for `key` when there is one of the same kind (a
    /// subclass adding to its parent's container, as `JSONEncoder` does), else a new one. Asking for a keyed and an
    /// unkeyed container under the same key is a programmer error, which stops the program as in `JSONEncoder`; a
    /// container under a key whose value is already encoded stops it there too, and here is the run's error
    /// (``EncodableTree/replaced(_:by:at:)``; the new container is never written).
    private func nested(_ key: Key, object: Bool) -> Int {
        if let existing = encoder.tree.member(of: self.object, key: keyName(key)) {
            switch encoder.tree.nodes[existing].kind {
            case .object where object, .array where !object:
                return existing
            case .object:
                preconditionFailure("For key \"\(key.stringValue)\" a keyed container has already been created.")
            case .array:
                preconditionFailure("For key \"\(key.stringValue)\" a unkeyed container has already been created.")
            case .text:
                encoder.tree.replaced(.text, by: object ? .object : .array, at: node.appending(key).path)
            case .pending:
                break
            }
        }
        let index = member(key)
        encoder.tree.makeContainer(index, object: object)
        return index
    }

    /// Under the key `super`, converted by the key strategy as any key of this container is.
    mutating func superEncoder() -> any Encoder {
        let key = NamedKey("super")
        return TreeEncoder(
            tree: encoder.tree, slot: treeMember(key, of: object, node: node, in: encoder), node: owner.appending(key))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(tree: encoder.tree, slot: member(key), node: owner.appending(key))
    }
}

struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let array: Int
    /// As ``TreeKeyedContainer``'s: the container's coding path, and the path an element's is made from.
    let node: CodingPathNode
    let owner: CodingPathNode
    /// The array's elements so far: a second container over the same array (asked for again from the same encoder,
    /// or under the same key) counts on from the first's, as `JSONEncoder`'s do.
    var count: Int { encoder.tree.childCount(array) }

    init(encoder: TreeEncoder, array: Int, node: CodingPathNode, owner: CodingPathNode) {
        self.encoder = encoder
        self.array = array
        self.node = node
        self.owner = owner
    }

    var codingPath: [any CodingKey] { node.path }

    private func element() -> Int { encoder.tree.add(to: array, key: nil) }

    mutating func encodeNil() throws { encoder.encodeNull(into: element()) }
    mutating func encode(_ value: Bool) throws { encoder.encodeBool(value, into: element()) }
    mutating func encode(_ value: String) throws { encoder.encodeString(value, into: element()) }
    mutating func encode(_ value: Double) throws { try encodeElement(value) }
    mutating func encode(_ value: Float) throws { try encodeElement(value) }
    mutating func encode(_ value: Int) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: Int8) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: Int16) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: Int32) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: Int64) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: UInt) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: UInt8) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: UInt16) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: UInt32) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: UInt64) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: Int128) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode(_ value: UInt128) throws { encoder.encodeInteger(value, into: element()) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeElement(value) }

    private func encodeElement<T: Encodable>(_ value: T) throws {
        let position = count  // before the element is added, which counts it
        try encoder.encode(value, asChildOf: array, { element() }, node: owner.appending(index: position))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let position = count
        let index = element()
        encoder.tree.makeContainer(index, object: true)
        return encoder.keyedEncodingContainer(
            .init(encoder: encoder, object: index, node: node.appending(index: position), owner: owner),
            NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let position = count
        let index = element()
        encoder.tree.makeContainer(index, object: false)
        return TreeUnkeyedContainer(
            encoder: encoder, array: index, node: node.appending(index: position), owner: owner)
    }

    mutating func superEncoder() -> any Encoder {
        let position = count
        return TreeEncoder(tree: encoder.tree, slot: element(), node: owner.appending(index: position))
    }
}

struct TreeSingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    let slot: Int
    let node: CodingPathNode

    var codingPath: [any CodingKey] { node.path }

    mutating func encodeNil() throws { encoder.encodeNull(into: slot) }
    mutating func encode(_ value: Bool) throws { encoder.encodeBool(value, into: slot) }
    mutating func encode(_ value: String) throws { encoder.encodeString(value, into: slot) }
    mutating func encode(_ value: Double) throws { try encoder.encodeDouble(value, into: slot, node: node) }
    mutating func encode(_ value: Float) throws { try encoder.encodeFloat(value, into: slot, node: node) }
    mutating func encode(_ value: Int) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: Int8) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: Int16) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: Int32) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: Int64) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: UInt) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: UInt8) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: UInt16) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: UInt32) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: UInt64) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: Int128) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: UInt128) throws { encoder.encodeInteger(value, into: slot) }
    /// A value whose encoding throws keeps what it wrote before it threw, as in `JSONEncoder`, where a value
    /// encoded through a single value container writes into the same encoder; one that encodes nothing is an empty
    /// object, as there (so a top-level value that encodes only such a value encodes `{}`).
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encode(value, into: slot, node: node)
        encoder.tree.emptyObjectIfPending(slot)
    }
}
