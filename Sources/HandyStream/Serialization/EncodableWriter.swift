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

    private(set) var nodes: [Node] = []
    private(set) var keys: [UInt8] = []
    /// Writes scalars' text; never containers (so it adds no commas).
    var text: JSONWriter
    let options: EncodingOptions
    let userInfo: [CodingUserInfoKey: Any]
    private var convertedKeys: [String: String] = [:]

    init(options: EncodingOptions) {
        self.options = options
        userInfo = options.userInfo
        var scalars = JSONWriter(options: options)
        scalars.foundationStyle = true
        text = scalars
    }

    /// A new node, the child of `parent` under `key` (or an element, `key` nil), or a root (`parent` -1).
    func add(to parent: Int, key: String?) -> Int {
        let index = nodes.count
        var node = Node()
        if var key {
            if options.keyEncodingStrategy != .useDefaultKeys { key = converted(key) }
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

    private func converted(_ key: String) -> String {
        if let known = convertedKeys[key] { return known }
        let made = options.keyEncodingStrategy.key(key, mapped: false)
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
        let start = text.bytes.count
        try write(&text)
        nodes[index].kind = .text
        nodes[index].textStart = Int32(truncatingIfNeeded: start)
        nodes[index].textLength = Int32(truncatingIfNeeded: text.bytes.count - start)
    }

    /// Writes the tree under `root` into `writer`.
    func write(_ root: Int, to writer: inout JSONWriter) throws {
        struct Open {
            var children: [Int32]
            var position = 0
            var isObject: Bool
        }
        var stack: [Open] = []
        func children(of index: Int) -> [Int32] {
            var list: [Int32] = []
            var child = nodes[index].first
            while child >= 0 {
                list.append(child)
                child = nodes[Int(child)].next
            }
            return list
        }
        func keyBytes(_ node: Node) -> ArraySlice<UInt8> {
            keys[Int(node.keyStart)..<Int(node.keyStart + node.keyLength)]
        }
        /// An object's members in writing order: sorted by key when asked, and the last of equal keys only.
        func members(of index: Int) -> [Int32] {
            var list = children(of: index)
            guard list.count > 1 else { return list }
            if options.sortedKeys {
                list = list.enumerated().sorted { a, b in
                    let left = keyBytes(nodes[Int(a.element)])
                    let right = keyBytes(nodes[Int(b.element)])
                    return left.lexicographicallyPrecedes(right) || (left == right && a.offset < b.offset)
                }.map(\.element)
                var unique: [Int32] = []
                for member in list {
                    if let last = unique.last, keyBytes(nodes[Int(last)]) == keyBytes(nodes[Int(member)]) {
                        unique[unique.count - 1] = member
                    } else {
                        unique.append(member)
                    }
                }
                return unique
            }
            var seen = Set<ArraySlice<UInt8>>()
            var latest: [ArraySlice<UInt8>: Int] = [:]
            for (position, member) in list.enumerated() { latest[keyBytes(nodes[Int(member)])] = position }
            return list.enumerated().compactMap { position, member in
                let key = keyBytes(nodes[Int(member)])
                guard seen.insert(key).inserted else { return nil }
                return list[latest[key]!]
            }
        }
        func begin(_ index: Int) throws {
            let node = nodes[index]
            switch node.kind {
            case .text:
                text.bytes.withUnsafeBytes { all in
                    writer.rawJSON(bytes: UnsafeRawBufferPointer(
                        rebasing: all[Int(node.textStart)..<Int(node.textStart + node.textLength)]))
                }
            case .object, .pending:
                try writer.beginObject()
                stack.append(Open(children: node.kind == .object ? members(of: index) : [], isObject: true))
            case .array:
                try writer.beginArray()
                stack.append(Open(children: children(of: index), isObject: false))
            }
        }
        try begin(root)
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].position < stack[top].children.count else {
                if stack[top].isObject { writer.endObject() } else { writer.endArray() }
                stack.removeLast()
                continue
            }
            let child = Int(stack[top].children[stack[top].position])
            stack[top].position += 1
            if stack[top].isObject {
                keys.withUnsafeBytes { all in
                    let node = nodes[child]
                    writer.key(bytes: UnsafeRawBufferPointer(
                        rebasing: all[Int(node.keyStart)..<Int(node.keyStart + node.keyLength)]))
                }
            } else {
                writer.element()
            }
            try begin(child)
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

    func encodeDouble(_ value: Double, into index: Int) throws {
        try tree.setText(index) { text in
            if !value.isFinite, case .convertToString(let positive, let negative, let nan) =
                tree.options.nonConformingFloatEncodingStrategy
            {
                text.string(value.isNaN ? nan : value < 0 ? negative : positive)
            } else {
                try text.double(value)
            }
        }
    }

    func encodeFloat(_ value: Float, into index: Int) throws {
        try tree.setText(index) { text in
            if !value.isFinite, case .convertToString(let positive, let negative, let nan) =
                tree.options.nonConformingFloatEncodingStrategy
            {
                text.string(value.isNaN ? nan : value < 0 ? negative : positive)
            } else {
                try text.float(value)
            }
        }
    }

    func encodeString(_ value: String, into index: Int) { tree.setText(index) { $0.string(value) } }
    func encodeBool(_ value: Bool, into index: Int) { tree.setText(index) { $0.bool(value) } }
    func encodeInteger<I: BinaryInteger>(_ value: I, into index: Int) { tree.setText(index) { $0.integer(value) } }
    func encodeNull(into index: Int) { tree.setText(index) { $0.null() } }

    /// Encodes `value` into the node `index`: scalars and Foundation's types directly (with the options'
    /// strategies), models by their tables, anything else by its `encode(to:)`.
    func encode<T: Encodable>(_ value: T, into index: Int, node: @autoclosure () -> CodingPathNode) throws {
        switch value {
        case let string as String: return encodeString(string, into: index)
        case let number as Int: return encodeInteger(number, into: index)
        case let number as Double: return try encodeDouble(number, into: index)
        case let flag as Bool: return encodeBool(flag, into: index)
        case let date as Date: return try encodeDate(date, into: index, node: node())
        case let data as Data: return try encodeData(data, into: index, node: node())
        case let url as URL: return encodeString(url.absoluteString, into: index)
        case let decimal as Decimal: return try tree.setText(index) { try $0.decimal(decimal) }
        case let model as any HandyJSON: return try encodeModel(model, into: index)
        default: break
        }
        try nested(index, node()) { try value.encode(to: self) }
    }

    /// Runs `body` with the encoder at `index`; a value that asked for no container is an empty object.
    private func nested(_ index: Int, _ node: CodingPathNode, _ body: () throws -> Void) throws {
        depth += 1
        defer { depth -= 1 }
        guard depth <= tree.options.maximumDepth else {
            throw EncodingError.invalidValue(0, .init(
                codingPath: node.path,
                debugDescription: "nesting deeper than \(tree.options.maximumDepth) levels (a cycle in the object graph?)"))
        }
        let saved = (slot, self.node)
        slot = index
        self.node = node
        defer { (slot, self.node) = saved }
        try body()
    }

    /// A HandyJSON model inside an `Encodable` value: written by its field tables, as its own text.
    private func encodeModel(_ model: any HandyJSON, into index: Int) throws {
        var options = tree.options
        options.maximumDepth = max(1, options.maximumDepth - depth)
        let bytes = try ModelEncoder(options: options).encode(model)
        tree.setText(index) { $0.rawJSON(bytes) }
    }

    private func encodeDate(_ date: Date, into index: Int, node: CodingPathNode) throws {
        switch tree.options.dateEncodingStrategy {
        case .deferredToDate: try nested(index, node) { try date.encode(to: self) }
        case .secondsSince1970: try encodeDouble(date.timeIntervalSince1970, into: index)
        case .millisecondsSince1970: try encodeDouble(date.timeIntervalSince1970 * 1000, into: index)
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

struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    let object: Int
    let node: CodingPathNode

    var codingPath: [any CodingKey] { node.path }

    private func member(_ key: Key) -> Int { encoder.tree.add(to: object, key: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { encoder.encodeNull(into: member(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.encodeBool(value, into: member(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.encodeString(value, into: member(key)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encoder.encodeDouble(value, into: member(key)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encoder.encodeFloat(value, into: member(key)) }
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
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encode(value, into: member(key), node: node.appending(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let index = member(key)
        encoder.tree.makeContainer(index, object: true)
        return KeyedEncodingContainer(
            TreeKeyedContainer<NestedKey>(encoder: encoder, object: index, node: node.appending(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let index = member(key)
        encoder.tree.makeContainer(index, object: false)
        return TreeUnkeyedContainer(encoder: encoder, array: index, node: node.appending(key))
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(
            tree: encoder.tree, slot: encoder.tree.add(to: object, key: "super"), node: node.appending(NamedKey("super")))
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
    mutating func encode(_ value: Double) throws { try encoder.encodeDouble(value, into: element()) }
    mutating func encode(_ value: Float) throws { try encoder.encodeFloat(value, into: element()) }
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
    mutating func encode(_ value: Double) throws { try encoder.encodeDouble(value, into: slot) }
    mutating func encode(_ value: Float) throws { try encoder.encodeFloat(value, into: slot) }
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
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encode(value, into: slot, node: node) }
}

extension EncodingRun {
    /// Writes an `Encodable` value at the writer's position, whole.
    mutating func writeEncodable(_ value: any Encodable) throws {
        let tree = EncodableTree(options: writer.options)
        let root = tree.add(to: -1, key: nil)
        let encoder = TreeEncoder(tree: tree, slot: root)
        try encoder.encode(value, into: root, node: .root)
        let style = writer.foundationStyle
        writer.foundationStyle = true
        defer { writer.foundationStyle = style }
        try tree.write(root, to: &writer)
    }
}
