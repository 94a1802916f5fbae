import Foundation
import HandyStream
import Testing

/// A `JSONValue` number inside an `Encodable` value: `ModelEncoder` writes its text as read; `JSONEncoder` writes
/// what `JSONValue.encode(to:)` gives it (`Int64`, else `Decimal`, else `Double`).
@Suite struct JSONValueNumberEncodingTests {
    struct Wrapper: Encodable {
        var v: JSONValue
    }

    @Test func textAsReadAgainstJSONEncoder() throws {
        let fifty = "12345678901234567890123456789012345678901234567890"
        let cases: [(text: String, foundation: String?)] = [
            ("1.0", "1"), ("1e2", "100"), ("-0", "0"), (fifty, "12345678901234567890123456789012345678900000000000"),
            ("1E400", nil),
        ]
        for (text, foundation) in cases {
            let value = Wrapper(v: .number(text))
            #expect(try ModelEncoder().encodeToString(value) == #"{"v":\#(text)}"#)
            let written = try? String(decoding: JSONEncoder().encode(value), as: UTF8.self)
            #expect(
                written == foundation.map { #"{"v":\#($0)}"# },
                "JSONEncoder writes \(text) as \(String(describing: written)) now: see the README's row")
        }
        // The way to JSONEncoder's bytes with ModelEncoder: numbers made `Decimal`s first.
        struct Normalized: Encodable { var v: Decimal }
        #expect(try ModelEncoder().encodeToString(Normalized(v: Decimal(string: "1.0")!)) == #"{"v":1}"#)
    }
}
