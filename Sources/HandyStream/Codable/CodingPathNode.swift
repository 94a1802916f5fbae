/// A coding path as a step in a ``CodingPaths``: cheap to make and copy, turned into keys only when asked for.
///
/// A node is used only while its `CodingPaths` lives: every holder of a node holds, through its decoder or encoder,
/// the `TapeStorage` or `EncodableTree` that owns those paths.
struct CodingPathNode {
    fileprivate let paths: CodingPaths
    fileprivate let id: Int

    func appending<Key: CodingKey>(_ key: Key) -> CodingPathNode { paths.add(parent: id, key: key) }
    func appending(index: Int) -> CodingPathNode { paths.add(parent: id, index: index) }

    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var id = self.id
        while let step = paths.step(id) {
            keys.append(paths.key(of: step))
            id = step.parent
        }
        return keys.reversed()
    }

    /// `.user.tags[2]`, relative to where the value sits.
    var jsonPath: String { Self.jsonPath(of: path) }

    static func jsonPath(of path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }

    var depth: Int {
        var count = 0
        var id = self.id
        while let step = paths.step(id) {
            count += 1
            id = step.parent
        }
        return count
    }

    /// The path without its last key (the root's is the root).
    var parent: CodingPathNode { CodingPathNode(paths: paths, id: paths.step(id)?.parent ?? 0) }
}

/// The coding paths of one decode or encode, a tree in one array of steps (id 0: the root), only added, and dropped
/// at once by ``removeAll()``. A handle on manual memory (``deallocate()``): a class property would add an
/// exclusivity check to each step added.
struct CodingPaths {
    fileprivate struct Step {
        /// Always an earlier step (0: the root).
        let parent: Int
        /// An index's value; for a key, `-1 - place`, its place in ``Storage/keys``, or -1 for a key kept here.
        let index: Int
        /// A ``ByteKey``, kept as its type and byte and made into an `any CodingKey` only when a path is read.
        let keyType: (any CodingKey.Type)?
        let keyByte: UInt8

        var byteKey: (any CodingKey)? { keyType.map { ByteKey.key($0, byte: keyByte) } }
    }

    private struct Storage {
        var steps: [Step] = []
        var keys: [any CodingKey] = []
    }

    private let storage: UnsafeMutablePointer<Storage>

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage())
    }

    /// No copy of this handle, nor any node made from it, is used again.
    func deallocate() {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    var allocatedBytes: Int {
        storage.pointee.steps.capacity * MemoryLayout<Step>.stride
            + storage.pointee.keys.capacity * MemoryLayout<any CodingKey>.stride
    }

    var root: CodingPathNode { CodingPathNode(paths: self, id: 0) }

    /// The nodes made so far are not used again; one that is reads as another path, never out of bounds or in a
    /// loop, as a step's parent is always an earlier step.
    func removeAll() {
        storage.pointee.steps.removeAll(keepingCapacity: true)
        storage.pointee.keys.removeAll(keepingCapacity: true)
    }

    fileprivate func add(parent: Int, index: Int) -> CodingPathNode {
        add(parent: parent, index: index, keyType: nil, keyByte: 0)
    }

    fileprivate func add<Key: CodingKey>(parent: Int, key: Key) -> CodingPathNode {
        if ByteKey.fits(Key.self) {
            return add(parent: parent, index: -1, keyType: Key.self, keyByte: ByteKey.byte(of: key))
        }
        storage.pointee.keys.append(key)
        return add(parent: parent, index: -storage.pointee.keys.count, keyType: nil, keyByte: 0)
    }

    @inline(__always)
    private func add(parent: Int, index: Int, keyType: (any CodingKey.Type)?, keyByte: UInt8) -> CodingPathNode {
        let count = storage.pointee.steps.count
        // A node kept past `removeAll` may name a step not made yet: its steps hang from the root.
        storage.pointee.steps.append(
            Step(parent: parent <= count ? parent : 0, index: index, keyType: keyType, keyByte: keyByte))
        return CodingPathNode(paths: self, id: count + 1)
    }

    /// 1 is the first added; `nil` for the root and for a step no longer kept.
    fileprivate func step(_ id: Int) -> Step? {
        id > 0 && id <= storage.pointee.steps.count ? storage.pointee.steps[id - 1] : nil
    }

    fileprivate func key(of step: Step) -> any CodingKey {
        guard step.index < 0 else { return IndexKey(step.index) }
        if let key = step.byteKey { return key }
        let place = -1 - step.index
        return place < storage.pointee.keys.count ? storage.pointee.keys[place] : NamedKey("")
    }
}

/// An element's position in an unkeyed container, named as Foundation names it.
struct IndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

/// A key made at run time (an object's members as `allKeys`, `super`).
struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
