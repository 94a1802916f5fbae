import Foundation
import HandyStream
import Testing

/// An integer written with a fraction or an exponent is read by JSONDecoder through `Double`, then `T(exactly:)`:
/// an exact integer whose `Double` rounds past the type's range (2^63, 2^64) is refused, whatever the text's own value.
@Suite struct StrictIntegerThroughDoubleTests {
    struct Box<T: Decodable & Equatable>: Decodable, Equatable { var v: T }

    static let strict = ModelDecoder(options: DecodingOptions(strict: true))

    /// What JSONDecoder and strict mode read `text` as, as a `T` member.
    static func read<T: Decodable & Equatable>(_: T.Type, _ text: String) -> [T?] {
        let json = #"{"v": \#(text)}"#
        return [
            (try? JSONDecoder().decode(Box<T>.self, from: Data(json.utf8)))?.v,
            (try? strict.decode(Box<T>.self, from: json))?.v,
        ]
    }

    @Test func refusedAsJSONDecoderRefusesThem() {
        for text in ["9223372036854775807.0", "-9223372036854775808.0", "9223372036854775806.0"] {
            #expect(Self.read(Int.self, text) == [nil, nil], "\(text) as Int")
        }
        #expect(Self.read(Int64.self, "9223372036854775807e0") == [nil, nil])
        #expect(Self.read(UInt64.self, "18446744073709551615.0") == [nil, nil])
        #expect(Self.read(UInt64.self, "1.8446744073709551615e19") == [nil, nil])
    }

    /// Near the edge, what JSONDecoder reads is read the same; digits alone are exact; lenient mode still takes the
    /// exact value (it rescues what JSONDecoder refuses).
    @Test func theRestIsUnchanged() throws {
        let accepted: [(String, Int)] = [
            ("-9223372036854775807.0", -9_223_372_036_854_775_807), ("9007199254740993.0", 9_007_199_254_740_993),
            ("9223372036854775807", .max), ("-9223372036854775808", .min), ("1e18", 1_000_000_000_000_000_000),
        ]
        for (text, value) in accepted {
            #expect(Self.read(Int.self, text) == [value, value], "\(text) as Int")
        }
        #expect(Self.read(UInt64.self, "18446744073709551615") == [UInt64.max, UInt64.max])
        let lenient = ModelDecoder()
        #expect(try lenient.decode(Box<Int>.self, from: #"{"v": 9223372036854775807.0}"#).v == .max)
        #expect(try lenient.decode(Box<UInt64>.self, from: #"{"v": 18446744073709551615.0}"#).v == .max)
    }
}
