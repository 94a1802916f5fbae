import Foundation

/// The `Encoder` that fills an ``EncodableTree``; a member moves ``slot`` and ``node`` and restores them. Coding paths
/// are `JSONEncoder`'s, not always the path to the value: a value in nested containers gets the path of the encoder
/// that made the outermost (``TreeKeyedContainer/owner``) plus its own key or index.
final class TreeEncoder: Encoder {
    let tree: EncodableTree
    var slot: Int
    var node: CodingPathNode
    /// The running model's mapping; unretained, as ``TypeRegistry`` keeps it for the process's life.
    private var rules: Unmanaged<ModelRules>?
    /// Capped by the options' depth, where a cyclic class graph ends.
    private var depth = 0
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

    /// Made by the maker the tree keeps for `Key` (``KeyedContainerMakers``).
    @inline(__always)
    func keyedEncodingContainer<Key: CodingKey>(_ parts: TreeKeyedContainerParts, _: Key.Type)
        -> KeyedEncodingContainer<Key>
    {
        guard let known = tree.keyedMakers.pointee.maker(for: ObjectIdentifier(Key.self)) else {
            return _slowpath_keyedContainerMaker(Key.self).wrapped(parts)
        }
        return known.withInstance { unsafeDowncast($0, to: KeyedMaker<Key>.self) }.wrapped(parts)
    }

    private typealias KeyedMaker<Key: CodingKey> = TreeKeyedContainerMaker<
        TreeKeyedContainer<Key>, KeyedEncodingContainer<Key>
    >

    /// Out of line: only here is the maker type's metadata looked up.
    @inline(never)
    private func _slowpath_keyedContainerMaker<Key: CodingKey>(_: Key.Type) -> KeyedMaker<Key> {
        tree.keyedMakers.pointee.keep(KeyedMaker<Key>(), for: ObjectIdentifier(Key.self))
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

    /// A `Double` or `Float`. Non-finite values as the float strategy says; with `.throw`,
    /// ``EncodingOptions/nonFiniteNumbers`` decides.
    func encodeFloatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: F, into index: Int, node: @autoclosure () -> CodingPathNode
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
                try text.floatingPoint(value)
            }
        }
        if value.isFinite { tree.keep(value, for: index) }
    }

    /// What `JSONEncoder` throws for infinity or NaN without a strategy for them.
    @inline(never)
    static func nonFinite<F: BinaryFloatingPoint>(_ value: F, at path: [any CodingKey]) -> EncodingError {
        .invalidValue(
            value, .init(codingPath: path, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
    }

    func encodeString(_ value: String, into index: Int) { tree.setText(index) { $0.string(value) } }
    func encodeBool(_ value: Bool, into index: Int) { tree.setText(index) { $0.bool(value) } }
    func encodeInteger<I: BinaryInteger>(_ value: I, into index: Int) {
        tree.setText(index) { $0.integer(value) }
        tree.keep(value, for: index)
    }
    func encodeNull(into index: Int) { tree.setText(index) { $0.null() } }

    /// Encodes `value` into the node `index`. `keyed`: `node` is a container member's path (its owner's plus its
    /// key), not an encoder's own path.
    func encode<T: Encodable>(
        _ value: T, into index: Int, node: @autoclosure () -> CodingPathNode, keyed: Bool = false
    ) throws {
        // `_identityCast` after an equal metatype is free.
        switch ObjectIdentifier(T.self) {
        case ObjectIdentifier(String.self): return encodeString(_identityCast(value, to: String.self), into: index)
        case ObjectIdentifier(Int.self): return encodeInteger(_identityCast(value, to: Int.self), into: index)
        case ObjectIdentifier(Double.self):
            return try encodeFloatingPoint(_identityCast(value, to: Double.self), into: index, node: node())
        case ObjectIdentifier(Float.self):
            return try encodeFloatingPoint(_identityCast(value, to: Float.self), into: index, node: node())
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
            // Its `encode(to:)` would go through Decimal or Double. Only a JSON number's text (a `JSONValue` made by
            // hand may hold anything).
            if case .number(var text) = _identityCast(value, to: JSONValue.self),
                text.withUTF8({ DecimalText(UnsafeRawBufferPointer($0)) != nil })
            {
                return tree.setText(index) { $0.numberText(text) }
            }
        default: break
        }
        switch tree.kind(of: T.self) {
        case .plain: break
        case .stringDictionary:
            if let dictionary = value as? any StringKeyedEncodable {
                let path = node()
                // Under another key strategy, `JSONEncoder` gives members the dictionary encoder's path.
                let base = tree.options.keyEncodingStrategy.isDefault || !keyed ? path : path.parent
                return try nested(index, path) { try dictionary.encodeMembers(into: index, base: base, with: self) }
            }
        case .model(let rules):
            return try nested(index, node(), rules: rules) { try value.encode(to: self) }
        }
        try nested(index, node()) { try value.encode(to: self) }
    }

    /// A value whose encoding throws leaves nothing there. Inlined, so that each call stays specialized.
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

    /// Runs `body` with the encoder at `index` and `rules`, checking depth and stack.
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
        case .secondsSince1970: try encodeFloatingPoint(date.timeIntervalSince1970, into: index, node: node)
        case .millisecondsSince1970:
            try encodeFloatingPoint(date.timeIntervalSince1970 * 1000, into: index, node: node)
        case .iso8601: encodeString(date.formatted(.iso8601), into: index)
        case .custom(let closure):
            try nested(index, node) { try closure(date, self) }
            tree.emptyObjectIfPending(index)
        default: try nested(index, node) { try date.encode(to: self) }  // `.deferredToDate`
        }
    }

    private func encodeData(_ data: Data, into index: Int, node: CodingPathNode) throws {
        switch tree.options.dataEncodingStrategy {
        case .base64: encodeString(data.base64EncodedString(), into: index)
        case .custom(let closure):
            try nested(index, node) { try closure(data, self) }
            tree.emptyObjectIfPending(index)
        default: try nested(index, node) { try data.encode(to: self) }  // `.deferredToData`
        }
    }
}

/// `[String: Value]`, written member by member with its keys as they are.
protocol StringKeyedEncodable {
    func encodeMembers(into index: Int, base: CodingPathNode, with encoder: TreeEncoder) throws
}

extension Dictionary: StringKeyedEncodable where Key == String, Value: Encodable {
    func encodeMembers(into index: Int, base: CodingPathNode, with encoder: TreeEncoder) throws {
        encoder.tree.makeContainer(index, object: true)
        for (key, value) in self {
            try encoder.encode(
                value, into: encoder.tree.add(to: index, key: key), node: base.appending(NamedKey(key)))
        }
    }
}

/// What a keyed container holds, whatever its key type.
struct TreeKeyedContainerParts {
    let encoder: TreeEncoder
    let object: Int
    /// The container's coding path: its encoder's, plus the keys of the containers it sits in.
    let node: CodingPathNode
    /// The path of the encoder that made the outermost container, to which a member adds its key.
    let owner: CodingPathNode
    /// Set only on a model's own keyed container.
    var rules: Unmanaged<ModelRules>? = nil
}

/// What changes when a pooled keyed container is handed out again. A container is reused only for its own encoder,
/// whose depth and stack budget its values count against.
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

protocol TreeKeyedContainerMaking: KeyedEncodingContainerProtocol {
    init(_ encoder: TreeEncoder, _ state: TreeKeyedState)
}

/// Makes and reuses a key type's `KeyedEncodingContainer`s, as ``TapeKeyedContainerMaker`` does (and for its reasons
/// `Wrapped` is a parameter of its own). Containers hold the encoder, which holds the tree, which holds the maker:
/// ``reclaim()`` breaks that cycle once the value is written.
final class TreeKeyedContainerMaker<Container: TreeKeyedContainerMaking, Wrapped>: KeyedContainerReclaiming {
    private var pool = ContainerPool<Wrapped, TreeKeyedState>(understood: KeyedContainerBox.encodingIsUnderstood)

    init() {
        precondition(Wrapped.self == KeyedEncodingContainer<Container.Key>.self, "TreeKeyedContainerMaker: Wrapped")
    }

    deinit { pool.deallocate() }

    /// A free kept container of the same encoder, set to `parts`, or a new one.
    func wrapped(_ parts: TreeKeyedContainerParts) -> Wrapped {
        let encoder = ObjectIdentifier(parts.encoder)
        // Read the property once, not around each call below.
        let pool = self.pool
        if let index = pool.free(accepting: { $0.encoder == encoder }) {
            pool.states[index]._withUnsafeGuaranteedRef { $0.set(parts) }
            return pool.containers[index]
        }
        return _slowpath_new(parts)
    }

    /// Kept while the pool has room. Out of line, as only here is the wrapper's metadata looked up.
    @inline(never)
    private func _slowpath_new(_ parts: TreeKeyedContainerParts) -> Wrapped {
        let state = TreeKeyedState(parts)
        let container = unsafeBitCast(KeyedEncodingContainer(Container(parts.encoder, state)), to: Wrapped.self)
        pool.keep(container, state)
        return container
    }

    func reclaim() {
        pool.containers.deinitialize(count: pool.count)
        pool.count = 0
    }

    /// The decoder's makers pass on to another decoder; an encoder's never do.
    func unbind() {}
}

/// Adds member `key` to `object`. Outside ``TreeKeyedContainer``, so that a closure calling it captures fields, not
/// the container, whose metadata unspecialized code would look up at every member.
private func treeMember<Key: CodingKey>(
    _ key: Key, of object: Int, node: CodingPathNode, in encoder: TreeEncoder
) -> Int {
    encoder.tree.add(to: object, key: treeKeyName(key, node: node, in: encoder))
}

/// Where a model's member goes: under its first mapped key, as declared (a dotted key's levels made as needed and
/// shared), else in `object` under the key strategy.
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

/// The key under the key strategy; a custom one is given the container's path plus the key.
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

    /// A model's member goes where its mapping says; an excluded property's to a root of its own, never written.
    private func member(_ key: Key) -> Int {
        guard let rules else { return treeMember(key, of: object, node: node, in: encoder) }
        let rule = rules.takeUnretainedValue().rule(for: key)
        if rule?.isExcluded == true { return encoder.tree.add(to: -1) }
        let place = mappedPlace(key, rule, of: object, node: node, in: encoder)
        return encoder.tree.add(to: place.parent, key: place.key)
    }

    mutating func encodeNil(forKey key: Key) throws { encoder.encodeNull(into: member(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        guard rules == nil else { return try encodeMapped(value, forKey: key) }
        encoder.encodeBool(value, into: treeMember(key, of: object, node: node, in: encoder))
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        guard rules == nil else { return try encodeMapped(value, forKey: key) }
        encoder.encodeString(value, into: treeMember(key, of: object, node: node, in: encoder))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encodeMember(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encodeMember(value, forKey: key) }
    /// Every integer requirement but the 128-bit ones, which the standard library's defaults would answer first.
    /// Inlined: the witnesses would call the unspecialized generic.
    @inline(__always)
    mutating func encode<I: BinaryInteger & Encodable>(_ value: I, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try integer(value, key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encodeMember(value, forKey: key) }

    @inline(__always)
    private func integer<I: BinaryInteger & Encodable>(_ value: I, _ key: Key) throws {
        guard rules == nil else { return try encodeMapped(value, forKey: key) }
        encoder.encodeInteger(value, into: treeMember(key, of: object, node: node, in: encoder))
    }

    /// The closures capture the fields they need, not `self` (see ``treeMember(_:of:node:in:)``).
    private func encodeMember<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard rules == nil else { return try encodeMapped(value, forKey: key) }
        let (encoder, object, node, owner) = (self.encoder, self.object, self.node, self.owner)
        try encoder.encode(
            value, asChildOf: object, { treeMember(key, of: object, node: node, in: encoder) },
            node: owner.appending(key))
    }

    /// A mapped model's member: excluded ones are left out; a transform that makes nothing writes `null` only when
    /// the options say so.
    @inline(never)
    private func encodeMapped<T: Encodable>(_ value: T, forKey key: Key) throws {
        let rule = rules?.takeUnretainedValue().rule(for: key)
        if rule?.isExcluded == true { return }
        let (encoder, object, node, owner) = (self.encoder, self.object, self.node, self.owner)
        let place = mappedPlace(key, rule, of: object, node: node, in: encoder)
        guard let transform = rule?.transform, transform.applies(to: T.self) else {
            return try encoder.encode(
                value, asChildOf: place.parent, { encoder.tree.add(to: place.parent, key: place.key) },
                node: owner.appending(key))
        }
        guard let json = transform.json(of: value) else {
            if encoder.tree.options.nilEncoding == .null {
                encoder.encodeNull(into: encoder.tree.add(to: place.parent, key: place.key))
            }
            return
        }
        let written = try JSONValue.written(json, options: encoder.tree.options)
        try encoder.encode(
            written, asChildOf: place.parent, { encoder.tree.add(to: place.parent, key: place.key) },
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

    /// The existing container for `key` if of the same kind (a subclass adding to its parent's, as in
    /// `JSONEncoder`), else a new one. A keyed and an unkeyed one under one key stops the program, as in
    /// `JSONEncoder`; over an encoded value it is the run's error (``EncodableTree/replaced(_:by:at:)``).
    private func nested(_ key: Key, object: Bool) -> Int {
        if let existing = encoder.tree.member(of: self.object, key: treeKeyName(key, node: node, in: encoder)) {
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
    /// As in ``TreeKeyedContainerParts``.
    let node: CodingPathNode
    let owner: CodingPathNode
    /// Read from the tree, so that a second container over the same array counts on, as in `JSONEncoder`.
    var count: Int { encoder.tree.childCount(array) }

    var codingPath: [any CodingKey] { node.path }

    private func element() -> Int { encoder.tree.add(to: array) }

    mutating func encodeNil() throws { encoder.encodeNull(into: element()) }
    mutating func encode(_ value: Bool) throws { encoder.encodeBool(value, into: element()) }
    mutating func encode(_ value: String) throws { encoder.encodeString(value, into: element()) }
    mutating func encode(_ value: Double) throws { try encodeElement(value) }
    mutating func encode(_ value: Float) throws { try encodeElement(value) }
    /// As in ``TreeKeyedContainer``.
    @inline(__always)
    mutating func encode<I: BinaryInteger & Encodable>(_ value: I) throws {
        encoder.encodeInteger(value, into: element())
    }
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
    mutating func encode(_ value: Double) throws { try encoder.encodeFloatingPoint(value, into: slot, node: node) }
    mutating func encode(_ value: Float) throws { try encoder.encodeFloatingPoint(value, into: slot, node: node) }
    /// As in ``TreeKeyedContainer``.
    @inline(__always)
    mutating func encode<I: BinaryInteger & Encodable>(_ value: I) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: Int128) throws { encoder.encodeInteger(value, into: slot) }
    mutating func encode(_ value: UInt128) throws { encoder.encodeInteger(value, into: slot) }
    /// As in `JSONEncoder`: a value that throws keeps what it wrote, and one that encodes nothing is `{}`.
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encode(value, into: slot, node: node)
        encoder.tree.emptyObjectIfPending(slot)
    }
}
