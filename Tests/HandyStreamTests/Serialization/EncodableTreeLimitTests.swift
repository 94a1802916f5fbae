import Foundation
import Testing

@testable import HandyStream

// The `Encodable` tree keeps 32-bit positions into its text and keys. Past the limit, encoding must throw rather
// than wrap a position and read outside the text. The real limit is 2 GiB; these tests lower it.

@Suite struct EncodableTreeLimitTests {
    struct Member: Encodable {
        var name = "ab\"c"
        var values = [1, 2, 3]
    }

    /// All bytes of `value` as one `Encodable` tree writes them, or its error, with positions limited to `limit`.
    private func written(_ value: any Encodable, limit: Int) throws -> String {
        var run = EncodingRun(options: EncodingOptions(sortedKeys: true))
        try run.writeEncodable(value, isTopLevel: true, capacityLimit: limit)
        return String(decoding: run.writer.bytes, as: UTF8.self)
    }

    private func tooLarge(_ value: any Encodable, limit: Int) -> Bool {
        do {
            _ = try written(value, limit: limit)
            return false
        } catch EncodingError.invalidValue(_, let context) {
            return context.debugDescription.contains("larger than \(limit) bytes or values")
        } catch {
            return false
        }
    }

    @Test func withinTheLimitTheTextIsJSONEncoders() throws {
        let value = Array(repeating: Member(), count: 4)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let expected = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(try written(value, limit: 1_000) == expected)
    }

    @Test func pastTheLimitEncodingThrows() {
        let strings = Array(repeating: String(repeating: "x", count: 30), count: 10)
        // Scalar text: 10 strings of 32 bytes.
        #expect(!tooLarge(strings, limit: 320 + 11))
        #expect(tooLarge(strings, limit: 319))
        // Keys: 40 members with keys of 4 and 6 bytes; the nodes alone stay well under the limit.
        let members = Array(repeating: Member(), count: 20)
        #expect(tooLarge(members, limit: 190))
        // Nodes: 200 small numbers, 200 bytes of text, 201 nodes.
        #expect(tooLarge(Array(repeating: 1, count: 200), limit: 200))
        #expect(!tooLarge(Array(repeating: 1, count: 200), limit: 201))
    }
}
