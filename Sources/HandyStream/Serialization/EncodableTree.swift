import Foundation

/// Writes an `Encodable` value: its `encode(to:)` fills a tree in flat arrays, then written by ``JSONWriter``. It
/// can't be streamed, as `encode(to:)` may fill a container after later siblings, or encode a key twice.
///
/// With `sortedKeys` the output is byte for byte `JSONEncoder`'s (`/` escaped, integral doubles without `.0`,
/// `" : "` when pretty printed).
final class EncodableTree {
    struct Node {
        enum Kind: UInt8 { case pending, object, array, text }
        var kind = Kind.pending
        /// Keys are then compared as Strings (``EncodableTree/members(of:)``).
        var hasNonASCIIKey = false
        /// Its members are in ``EncodableTree/State/memberIndex``, kept up to date as members are added.
        var indexed = false
        var first: Int32 = -1
        var last: Int32 = -1
        var next: Int32 = -1
        /// A member's key in ``EncodableTree/keys``; `keyLength` -1 for an element.
        var keyStart: Int32 = 0
        var keyLength: Int32 = -1
        /// A scalar's JSON text in ``EncodableTree/text``.
        var textStart: Int32 = 0
        var textLength: Int32 = 0
        /// A container's children so far, kept in `textLength`, which a container has no use for.
        var count: Int32 {
            get { textLength }
            set { textLength = newValue }
        }
    }

    private struct State {
        /// Scalars in their own types, by node (``keepsValues``).
        var typed: [Int32: Any] = [:]
        var nodes: [Node] = []
        var keys = OutputBytes(capacity: 256)
        var text: JSONWriter
        var convertedKeys: [String: String] = [:]
        /// The last member under each key, for objects whose members are looked up past ``indexedCount``: looking
        /// along the siblings made a nested container per key quadratic in the object's size.
        var memberIndex: [Int: [String: Int]] = [:]
        /// Not a dictionary, which would hash the type's identity for every value encoded.
        var typeKinds = TypeTable<TypeKind>()
        var duplicates = DuplicateKeys()
        var misuse: EncodingError?
    }

    /// Manual memory: every value touches it, and class properties would add an exclusivity check to each access.
    private let state: UnsafeMutablePointer<State>

    private(set) var nodes: [Node] {
        get { state.pointee.nodes }
        _modify { yield &state.pointee.nodes }
    }
    /// Writes scalars' text; never containers (so it adds no commas).
    var text: JSONWriter {
        get { state.pointee.text }
        _modify { yield &state.pointee.text }
    }
    let options: EncodingOptions
    let userInfo: [CodingUserInfoKey: Any]
    let paths = CodingPaths()
    /// One maker per key type, in manual memory: a class property would add an exclusivity check to each container.
    let keyedMakers = UnsafeMutablePointer<KeyedContainerMakers>.allocate(capacity: 1)
    /// The tree is written into Foundation-style values (`toJSON()`), so scalars are kept in their own types too.
    let keepsValues: Bool
    /// Its positions are 32-bit, as the tape's: past this many bytes or values, encoding throws.
    let capacityLimit: Int

    @inline(__always)
    func keep(_ value: @autoclosure () -> Any, for index: Int) {
        if keepsValues { state.pointee.typed[Int32(truncatingIfNeeded: index)] = value() }
    }

    enum TypeKind {
        case plain
        /// `[String: Value]`: its keys are written as they are, whatever the key strategy (as Foundation does).
        case stringDictionary
        /// A model with a mapping; unretained, as ``TypeRegistry`` keeps it for the process's life.
        case model(Unmanaged<ModelRules>)
    }

    func kind<T>(of type: T.Type) -> TypeKind {
        if let known = state.pointee.typeKinds.value(for: ObjectIdentifier(type)) { return known }
        let kind: TypeKind
        if type is any StringKeyedEncodable.Type {
            kind = .stringDictionary
        } else if let rules = TypeRegistry.modelRules(of: type) {
            kind = .model(.passUnretained(rules))
        } else {
            kind = .plain
        }
        state.pointee.typeKinds.insert(kind, for: ObjectIdentifier(type))
        return kind
    }

    /// The object member of `parent` under `key`, existing or new: a level of a dotted key (`"friend.name"`).
    func objectMember(of parent: Int, key: String) -> Int {
        if let existing = member(of: parent, key: key), nodes[existing].kind == .object { return existing }
        let index = add(to: parent, key: key)
        makeContainer(index, object: true)
        return index
    }

    init(options: EncodingOptions, keepsValues: Bool = false, capacityLimit: Int = Tape.capacityLimit) {
        self.options = options
        self.keepsValues = keepsValues
        self.capacityLimit = max(1, min(capacityLimit, Tape.capacityLimit))
        userInfo = options.userInfo
        var scalars = JSONWriter(options: options)
        scalars.foundationStyle = true
        state = .allocate(capacity: 1)
        state.initialize(to: State(text: scalars))
        keyedMakers.initialize(to: KeyedContainerMakers())
    }

    deinit {
        keyedMakers.deinitialize(count: 1)
        keyedMakers.deallocate()
        paths.deallocate()
        state.pointee.duplicates.deallocate()
        state.pointee.keys.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// A new child of `parent` (-1: a root) under `key` as it is (`nil`: an element).
    func add(to parent: Int, key: String? = nil) -> Int {
        let index = nodes.count
        var node = Node()
        var isASCII = true
        if var key {
            if state.pointee.keys.count + key.utf8.count <= capacityLimit {
                node.keyStart = Int32(truncatingIfNeeded: state.pointee.keys.count)
                isASCII = key.withUTF8 { state.pointee.keys.appendCheckingASCII(UnsafeRawBufferPointer($0)) }
                node.keyLength = Int32(truncatingIfNeeded: state.pointee.keys.count) - node.keyStart
            } else {
                tooLarge()
                node.keyLength = 0
            }
        }
        // Past the limit the links would wrap: the value is kept out of the tree, which is never written.
        guard index < capacityLimit else {
            tooLarge()
            return index - 1
        }
        nodes.append(node)
        if parent >= 0 {
            if !isASCII { nodes[parent].hasNonASCIIKey = true }
            if nodes[parent].indexed, let key { state.pointee.memberIndex[parent]?[key] = index }
            if nodes[parent].last >= 0 {
                nodes[Int(nodes[parent].last)].next = Int32(truncatingIfNeeded: index)
            } else {
                nodes[parent].first = Int32(truncatingIfNeeded: index)
            }
            nodes[parent].last = Int32(truncatingIfNeeded: index)
            nodes[parent].count += 1
        }
        return index
    }

    /// -1 for none.
    @inline(__always)
    func lastChild(of parent: Int) -> Int32 { state.pointee.nodes[parent].last }

    /// Takes out `parent`'s last child: `JSONEncoder` keeps nothing of a value whose encoding throws.
    @inline(never)
    func dropLastChild(of parent: Int, back previous: Int32) {
        forgetIndex(of: parent)
        nodes[parent].last = previous
        if previous >= 0 { nodes[Int(previous)].next = -1 } else { nodes[parent].first = -1 }
        nodes[parent].count -= 1
    }

    @inline(__always)
    func childCount(_ index: Int) -> Int { Int(state.pointee.nodes[index].count) }

    /// `key` under the key strategy; a custom one is given `path`, and its answers are not cached.
    func converted(_ key: String, path: () -> [any CodingKey]) -> String {
        if case .custom = options.keyEncodingStrategy { return options.keyEncodingStrategy.codableKey(key, path: path) }
        if let known = state.pointee.convertedKeys[key] { return known }
        let made = options.keyEncodingStrategy.codableKey(key, path: path)
        state.pointee.convertedKeys[key] = made
        return made
    }

    /// What `JSONEncoder` makes of a value that encoded nothing through a shared encoder (a single value container,
    /// a custom date or data strategy).
    func emptyObjectIfPending(_ index: Int) {
        if nodes[index].kind == .pending { makeContainer(index, object: true) }
    }

    /// Makes `index` a container of the kind wanted, kept if it is one already. Returns its kind before: anything
    /// but `.pending` or the kind wanted is a value replaced (``replaced(_:by:at:)``).
    @discardableResult
    func makeContainer(_ index: Int, object: Bool) -> Node.Kind {
        let wanted: Node.Kind = object ? .object : .array
        let previous = nodes[index].kind
        guard previous != wanted else { return previous }
        nodes[index].kind = wanted
        forgetIndex(of: index)
        nodes[index].first = -1
        nodes[index].last = -1
        nodes[index].count = 0
        return previous
    }

    var misuse: EncodingError? { state.pointee.misuse }

    /// A container asked for over a value of another kind, where `JSONEncoder` stops the program. Container methods
    /// can't throw, so the first such error is kept and thrown by ``EncodingRun/writeEncodable(_:isTopLevel:capacityLimit:)``.
    @inline(never)
    func replaced(_ previous: Node.Kind, by wanted: Node.Kind, at path: [any CodingKey]) {
        guard state.pointee.misuse == nil else { return }
        let what = previous == .text ? "a value" : previous == .object ? "a keyed container" : "an unkeyed container"
        let container = wanted == .object ? "keyed" : "unkeyed"
        state.pointee.misuse = .invalidValue(
            path.last.map { $0.stringValue } ?? "",
            .init(
                codingPath: path,
                debugDescription:
                    "Attempt to make a new \(container) container where \(what) was already encoded at this path."))
    }

    @inline(__always)
    func setText(_ index: Int, _ write: (inout JSONWriter) throws -> Void) rethrows {
        let start = text.out.pointee.count
        try write(&text)
        nodes[index].kind = .text
        let end = text.out.pointee.count
        guard end <= capacityLimit else {
            // Dropped, so the tree holds no position that wrapped (and the limit is met again after the next).
            text.out.pointee.removeAll(keepingFirst: start)
            nodes[index].textStart = 0
            nodes[index].textLength = 0
            return tooLarge()
        }
        nodes[index].textStart = Int32(truncatingIfNeeded: start)
        nodes[index].textLength = Int32(truncatingIfNeeded: end - start)
    }

    @inline(never)
    private func tooLarge() {
        guard state.pointee.misuse == nil else { return }
        state.pointee.misuse = .invalidValue(
            "",
            .init(
                codingPath: [],
                debugDescription:
                    "The value is larger than \(capacityLimit) bytes or values, the most an Encodable tree holds."))
    }

    /// Without recursion: an explicit stack of open containers.
    func write(_ root: Int, to writer: inout JSONWriter) throws {
        struct Open {
            /// A reordered object's members (``needsOrdering(_:)``); else empty, and `next` follows the siblings.
            var sorted: [Member]
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
                    writer._slowpath_add(value)
                    return
                }
                // `text` is only read here, `writer` only written.
                let all = text.out.pointee.buffer
                writer.rawJSON(
                    bytes: UnsafeRawBufferPointer(
                        rebasing: all[Int(node.textStart)..<Int(node.textStart + node.textLength)]))
            case .object, .pending:  // a pending node has no children: `{}`
                try writer.beginObject()
                let ordered = needsOrdering(index)
                stack.append(
                    Open(
                        sorted: ordered ? members(of: index) : [], next: ordered ? -1 : node.first, isObject: true))
            case .array:
                try writer.beginArray()
                stack.append(Open(sorted: [], next: node.first, isObject: false))
            }
        }
        try begin(root)
        while !stack.isEmpty {
            let top = stack.count - 1
            let child: Int
            let keyNode: Int
            if stack[top].position < stack[top].sorted.count {
                let member = stack[top].sorted[stack[top].position]
                child = Int(member.value)
                keyNode = Int(member.key)
                stack[top].position += 1
            } else if stack[top].next >= 0 {
                child = Int(stack[top].next)
                keyNode = child
                stack[top].next = nodes[child].next
            } else {
                if stack[top].isObject { writer.endObject() } else { writer.endArray() }
                stack.removeLast()
                continue
            }
            if stack[top].isObject {
                writer.key(bytes: keyBytes(Int32(truncatingIfNeeded: keyNode)))
            } else {
                writer.element()
            }
            try begin(child)
        }
    }

    /// Valid until the next key is added.
    private func keyBytes(_ index: Int32) -> UnsafeRawBufferPointer {
        let node = nodes[Int(index)]
        let all = state.pointee.keys.buffer
        precondition(
            node.keyStart >= 0 && node.keyLength >= 0 && Int(node.keyStart) + Int(node.keyLength) <= all.count,
            "EncodableTree: key out of bounds")
        return UnsafeRawBufferPointer(rebasing: all[Int(node.keyStart)..<Int(node.keyStart + node.keyLength)])
    }

    /// The last member of `parent` under `key` (already converted), keys compared by ``sameKey(_:_:)``.
    func member(of parent: Int, key: String) -> Int? {
        if nodes[parent].count > Self.indexedCount {
            // String equality is `sameKey`'s: equal bytes for ASCII, canonical equivalence otherwise.
            if !nodes[parent].indexed { makeIndex(of: parent) }
            return state.pointee.memberIndex[parent]?[key]
        }
        var key = key
        return key.withUTF8 { wanted in
            var found: Int?
            var child = nodes[parent].first
            while child >= 0 {
                if Self.sameKey(keyBytes(child), UnsafeRawBufferPointer(wanted)) { found = Int(child) }
                child = nodes[Int(child)].next
            }
            return found
        }
    }

    /// Members an object may have before they are looked up by an index rather than one by one.
    static let indexedCount = 16

    private func makeIndex(of parent: Int) {
        var index: [String: Int] = [:]
        var child = nodes[parent].first
        while child >= 0 {
            index[String(decoding: keyBytes(child), as: UTF8.self)] = Int(child)
            child = nodes[Int(child)].next
        }
        state.pointee.memberIndex[parent] = index
        nodes[parent].indexed = true
    }

    /// Its members changed other than by an addition: the index is made again when next needed.
    private func forgetIndex(of parent: Int) {
        guard nodes[parent].indexed else { return }
        nodes[parent].indexed = false
        state.pointee.memberIndex[parent] = nil
    }

    /// Whether two keys are one key in `JSONEncoder`'s dictionary: equal bytes, or, when either is non-ASCII, equal
    /// Strings (`"cafe\u{301}"` and `"café"`).
    private static func sameKey(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        if left.elementsEqual(right) { return true }
        guard !UTF8Validation.isASCII(left) || !UTF8Validation.isASCII(right) else { return false }
        return String(decoding: left, as: UTF8.self) == String(decoding: right, as: UTF8.self)
    }

    /// Whether an object's members must be reordered: sorted keys, or a key encoded twice. Otherwise they keep their
    /// encoding order, as no order could match `JSONEncoder`'s per-instance seeded hash.
    private func needsOrdering(_ index: Int) -> Bool {
        let nodes = state.pointee.nodes
        let count = Int(nodes[index].count)
        guard count > 1 else { return false }
        // Keys with other bytes may be equal as Strings: ``members(of:)`` compares them so.
        if options.sortedKeys || nodes[index].hasNonASCIIKey { return true }
        state.pointee.duplicates.begin(count: count)
        var child = nodes[index].first
        while child >= 0 {
            if state.pointee.duplicates.insert(
                keyBytes(child), id: UInt32(bitPattern: child), bytesOf: { keyBytes(Int32(bitPattern: $0)) })
            {
                return true
            }
            child = nodes[Int(child)].next
        }
        return false
    }

    /// An object's members in writing order, as `JSONEncoder`'s dictionary holds them: a key encoded twice is
    /// written once, in its first place, with its last value; sorted by the keys' bytes when asked.
    private func members(of index: Int) -> [Member] {
        var list: [Int32] = []
        var child = nodes[index].first
        while child >= 0 {
            list.append(child)
            child = nodes[Int(child)].next
        }
        var members =
            nodes[index].hasNonASCIIKey
            ? onePerKey(list, by: { String(decoding: keyBytes($0), as: UTF8.self) })
            : onePerKey(list, by: { KeyBytes(bytes: keyBytes($0)) })
        if options.sortedKeys {
            members.sort { keyBytes($0.key).lexicographicallyPrecedes(keyBytes($1.key)) }
        }
        return members
    }

    private func onePerKey<Key: Hashable>(_ list: [Int32], by key: (Int32) -> Key) -> [Member] {
        var members: [Member] = []
        var places: [Key: Int] = [:]
        for member in list {
            let name = key(member)
            if let place = places[name] {
                members[place].value = member
            } else {
                places[name] = members.count
                members.append(Member(key: member, value: member))
            }
        }
        return members
    }

    /// A key's bytes as a dictionary key (valid while the tree adds no key).
    private struct KeyBytes: Hashable {
        let bytes: UnsafeRawBufferPointer
        static func == (left: Self, right: Self) -> Bool { left.bytes.elementsEqual(right.bytes) }
        func hash(into hasher: inout Hasher) { hasher.combine(bytes: bytes) }
    }

    /// The node whose key is written and the node whose value is.
    struct Member {
        var key: Int32
        var value: Int32
    }
}

extension EncodingRun {
    /// `isTopLevel`: the value must encode something, as `JSONEncoder` requires (a nested one that doesn't is `{}`).
    mutating func writeEncodable(
        _ value: any Encodable, isTopLevel: Bool = false, capacityLimit: Int = Tape.capacityLimit
    ) throws {
        let tree = EncodableTree(
            options: writer.options, keepsValues: writer.buildsValues, capacityLimit: capacityLimit)
        // Pooled containers hold the encoder, which holds the tree: break the cycle.
        defer { for maker in tree.keyedMakers.pointee.reclaimers { maker.reclaim() } }
        let root = tree.add(to: -1)
        let encoder = TreeEncoder(tree: tree, slot: root, node: tree.paths.root)
        do {
            try encoder.encode(value, into: root, node: tree.paths.root)
        } catch {
            throw tree.misuse ?? error
        }
        if let misuse = tree.misuse { throw misuse }
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
