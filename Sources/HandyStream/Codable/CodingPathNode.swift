/// The coding path of the value being decoded, as a chain that costs nothing until an error or a diagnostic needs
/// it as an array or as a JSON path.
indirect enum CodingPathNode {
    case root
    case key(any CodingKey, CodingPathNode)
    case index(Int, CodingPathNode)

    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root: return keys.reversed()
            case .key(let key, let parent):
                keys.append(key)
                node = parent
            case .index(let index, let parent):
                keys.append(IndexKey(index))
                node = parent
            }
        }
    }

    /// `.user.tags[2]`, relative to where the value sits.
    var jsonPath: String { Self.jsonPath(of: path) }

    static func jsonPath(of path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }

    /// How many keys the path has.
    var depth: Int {
        var count = 0
        var node = self
        while true {
            switch node {
            case .root: return count
            case .key(_, let parent), .index(_, let parent):
                count += 1
                node = parent
            }
        }
    }

    /// The path without its last key (the root's is the root).
    var parent: CodingPathNode {
        switch self {
        case .root: .root
        case .key(_, let parent), .index(_, let parent): parent
        }
    }

    func appending(_ key: any CodingKey) -> CodingPathNode { .key(key, self) }
    func appending(index: Int) -> CodingPathNode { .index(index, self) }
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
