import Foundation

/// Writes an `Encodable` value: its `encode(to:)` fills a tree kept in flat arrays, which is then written through
/// the same ``JSONWriter`` as models (compact or pretty, sorted keys, key strategy).
///
/// `encode(to:)` may ask for a nested container and fill it after later siblings (and may encode a key twice, the
/// last value winning), so the value can't be streamed as it is encoded; the tree is the least that must be held:
/// one fixed-size node per value, scalars already as JSON text in one buffer, keys in another.
///
/// The text is Foundation's `JSONEncoder`'s: with `sortedKeys` the output is byte for byte what `JSONEncoder`
/// writes with `.sortedKeys` (`/` escaped, integral doubles without `.0`, `" : "` when pretty printed).
final class EncodableTree {
    struct Node {
        enum Kind: UInt8 { case pending, object, array, text }
        var kind = Kind.pending
        var first: Int32 = -1
        var last: Int32 = -1
        var next: Int32 = -1
        /// A member's key in ``EncodableTree/keys``; `keyLength` -1 for an element.
        var keyStart: Int32 = 0
        var keyLength: Int32 = -1
        /// A scalar's JSON text in ``EncodableTree/text``.
        var textStart: Int32 = 0
        var textLength: Int32 = 0
    }

    private struct State {
        /// Scalars in their own types, by node, when the tree is written into Foundation-style values.
        var typed: [Int32: Any] = [:]
        var nodes: [Node] = []
        var keys: [UInt8] = []
        var text: JSONWriter
        var convertedKeys: [String: String] = [:]
        var typeKinds: [ObjectIdentifier: TypeKind] = [:]
        /// Finds keys encoded twice in an object (``needsOrdering(_:)``).
        var duplicates = DuplicateKeys()
    }

    /// The mutable state, in memory of its own (allocated by `init`, freed by `deinit`): every value touches it, and
    /// class properties would add an exclusivity check to each access.
    private let state: UnsafeMutablePointer<State>

    private(set) var nodes: [Node] {
        get { state.pointee.nodes }
        _modify { yield &state.pointee.nodes }
        set { state.pointee.nodes = newValue }
    }
    private(set) var keys: [UInt8] {
        get { state.pointee.keys }
        _modify { yield &state.pointee.keys }
        set { state.pointee.keys = newValue }
    }
    /// Writes scalars' text; never containers (so it adds no commas).
    var text: JSONWriter {
        get { state.pointee.text }
        _modify { yield &state.pointee.text }
        set { state.pointee.text = newValue }
    }
    private var convertedKeys: [String: String] {
        get { state.pointee.convertedKeys }
        _modify { yield &state.pointee.convertedKeys }
        set { state.pointee.convertedKeys = newValue }
    }
    private var typeKinds: [ObjectIdentifier: TypeKind] {
        get { state.pointee.typeKinds }
        _modify { yield &state.pointee.typeKinds }
        set { state.pointee.typeKinds = newValue }
    }
    let options: EncodingOptions
    let userInfo: [CodingUserInfoKey: Any]
    /// The tree is written into Foundation-style values (`toJSON()`): scalars are kept in their own types too.
    let keepsValues: Bool

    /// Keeps `value`, the scalar of node `index`, in its own type (when ``keepsValues``).
    @inline(__always)
    func keep(_ value: @autoclosure () -> Any, for index: Int) {
        if keepsValues { state.pointee.typed[Int32(truncatingIfNeeded: index)] = value() }
    }

    /// What the encoder must know of a type beyond its `encode(to:)`. (A HandyJSON model that is `Encodable` is
    /// written by its `encode(to:)`, its coding keys included, as `JSONEncoder` writes it.)
    enum TypeKind {
        case plain
        /// `[String: Value]`: its keys are written as they are, whatever the key strategy (as Foundation does).
        case stringDictionary
    }

    /// The kind of `type`, worked out once per type and run.
    func kind<T>(of type: T.Type) -> TypeKind {
        if let known = typeKinds[ObjectIdentifier(type)] { return known }
        let kind: TypeKind = type is any StringKeyedEncodable.Type ? .stringDictionary : .plain
        typeKinds[ObjectIdentifier(type)] = kind
        return kind
    }

    /// A new member of `parent` under `key`, the key written as it is.
    func addVerbatim(to parent: Int, key: String) -> Int {
        let index = add(to: parent, key: nil)
        var key = key
        nodes[index].keyStart = Int32(truncatingIfNeeded: keys.count)
        key.withUTF8 { keys.append(contentsOf: $0) }
        nodes[index].keyLength = Int32(truncatingIfNeeded: keys.count) - nodes[index].keyStart
        return index
    }

    init(options: EncodingOptions, keepsValues: Bool = false) {
        self.options = options
        self.keepsValues = keepsValues
        userInfo = options.userInfo
        var scalars = JSONWriter(options: options)
        scalars.foundationStyle = true
        state = .allocate(capacity: 1)
        state.initialize(to: State(text: scalars))
    }

    deinit {
        state.pointee.duplicates.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// A new node, the child of `parent` under `key` (or an element, `key` nil), or a root (`parent` -1).
    func add(to parent: Int, key: String?) -> Int {
        let index = nodes.count
        var node = Node()
        if var key {
            if !options.keyEncodingStrategy.isDefault { key = converted(key) }
            node.keyStart = Int32(truncatingIfNeeded: keys.count)
            key.withUTF8 { keys.append(contentsOf: $0) }
            node.keyLength = Int32(truncatingIfNeeded: keys.count) - node.keyStart
        }
        nodes.append(node)
        if parent >= 0 {
            if nodes[parent].last >= 0 {
                nodes[Int(nodes[parent].last)].next = Int32(truncatingIfNeeded: index)
            } else {
                nodes[parent].first = Int32(truncatingIfNeeded: index)
            }
            nodes[parent].last = Int32(truncatingIfNeeded: index)
        }
        return index
    }

    /// `key` under the key strategy, `path` being the coding path to the member (a custom strategy gets it).
    func converted(_ key: String, path: () -> [any CodingKey] = { [] }) -> String {
        if case .custom = options.keyEncodingStrategy { return options.keyEncodingStrategy.codableKey(key, path: path) }
        if let known = convertedKeys[key] { return known }
        let made = options.keyEncodingStrategy.codableKey(key, path: path)
        convertedKeys[key] = made
        return made
    }

    /// Makes `index` an object (or keeps it one: a second keyed container of the same value shares it).
    func makeContainer(_ index: Int, object: Bool) {
        let wanted: Node.Kind = object ? .object : .array
        guard nodes[index].kind != wanted else { return }
        nodes[index].kind = wanted
        nodes[index].first = -1
        nodes[index].last = -1
    }

    /// Makes `index` a scalar whose text `write` appends.
    @inline(__always)
    func setText(_ index: Int, _ write: (inout JSONWriter) throws -> Void) rethrows {
        let start = text.output.bytes.pointee.count
        try write(&text)
        nodes[index].kind = .text
        nodes[index].textStart = Int32(truncatingIfNeeded: start)
        nodes[index].textLength = Int32(truncatingIfNeeded: text.output.bytes.pointee.count - start)
    }

    /// Writes the tree under `root` into `writer`, without recursion (an explicit stack of open containers).
    func write(_ root: Int, to writer: inout JSONWriter) throws {
        struct Open {
            /// Sorted objects: their members in order; otherwise empty, and `next` follows the sibling links.
            var sorted: [Int32]
            var position = 0
            var next: Int32
            var isObject: Bool
        }
        var stack: [Open] = []
        func begin(_ index: Int) throws {
            let node = nodes[index]
            switch node.kind {
            case .text:
                if writer.buildsValues, let value = state.pointee.typed[Int32(truncatingIfNeeded: index)] {
                    writer.builtScalar(value)
                    return
                }
                // Two writers: `text` is only read here, `writer` only written.
                let all = text.output.bytes.pointee.buffer
                writer.rawJSON(
                    bytes: UnsafeRawBufferPointer(
                        rebasing: all[Int(node.textStart)..<Int(node.textStart + node.textLength)]))
            case .object:
                try writer.beginObject()
                let ordered = needsOrdering(index)
                stack.append(
                    Open(
                        sorted: ordered ? members(of: index) : [], next: ordered ? -1 : node.first, isObject: true))
            case .pending:
                try writer.beginObject()
                stack.append(Open(sorted: [], next: -1, isObject: true))
            case .array:
                try writer.beginArray()
                stack.append(Open(sorted: [], next: node.first, isObject: false))
            }
        }
        try begin(root)
        while !stack.isEmpty {
            let top = stack.count - 1
            let child: Int
            if stack[top].position < stack[top].sorted.count {
                child = Int(stack[top].sorted[stack[top].position])
                stack[top].position += 1
            } else if stack[top].next >= 0 {
                child = Int(stack[top].next)
                stack[top].next = nodes[child].next
            } else {
                if stack[top].isObject { writer.endObject() } else { writer.endArray() }
                stack.removeLast()
                continue
            }
            if stack[top].isObject {
                keys.withUnsafeBytes { all in
                    let node = nodes[child]
                    writer.key(
                        bytes: UnsafeRawBufferPointer(
                            rebasing: all[Int(node.keyStart)..<Int(node.keyStart + node.keyLength)]))
                }
            } else {
                writer.element()
            }
            try begin(child)
        }
    }

    private func keyBytes(_ index: Int32) -> ArraySlice<UInt8> {
        let node = nodes[Int(index)]
        return keys[Int(node.keyStart)..<Int(node.keyStart + node.keyLength)]
    }

    /// The member of the object `parent` under `key` (already converted by the key strategy), the last if several.
    func member(of parent: Int, key: String) -> Int? {
        let wanted = Array(key.utf8)
        var found: Int?
        var child = nodes[parent].first
        while child >= 0 {
            if nodes[Int(child)].keyLength == wanted.count && keyBytes(child).elementsEqual(wanted) {
                found = Int(child)
            }
            child = nodes[Int(child)].next
        }
        return found
    }

    /// Whether an object's members must be reordered: sorted keys, or a key encoded twice (the last value wins).
    ///
    /// Without sorted keys the members are written in the order `encode(to:)` encoded them. `JSONEncoder` writes
    /// them in the order of a dictionary seeded per instance, which changes from one call to the next, so no order
    /// could match it byte for byte; the encoding order is the one that stays the same.
    private func needsOrdering(_ index: Int) -> Bool {
        let nodes = state.pointee.nodes
        if options.sortedKeys { return nodes[index].first != nodes[index].last }
        var count = 0
        var child = nodes[index].first
        while child >= 0 {
            count += 1
            child = nodes[Int(child)].next
        }
        guard count > 1 else { return false }
        return state.pointee.keys.withUnsafeBytes { keys in
            func key(_ member: Int32) -> UnsafeRawBufferPointer {
                let node = nodes[Int(member)]
                return UnsafeRawBufferPointer(rebasing: keys[Int(node.keyStart)..<Int(node.keyStart + node.keyLength)])
            }
            state.pointee.duplicates.begin(count: count)
            var child = nodes[index].first
            while child >= 0 {
                if state.pointee.duplicates.insert(
                    key(child), id: UInt32(bitPattern: child),
                    bytesOf: {
                        key(Int32(bitPattern: $0))
                    })
                {
                    return true
                }
                child = nodes[Int(child)].next
            }
            return false
        }
    }

    private func childList(of index: Int) -> [Int32] {
        var list: [Int32] = []
        var child = nodes[index].first
        while child >= 0 {
            list.append(child)
            child = nodes[Int(child)].next
        }
        return list
    }

    /// An object's members in writing order: sorted by key when asked, and for equal keys the last value, in the
    /// first one's place.
    private func members(of index: Int) -> [Int32] {
        var list = childList(of: index)
        if options.sortedKeys {
            list = list.enumerated().sorted { a, b in
                let left = keyBytes(a.element)
                let right = keyBytes(b.element)
                return left.lexicographicallyPrecedes(right) || (left == right && a.offset < b.offset)
            }.map(\.element)
            var unique: [Int32] = []
            for member in list {
                if let last = unique.last, keyBytes(last) == keyBytes(member) {
                    unique[unique.count - 1] = member
                } else {
                    unique.append(member)
                }
            }
            return unique
        }
        var latest: [ArraySlice<UInt8>: Int32] = [:]
        for member in list { latest[keyBytes(member)] = member }
        var seen = Set<ArraySlice<UInt8>>()
        return list.compactMap { member in
            let key = keyBytes(member)
            return seen.insert(key).inserted ? latest[key] : nil
        }
    }
}

/// The `Encoder` that fills an ``EncodableTree``. One encoder serves a whole value: encoding a member moves
/// ``slot`` and ``node`` and restores them, as the decoder does; containers remember their own node.
final class TreeEncoder: Encoder {
    let tree: EncodableTree
    var slot: Int
    var node: CodingPathNode
    /// Values being encoded inside one another: capped by the options' depth (a cyclic class graph ends there).
    private var depth = 0
    /// What the thread's stack has room for (``StackBudget``), from where the encoder was made.
    private let stackBudget = StackBudget()

    init(tree: EncodableTree, slot: Int, node: CodingPathNode = .root) {
        self.tree = tree
        self.slot = slot
        self.node = node
    }

    var codingPath: [any CodingKey] { node.path }
    var userInfo: [CodingUserInfoKey: Any] { tree.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        tree.makeContainer(slot, object: true)
        return KeyedEncodingContainer(TreeKeyedContainer<Key>(encoder: self, object: slot, node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        tree.makeContainer(slot, object: false)
        return TreeUnkeyedContainer(encoder: self, array: slot, node: node)
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
        let name = value.isNaN ? "\(F.self).nan" : value < 0 ? "-\(F.self).infinity" : "\(F.self).infinity"
        return .invalidValue(
            value,
            .init(
                codingPath: path,
                debugDescription: "Unable to encode \(name) directly in JSON. Use "
                    + "JSONEncoder.NonConformingFloatEncodingStrategy.convertToString to specify how the value should be "
                    + "encoded."))
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
    /// strategies), models by their tables, anything else by its `encode(to:)`.
    func encode<T: Encodable>(_ value: T, into index: Int, node: @autoclosure () -> CodingPathNode) throws {
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
                return try nested(index, node()) { try dictionary.encodeMembers(into: index, with: self) }
            }
        }
        try nested(index, node()) { try value.encode(to: self) }
    }

    /// Runs `body` with the encoder at `index`; a value that asked for no container is an empty object.
    private func nested(_ index: Int, _ node: CodingPathNode, _ body: () throws -> Void) throws {
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
        let saved = (slot, self.node)
        slot = index
        self.node = node
        defer { (slot, self.node) = saved }
        try body()
    }

    private func encodeDate(_ date: Date, into index: Int, node: CodingPathNode) throws {
        switch tree.options.dateEncodingStrategy {
        case .deferredToDate: try nested(index, node) { try date.encode(to: self) }
        case .secondsSince1970: try encodeDouble(date.timeIntervalSince1970, into: index, node: node)
        case .millisecondsSince1970: try encodeDouble(date.timeIntervalSince1970 * 1000, into: index, node: node)
        case .iso8601: encodeString(date.formatted(.iso8601), into: index)
        case .custom(let closure): try nested(index, node) { try closure(date, self) }
        @unknown default: try nested(index, node) { try date.encode(to: self) }
        }
    }

    private func encodeData(_ data: Data, into index: Int, node: CodingPathNode) throws {
        switch tree.options.dataEncodingStrategy {
        case .deferredToData: try nested(index, node) { try data.encode(to: self) }
        case .base64: encodeString(data.base64EncodedString(), into: index)
        case .custom(let closure): try nested(index, node) { try closure(data, self) }
        @unknown default: try nested(index, node) { try data.encode(to: self) }
        }
    }
}

/// `[String: Value]`, written member by member with its keys as they are.
protocol StringKeyedEncodable {
    func encodeMembers(into index: Int, with encoder: TreeEncoder) throws
}

extension Dictionary: StringKeyedEncodable where Key == String, Value: Encodable {
    func encodeMembers(into index: Int, with encoder: TreeEncoder) throws {
        encoder.tree.makeContainer(index, object: true)
        for (key, value) in self {
            try encoder.encode(
                value, into: encoder.tree.addVerbatim(to: index, key: key), node: encoder.node.appending(NamedKey(key)))
        }
    }
}

struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    let object: Int
    let node: CodingPathNode

    var codingPath: [any CodingKey] { node.path }

    private func member(_ key: Key) -> Int { encoder.tree.addVerbatim(to: object, key: keyName(key)) }

    /// The key as written: under the key strategy, which a custom one applies to the path to the member.
    private func keyName(_ key: Key) -> String {
        if encoder.tree.options.keyEncodingStrategy.isDefault { return key.stringValue }
        return encoder.tree.converted(key.stringValue) { node.path + [key] }
    }

    mutating func encodeNil(forKey key: Key) throws { encoder.encodeNull(into: member(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.encodeBool(value, into: member(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.encodeString(value, into: member(key)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try encoder.encodeDouble(value, into: member(key), node: node.appending(key))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try encoder.encodeFloat(value, into: member(key), node: node.appending(key))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { encoder.encodeInteger(value, into: member(key)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encode(value, into: member(key), node: node.appending(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let index = nested(key, object: true)
        return KeyedEncodingContainer(
            TreeKeyedContainer<NestedKey>(encoder: encoder, object: index, node: node.appending(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let index = nested(key, object: false)
        return TreeUnkeyedContainer(encoder: encoder, array: index, node: node.appending(key))
    }

    /// The node of a nested container: the one already made for `key` when there is one of the same kind (a
    /// subclass adding to its parent's container, as `JSONEncoder` does), else a new one. Asking for a keyed and an
    /// unkeyed container under the same key is a programmer error, which stops the program as in `JSONEncoder`.
    private func nested(_ key: Key, object: Bool) -> Int {
        if let existing = encoder.tree.member(of: self.object, key: keyName(key)) {
            switch encoder.tree.nodes[existing].kind {
            case .object where object, .array where !object:
                return existing
            case .object:
                preconditionFailure("For key \"\(key.stringValue)\" a keyed container has already been created.")
            case .array:
                preconditionFailure("For key \"\(key.stringValue)\" a unkeyed container has already been created.")
            case .pending, .text:
                break
            }
        }
        let index = member(key)
        encoder.tree.makeContainer(index, object: object)
        return index
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(
            tree: encoder.tree, slot: encoder.tree.add(to: object, key: "super"),
            node: node.appending(NamedKey("super")))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(tree: encoder.tree, slot: member(key), node: node.appending(key))
    }
}

struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let array: Int
    let node: CodingPathNode
    private(set) var count = 0

    init(encoder: TreeEncoder, array: Int, node: CodingPathNode) {
        self.encoder = encoder
        self.array = array
        self.node = node
    }

    var codingPath: [any CodingKey] { node.path }

    private mutating func element() -> Int {
        count += 1
        return encoder.tree.add(to: array, key: nil)
    }

    mutating func encodeNil() throws { encoder.encodeNull(into: element()) }
    mutating func encode(_ value: Bool) throws { encoder.encodeBool(value, into: element()) }
    mutating func encode(_ value: String) throws { encoder.encodeString(value, into: element()) }
    mutating func encode(_ value: Double) throws {
        try encoder.encodeDouble(value, into: element(), node: node.appending(index: count - 1))
    }
    mutating func encode(_ value: Float) throws {
        try encoder.encodeFloat(value, into: element(), node: node.appending(index: count - 1))
    }
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
    mutating func encode<T: Encodable>(_ value: T) throws {
        let position = count
        try encoder.encode(value, into: element(), node: node.appending(index: position))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let position = count
        let index = element()
        encoder.tree.makeContainer(index, object: true)
        return KeyedEncodingContainer(
            TreeKeyedContainer<NestedKey>(encoder: encoder, object: index, node: node.appending(index: position)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let position = count
        let index = element()
        encoder.tree.makeContainer(index, object: false)
        return TreeUnkeyedContainer(encoder: encoder, array: index, node: node.appending(index: position))
    }

    mutating func superEncoder() -> any Encoder {
        let position = count
        return TreeEncoder(tree: encoder.tree, slot: element(), node: node.appending(index: position))
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
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encode(value, into: slot, node: node) }
}

extension EncodingRun {
    /// Writes an `Encodable` value at the writer's position, whole.
    /// Writes an `Encodable` value; `isTopLevel` for the value a caller asked to encode, which must encode something
    /// (as `JSONEncoder` requires; a nested value that encodes nothing is an empty object).
    mutating func writeEncodable(_ value: any Encodable, isTopLevel: Bool = false) throws {
        let tree = EncodableTree(options: writer.options, keepsValues: writer.buildsValues)
        let root = tree.add(to: -1, key: nil)
        let encoder = TreeEncoder(tree: tree, slot: root)
        try encoder.encode(value, into: root, node: .root)
        if isTopLevel && tree.nodes[root].kind == .pending {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        let style = writer.foundationStyle
        writer.foundationStyle = true
        defer { writer.foundationStyle = style }
        try tree.write(root, to: &writer)
    }
}
