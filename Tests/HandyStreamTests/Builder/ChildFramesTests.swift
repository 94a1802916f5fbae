import Foundation
import HandyJSON
import Testing

// A frame keeps the child frames it opened (`ChildFrames`) and hands the same one out again for the next container
// of the same codec, begun afresh, when the codec opens nothing but its frame. These tests decode documents where
// that could go wrong: a property or element that meets another kind of value between two of its containers, the
// same child codec under several parents and at several depths, codecs that do more than open a frame (`Decodable`
// values, `Any`, transforms), and streamed elements.

private struct Leaf: HandyJSON {
    var id = 0
    var values: [Int] = [9]
    var names: [String: Int] = ["default": 1]
}

private struct OtherLeaf: HandyJSON {
    var values: [Int] = []
    var leaf: Leaf? = nil
}

private struct Point: Codable, Equatable {
    var x: Double
    var y: Double
}

private struct Holder: HandyJSON {
    var list: [Int] = [9]
    var leaf = Leaf()
    var maybe: Leaf? = nil
    var other = OtherLeaf()
    var point = Point(x: 0, y: 0)
    var extra: [String: Any] = [:]
    var stamp: Date? = nil

    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< stamp <-- DateTransform()
    }
}

private struct TreeNode: HandyJSON {
    var name = ""
    var children: [TreeNode] = []
    var tags: [String] = []
}

private struct KeptContainers: HandyJSON {
    var byName: [String: [Int]] = [:]
    var models: [String: Leaf] = [:]
    var pairs: InlineArray<2, [Int]> = [[], []]
}

@Suite("Child frames kept by their parents")
struct ChildFramesTests {
    @Test("A property or element that meets another kind of value between two containers")
    func kindChanges() throws {
        let json = #"""
            [{"list": [1, 2], "leaf": {"id": 1, "values": [3]}},
             {"list": {"a": 1}, "leaf": [4, 5]},
             {"list": [3], "leaf": {"id": 3, "values": {"b": 2}, "names": [1]}},
             {"list": "x", "leaf": 7, "maybe": {"id": 4}},
             {"list": [4, 5, 6], "leaf": {"id": 5, "values": [6], "names": {"n": 2}}, "maybe": [1]}]
            """#
        let (holders, heard) = try decodeHearing([Holder].self, json)
        #expect(holders.map(\.list) == [[1, 2], [9], [3], [9], [4, 5, 6]])
        #expect(holders.map(\.leaf.id) == [1, 0, 3, 0, 5])
        #expect(holders.map(\.leaf.values) == [[3], [9], [9], [9], [6]])
        #expect(
            holders.map(\.leaf.names) == [["default": 1], ["default": 1], ["default": 1], ["default": 1], ["n": 2]])
        #expect(holders.map { $0.maybe?.id } == [nil, nil, nil, 4, nil])
        #expect(
            heard == [
                "$[1].list: expected an array, found an object; the default was kept",
                "$[1].leaf: expected an object, found an array; the default was kept",
                "$[2].leaf.values: expected an array, found an object; the default was kept",
                "$[2].leaf.names: expected an object, found an array; the default was kept",
                "$[3].list: expected an array, found a string; the default was kept",
                "$[3].leaf: expected an object, found the number 7; the default was kept",
                "$[4].maybe: expected an object, found an array; the default was kept",
            ])
        // The same in an array of arrays, whose elements are arrays, objects and scalars in turn.
        let (nested, nestedHeard) = try decodeHearing([[Int]].self, #"[[1], {"a": [2]}, [2, 3], 4, [], [5]]"#)
        #expect(nested == [[1], [2, 3], [], [5]])
        #expect(nestedHeard.count == 2)
    }

    @Test("Each container starts empty, whatever the one before it held")
    func begunAfresh() throws {
        let json = #"""
            [{"list": [1, 2, 3], "leaf": {"id": 1, "values": [1, 2], "names": {"a": 1, "b": 2}}},
             {"list": [], "leaf": {"values": [], "names": {}}},
             {"list": [4], "leaf": {"id": 3, "names": {"c": 3}}},
             {"leaf": {}},
             {"list": [5, 6], "leaf": {"values": [7]}}]
            """#
        let (holders, heard) = try decodeHearing([Holder].self, json)
        #expect(heard.isEmpty)
        #expect(holders.map(\.list) == [[1, 2, 3], [], [4], [9], [5, 6]])
        #expect(holders.map(\.leaf.id) == [1, 0, 3, 0, 0])
        #expect(holders.map(\.leaf.values) == [[1, 2], [], [9], [9], [7]])
        #expect(holders.map(\.leaf.names) == [["a": 1, "b": 2], [:], ["c": 3], ["default": 1], ["default": 1]])
    }

    @Test("The same child codec under several parents and at several depths")
    func sharedAndRecursive() throws {
        // `[Int]` under `Holder`, `Leaf` and `OtherLeaf`, and `Leaf` at two depths, interleaved.
        let json = #"""
            [{"list": [1], "other": {"values": [2], "leaf": {"id": 1, "values": [3]}}, "leaf": {"values": [4]}},
             {"other": {"leaf": {"id": 2}, "values": [5, 6]}, "list": [7], "maybe": {"values": [8]}},
             {"other": {"values": []}, "leaf": {"id": 3, "values": [9, 10]}}]
            """#
        let (holders, heard) = try decodeHearing([Holder].self, json)
        #expect(heard.isEmpty)
        #expect(holders.map(\.list) == [[1], [7], [9]])
        #expect(holders.map(\.other.values) == [[2], [5, 6], []])
        #expect(holders.map { $0.other.leaf?.id } == [1, 2, nil])
        #expect(holders.map { $0.other.leaf?.values } == [[3], [9], nil])
        #expect(holders.map(\.leaf.values) == [[4], [9], [9, 10]])
        #expect(holders.map { $0.maybe?.values } == [nil, [8], nil])

        // A recursive model: `[TreeNode]` and `[String]` at every depth, of different lengths.
        let tree = #"""
            {"name": "a", "tags": ["x"], "children": [
              {"name": "b", "children": [{"name": "c", "tags": ["y", "z"]}, {"name": "d"}]},
              {"name": "e", "tags": [], "children": [{"name": "f", "children": [{"name": "g", "tags": ["w"]}]}]},
              {"name": "h", "children": []}]}
            """#
        let (root, treeHeard) = try decodeHearing(TreeNode.self, tree)
        #expect(treeHeard.isEmpty)
        func names(_ node: TreeNode) -> String {
            node.name + node.tags.joined()
                + (node.children.isEmpty ? "" : "(\(node.children.map(names).joined(separator: ",")))")
        }
        #expect(names(root) == "ax(b(cyz,d),e(f(gw)),h)")
    }

    @Test("Codecs that do more than open a frame: Decodable values, Any, transforms")
    func codecsThatDoMore() throws {
        let json = #"""
            [{"point": {"x": 1, "y": 2}, "extra": {"a": [1, {"b": 2}]}, "stamp": 0},
             {"point": {"x": 3, "y": 4}, "extra": {"c": "d"}, "stamp": 86400},
             {"point": {"x": 5}, "extra": {}, "stamp": "x"},
             {"point": {"x": 6, "y": 7}, "extra": {"e": [[]]}, "stamp": 60}]
            """#
        let (holders, heard) = try decodeHearing([Holder].self, json)
        #expect(holders.map(\.point) == [Point(x: 1, y: 2), Point(x: 3, y: 4), Point(x: 5, y: 0), Point(x: 6, y: 7)])
        #expect(holders.map { $0.extra.keys.sorted() } == [["a"], ["c"], [], ["e"]])
        #expect((holders[0].extra["a"] as? [Any])?.count == 2)
        #expect(holders[1].extra["c"] as? String == "d")
        #expect(holders.map { $0.stamp?.timeIntervalSince1970 } == [0, 86400, nil, 60])
        #expect(
            heard == [
                #"$[2].point.y: No value associated with key CodingKeys(stringValue: "y", intValue: nil) ("y"); "#
                    + "the default was used",
                "$[2].stamp: expected a value the transform of Holder.stamp accepts, found a string; the default was kept",
            ])
    }

    @Test("Dictionaries, inline arrays and JSONValue open their children as arrays and models do")
    func otherContainers() throws {
        let json = #"""
            [{"byName": {"a": [1, 2], "b": {"x": 1}, "c": [], "d": [3]},
              "models": {"m": {"id": 1, "values": [4]}, "n": [5], "o": {"id": 2}},
              "pairs": [[6, 7], [8]]},
             {"byName": {"e": [9]}, "models": {"p": {"values": []}}, "pairs": [[], [10, 11, 12]]}]
            """#
        let (values, heard) = try decodeHearing([KeptContainers].self, json)
        #expect(values.map(\.byName) == [["a": [1, 2], "c": [], "d": [3]], ["e": [9]]])
        #expect(values.map { $0.models.mapValues(\.id) } == [["m": 1, "o": 2], ["p": 0]])
        #expect(values.map { $0.models.mapValues(\.values) } == [["m": [4], "o": [9]], ["p": []]])
        #expect(values.map { [$0.pairs[0], $0.pairs[1]] } == [[[6, 7], [8]], [[], [10, 11, 12]]])
        #expect(
            heard == [
                "$[0].byName.b: expected an array, found an object; the entry was left out",
                "$[0].models.n: expected an object, found an array; the entry was left out",
            ])

        let value = try ModelDecoder().decode(
            JSONValue.self, from: #"{"a": [1, {"b": [2]}], "c": {"d": []}, "e": [[3], {}], "f": {"g": {"h": [4]}}}"#)
        func member(_ key: String, _ value: JSONValue) -> JSONValue.Member { JSONValue.Member(key: key, value: value) }
        #expect(
            value
                == .object([
                    member("a", .array([.number("1"), .object([member("b", .array([.number("2")]))])])),
                    member("c", .object([member("d", .array([]))])),
                    member("e", .array([.array([.number("3")]), .object([])])),
                    member("f", .object([member("g", .object([member("h", .array([.number("4")]))]))])),
                ]))
    }

    @Test("Streamed elements, at every chunk size, are what a whole decode gives")
    func streamed() throws {
        let elements = (0..<40).map { index -> String in
            let list = index % 5 == 3 ? #"{"a": 1}"# : "[\((0..<(index % 4)).map(String.init).joined(separator: ","))]"
            let leaf = index % 7 == 2 ? "[1]" : #"{"id": \#(index), "values": [\#(index)], "names": {"k\#(index)": 1}}"#
            return #"{"list": \#(list), "leaf": \#(leaf), "other": {"values": [\#(index), 1]}}"#
        }
        let json = #"{"data": {"items": ["# + elements.joined(separator: ", ") + "]}}"
        let whole = try ModelDecoder().decode([Holder].self, from: json, at: "data.items")
        for size in [1, 7, 64, 4096] {
            let decoder = try ModelDecoder().elements(of: Holder.self, at: "data.items")
            var streamed: [Holder] = []
            let bytes = Array(json.utf8)
            for start in stride(from: 0, to: bytes.count, by: size) {
                streamed += try decoder.feed(bytes[start..<min(start + size, bytes.count)])
            }
            streamed += try decoder.finish()
            #expect(streamed.map(\.list) == whole.map(\.list), "chunks of \(size)")
            #expect(streamed.map(\.leaf.id) == whole.map(\.leaf.id), "chunks of \(size)")
            #expect(streamed.map(\.leaf.values) == whole.map(\.leaf.values), "chunks of \(size)")
            #expect(streamed.map(\.leaf.names) == whole.map(\.leaf.names), "chunks of \(size)")
            #expect(streamed.map(\.other.values) == whole.map(\.other.values), "chunks of \(size)")
        }
        #expect(whole.map(\.list.count) == (0..<40).map { $0 % 5 == 3 ? 1 : $0 % 4 })
        #expect(whole.map(\.leaf.id) == (0..<40).map { $0 % 7 == 2 ? 0 : $0 })
    }
}
