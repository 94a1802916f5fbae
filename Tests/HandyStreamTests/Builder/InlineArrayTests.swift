@testable import HandyStream
import HandyJSON
import Testing

private struct Shape: HandyJSON {
    var point: InlineArray<2, Double> = [0, 0]
    var ring: [InlineArray<2, Double>] = []
    var names: InlineArray<3, String> = ["", "", ""]
    var maybe: InlineArray<2, Int>? = nil
    var nested: InlineArray<2, [Int]> = [[], []]
}

/// Counts its live instances, so that a test can see elements built and then thrown away being destroyed.
private final class Tracked: HandyJSON {
    nonisolated(unsafe) static var live = 0
    var id = 0
    required init() { Tracked.live += 1 }
    deinit { Tracked.live -= 1 }
}

private struct Pair: HandyJSON {
    var pair: InlineArray<2, Tracked>? = nil
}

@Suite("InlineArray properties")
struct InlineArrayTests {
    private func elements<T>(_ value: InlineArray<2, T>) -> [T] { [value[0], value[1]] }
    private func elements<T>(_ value: InlineArray<3, T>) -> [T] { [value[0], value[1], value[2]] }

    @Test("Arrays of exactly the right length fill inline arrays, nested in arrays and optionals too")
    func decodes() throws {
        let json = #"""
            {"point": [1.5, -2], "ring": [[0, 0], [1, 0], [1, 1]], "names": ["a", "b", "c"], "maybe": [7, "8"],
             "nested": [[1], [2, 3]]}
            """#
        let shape = try #require(Shape.deserialize(from: json))
        #expect(elements(shape.point) == [1.5, -2])
        #expect(shape.ring.map { elements($0) } == [[0, 0], [1, 0], [1, 1]])
        #expect(elements(shape.names) == ["a", "b", "c"])
        #expect(shape.maybe.map { elements($0) } == [7, 8])
        #expect(elements(shape.nested) == [[1], [2, 3]])
    }

    @Test("Any other array keeps the default, and says what it was")
    func mismatches() throws {
        let heard = Locked<[String]>([])
        let options = DecodingOptions(diagnostics: { diagnostic in
            heard.withLock { $0.append(diagnostic.description) }
        })
        let json = #"""
            {"point": [1, 2, 3], "names": ["a", null, "c"], "maybe": [1], "nested": [[1], {"a": 1}],
             "ring": [[1, 2], [3], [4, 5]]}
            """#
        let shape = try ModelDecoder(options: options).decode(Shape.self, from: json)
        #expect(elements(shape.point) == [0, 0])
        #expect(elements(shape.names) == ["", "", ""])
        #expect(shape.maybe == nil)
        #expect(elements(shape.nested) == [[], []])
        #expect(shape.ring.map { elements($0) } == [[1, 2], [4, 5]])
        let expected: [String] = [
            "$.point: expected an array of exactly 2 elements of type Double, found an array of 3 elements; "
                + "the default was kept",
            "$.names: expected an array of exactly 3 elements of type String, found an array whose element [1] "
                + "is null; the default was kept",
            "$.maybe: expected an array of exactly 2 elements of type Int, found an array of 1 element; "
                + "the default was kept",
            "$.nested: expected an array of exactly 2 elements of type Array<Int>, found an array whose element "
                + "[1] is an object; the default was kept",
            "$.ring[1]: expected an array of exactly 2 elements of type Double, found an array of 1 element; "
                + "the element was dropped",
        ]
        #expect(heard.withLock { $0 } == expected)
        let strict = DecodingOptions(strict: true)
        #expect(throws: JSONDecodingError.self) { try ModelDecoder(options: strict).decode(Shape.self, from: json) }
    }

    @Test("Elements built before the array turned out not to fit are destroyed")
    func destroysPartialValues() throws {
        Tracked.live = 0
        for json in [
            #"{"pair": [{"id": 1}, 2]}"#, #"{"pair": [{"id": 1}]}"#, #"{"pair": [{"id": 1}, {"id": 2}, {"id": 3}]}"#,
            #"{"pair": [{"id": 1}, {"id": 2}]}"#,
        ] {
            let pair = try #require(Pair.deserialize(from: json))
            let kept = pair.pair.map { [$0[0].id, $0[1].id] }
            #expect(kept == (json == #"{"pair": [{"id": 1}, {"id": 2}]}"# ? [1, 2] : nil), "\(json)")
            #expect(Tracked.live == (kept == nil ? 0 : 2), "\(json)")
        }
        // Decoding stopped half-way through the array.
        #expect(Pair.deserialize(from: #"{"pair": [{"id": 1}, {"id": "#) == nil)
        #expect(Tracked.live == 0)
    }

    @Test("Written back as arrays")
    func writes() throws {
        var shape = Shape()
        shape.point = [1.5, 2]
        shape.ring = [[0, 1]]
        shape.names = ["x", "y", "z"]
        shape.maybe = [3, 4]
        #expect(
            shape.toJSONString()
                == #"{"point":[1.5,2.0],"ring":[[0.0,1.0]],"names":["x","y","z"],"maybe":[3,4],"nested":[[],[]]}"#)
        let values = try #require(shape.toJSON())
        #expect(values["point"] as? [Double] == [1.5, 2])
        #expect(values["names"] as? [String] == ["x", "y", "z"])
        let back = try #require(Shape.deserialize(from: shape.toJSONString()))
        #expect(elements(back.point) == [1.5, 2])
        #expect(back.maybe.map { elements($0) } == [3, 4])
    }
}
