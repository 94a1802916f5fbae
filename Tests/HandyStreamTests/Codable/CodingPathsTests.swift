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
