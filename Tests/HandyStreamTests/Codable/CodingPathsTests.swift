import Foundation
@testable import HandyStream
import Testing

/// The coding paths that the decoder and the encoder keep in one array (``CodingPaths``).
@Suite struct CodingPathsTests {
    private static func names(_ node: CodingPathNode) -> [String] { node.path.map(\.stringValue) }

    /// Paths branch from shared steps; each reads back its own keys and indices, as Foundation names them.
    @Test func pathsReadBackTheirSteps() {
        let paths = CodingPaths()
        defer { paths.deallocate() }
        let root = paths.root
        let user = root.appending(NamedKey("user"))
        let tags = user.appending(NamedKey("tags"))
        let second = tags.appending(index: 2)
        let name = user.appending(NamedKey("name"))
        #expect(Self.names(root) == [])
        #expect(Self.names(second) == ["user", "tags", "Index 2"])
        #expect(second.path.last?.intValue == 2)
        #expect(Self.names(name) == ["user", "name"])
        #expect(second.jsonPath == ".user.tags[2]")
        #expect(second.depth == 3 && name.depth == 2 && root.depth == 0)
        #expect(Self.names(second.parent) == ["user", "tags"])
        #expect(Self.names(root.parent) == [])
    }

    /// Nodes made before the paths were emptied read as some other path afterwards, never out of bounds nor in a
    /// loop, even when such nodes are extended (a step's parent is always an earlier step).
    @Test func nodesKeptPastRemoveAllStayHarmless() {
        let paths = CodingPaths()
        defer { paths.deallocate() }
        var deep = paths.root
        for index in 0..<50 { deep = deep.appending(index: index) }
        paths.removeAll()
        #expect(deep.path.isEmpty && deep.depth == 0)
        // Extended, the stale node becomes step 1; the steps below it then reach number 50, the stale node's own:
        // were step 1's parent still 50, the path would lead back to step 1 forever.
        let stale = deep.appending(NamedKey("x"))
        #expect(Self.names(stale) == ["x"])
        var below = stale
        for index in 0..<60 { below = below.appending(index: index) }
        #expect(below.depth == 61 && stale.depth == 1)
        #expect(deep.depth == 50 && Self.names(deep).first == "x")
    }

    /// A container kept by each streamed element reads its own coding path afterwards, as `JSONDecoder`'s does:
    /// the next element's decoding gets paths of its own.
    @Test func aKeptContainerKeepsItsPath() throws {
        let json = #"[{"inner": {"name": "a"}}, {"inner": {"name": "b"}}, {"inner": {"name": "c"}}]"#
        let elements = try ModelDecoder().elements(of: KeepsNestedContainer.self, at: "[*]")
        var streamed = try elements.feed(Array(json.utf8))
        streamed += try elements.finish()
        #expect(streamed.map { $0.inner.codingPath.map(\.stringValue) } == [["inner"], ["inner"], ["inner"]])
        #expect(try streamed.map { try $0.name() } == ["a", "b", "c"])
        let foundation = try JSONDecoder().decode(
            KeepsNestedContainer.self, from: Data(#"{"inner": {"name": "a"}}"#.utf8))
        let ours = try ModelDecoder().decode(KeepsNestedContainer.self, from: #"{"inner": {"name": "a"}}"#)
        #expect(ours.inner.codingPath.map(\.stringValue) == foundation.inner.codingPath.map(\.stringValue))
    }
}

private struct KeepsNestedContainer: Decodable {
    let inner: KeyedDecodingContainer<AnyCodingKey>
    init(from decoder: any Decoder) throws {
        inner = try decoder.container(keyedBy: AnyCodingKey.self).nestedContainer(
            keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(stringValue: "inner"))
    }
    func name() throws -> String { try inner.decode(String.self, forKey: AnyCodingKey(stringValue: "name")) }
}

/// The decoder keeps one keyed-container maker per key type, in a table of 32 slots picked by the key type's
/// address: a value whose `init(from:)` asks for containers of 64 key types, in turn and twice over, gets each
/// container over its own key type (as `JSONDecoder` does), however the types share slots.
@Suite struct KeyedContainerMakerTests {
    struct TaggedKey<Tag>: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads `v` through a container keyed by `TaggedKey<T>`, then through containers keyed by the key types of
    /// `[T]`, `[[T]]`, … (`depth` more), each time with the key's type checked.
    struct ManyKeyTypes: Decodable {
        var values: [String] = []

        init(from decoder: any Decoder) throws {
            for _ in 0..<2 { try Self.read(Int.self, depth: 63, from: decoder, into: &values) }
        }

        static func read<T>(_: T.Type, depth: Int, from decoder: any Decoder, into values: inout [String]) throws {
            let container = try decoder.container(keyedBy: TaggedKey<T>.self)
            let key = try #require(container.allKeys.first { $0.stringValue == "v" })
            values.append("\(type(of: key)) \(try container.decode(Int.self, forKey: key))")
            if depth > 0 { try read([T].self, depth: depth - 1, from: decoder, into: &values) }
        }
    }

    /// Writes `v` through containers keyed by 64 key types, each nested in the one before, as `JSONEncoder` does.
    struct ManyKeyTypesWritten: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: TaggedKey<Int>.self)
            try Self.write(Int.self, depth: 63, into: &container)
        }

        static func write<T>(_: T.Type, depth: Int, into container: inout KeyedEncodingContainer<TaggedKey<T>>) throws {
            try container.encode(depth, forKey: TaggedKey(stringValue: "v"))
            guard depth > 0 else { return }
            var inner = container.nestedContainer(
                keyedBy: TaggedKey<[T]>.self, forKey: TaggedKey(stringValue: "\(type(of: container))"))
            try write([T].self, depth: depth - 1, into: &inner)
        }
    }

    @Test func eachKeyTypeGetsItsOwnContainerWhenWritten() throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        let expected = String(decoding: try foundation.encode(ManyKeyTypesWritten()), as: UTF8.self)
        let written = try ModelEncoder(options: EncodingOptions(sortedKeys: true)).encodeToString(ManyKeyTypesWritten())
        #expect(written == expected)
        #expect(expected.count > 64 * 40)
    }

    @Test func eachKeyTypeGetsItsOwnContainer() throws {
        let json = #"{"v": 7}"#
        let ours = try ModelDecoder().decode(ManyKeyTypes.self, from: json).values
        let foundation = try JSONDecoder().decode(ManyKeyTypes.self, from: Data(json.utf8)).values
        #expect(ours.count == 128)
        #expect(ours == foundation)
    }
}
