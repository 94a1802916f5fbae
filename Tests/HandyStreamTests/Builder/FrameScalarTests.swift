import Foundation
import HandyStream
import Testing

// Properties and elements of `Int`, `Double`, `String` and `Bool` are converted and stored by the frames themselves
// (`ScalarKind`); the same types wrapped in `Optional` still go through their codecs. The two routes must agree on
// every value, every fallback and every diagnostic.

private struct Direct: HandyJSON {
    var int = 7
    var double = 7.5
    var string = String(repeating: "d", count: 40)  // a default with storage of its own, released when replaced
    var bool = true
    var ints: [Int] = [7]
    var doubles: [Double] = [7.5]
    var strings: [String] = ["d"]
    var bools: [Bool] = [true]
}

private struct ThroughCodecs: HandyJSON {
    var int: Int? = 7
    var double: Double? = 7.5
    var string: String? = String(repeating: "d", count: 40)
    var bool: Bool? = true
    var ints: [Int?] = [7]
    var doubles: [Double?] = [7.5]
    var strings: [String?] = ["d"]
    var bools: [Bool?] = [true]
}

private final class DirectClass: HandyJSON {
    var int = 7
    var double = 7.5
    var string = String(repeating: "d", count: 40)
    var bool = true
    required init() {}
}

@Suite("Scalars the frames store themselves")
struct FrameScalarTests {
    /// JSON values of every kind a scalar property meets: numbers of each shape the readers tell apart, strings that
    /// hold numbers or Booleans, strings short and long (repeated, for the run's table of short strings), `null`.
    static let values: [String] = [
        "0", "-0", "1", "-1", "42", "12345678", "-123456789012", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "123456789012345678901234", "1.5", "-0.5", "3.25", "0.1", "-65.613616999999977",
        "1e2", "1E-2", "1.0", "2.50", "1e400", "-1e400", "1e-400", "4.9e-324", "1.7976931348623157e308",
        #""12""#, #""-3""#, #""1.5""#, #""1e2""#, #"" 12""#, #""0x10""#, #""true""#, #""FALSE""#, #""1""#, #""0""#,
        #""""#, #""a""#, #""tag-1""#, #""tag-1""#, #""exactly15bytes!""#, #""sixteen bytes!!!""#,
        #""caf\u00e9 \u65e5\u672c""#, #""line\nbreak \"quoted\" \\ slash""#,
        "\"\(String(repeating: "lorem ipsum ", count: 20))\"", "true", "false", "null",
    ]

    /// One document per value: the value in each property and, with its neighbours, in each array.
    static func document(_ index: Int) -> String {
        let value = values[index]
        let neighbours = [value, values[(index + 1) % values.count], values[(index + 7) % values.count]]
            .joined(separator: ",")
        let members =
            ["int", "double", "string", "bool"].map { "\"\($0)\": \(value)" }
            + ["ints", "doubles", "strings", "bools"].map { "\"\($0)\": [\(neighbours)]" }
        return "{" + members.joined(separator: ", ") + "}"
    }

    @Test("Each property and element is what the codec gives its Optional, with the same diagnostics")
    func sameAsThroughCodecs() throws {
        for index in Self.values.indices {
            let json = Self.document(index)
            let (direct, directHeard) = try decodeHearing(Direct.self, json)
            let (coded, codedHeard) = try decodeHearing(ThroughCodecs.self, json)
            // A property that doesn't fit keeps its default on both routes; an element that doesn't fit is dropped
            // from `[T]` and becomes `nil` in `[T?]`.
            #expect(direct.int == coded.int, "\(json)")
            #expect(direct.double.bitPattern == coded.double?.bitPattern, "\(json)")
            #expect(direct.string == coded.string, "\(json)")
            #expect(direct.bool == coded.bool, "\(json)")
            #expect(direct.ints == coded.ints.compactMap { $0 }, "\(json)")
            #expect(direct.doubles.map { $0.bitPattern } == coded.doubles.compactMap { $0?.bitPattern }, "\(json)")
            #expect(direct.strings == coded.strings.compactMap { $0 }, "\(json)")
            #expect(direct.bools == coded.bools.compactMap { $0 }, "\(json)")
            // The same fallbacks are heard, but for what `[T?]` makes of an element: `nil` rather than dropped, and
            // a `null` element, which is `nil` there without a word.
            let directFallbacks =
                directHeard
                .filter { !$0.hasSuffix("found null; the element was dropped") }
                .map { $0.replacingOccurrences(of: "was dropped", with: "became nil") }
            #expect(directFallbacks == codedHeard, "\(json)")
            let (object, _) = try decodeHearing(DirectClass.self, json)
            #expect(object.int == direct.int && object.double.bitPattern == direct.double.bitPattern, "\(json)")
            #expect(object.string == direct.string && object.bool == direct.bool, "\(json)")
        }
    }

    @Test("Known values: conversions, adaptations and fallbacks")
    func knownValues() throws {
        let json = #"""
            {"int": "12", "double": -65.613616999999977, "string": 1.50, "bool": "FALSE",
             "ints": [1, 2.5, "3", -4, null, 1e2, true], "doubles": [1, "2.5", 1e400, -0.5, false],
             "strings": ["tag-1", "tag-1", 3, true, null, "日本"], "bools": [true, 0, "1", "no", null]}
            """#
        let (value, heard) = try decodeHearing(Direct.self, json)
        #expect(value.int == 12)
        #expect(value.double == -65.613616999999977)
        #expect(value.string == "1.50")
        #expect(value.bool == false)
        #expect(value.ints == [1, 3, -4, 100, 1])
        #expect(value.doubles == [1, 2.5, -0.5, 0])
        #expect(value.strings == ["tag-1", "tag-1", "3", "true", "日本"])
        #expect(value.bools == [true, false, true])
        // 2.5 and null in `ints`, 1e400 in `doubles`, null in `strings`, "no" and null in `bools`.
        #expect(heard.count == 6, "\(heard)")
        #expect(heard.contains { $0.contains("$.ints[1]") && $0.contains("the number 2.5") })
        #expect(heard.contains { $0.contains("$.doubles[2]") && $0.contains("the number 1e400") })

        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        #expect(throws: (any Error).self) { try strict.decode(Direct.self, from: #"{"int": 1.5}"#) }
        #expect(throws: (any Error).self) { try strict.decode(Direct.self, from: #"{"doubles": [1, 1e400]}"#) }
        #expect(try strict.decode(Direct.self, from: #"{"int": 3, "doubles": [2]}"#).doubles == [2])
    }
}
