import Foundation
@testable import HandyStream
import Testing

/// The parsing cases of Nicolas Seriot's JSONTestSuite (github.com/nst/JSONTestSuite, MIT licence, copied in
/// `Fixtures/JSONTestSuite` with its LICENSE): `y_` must be accepted, `n_` rejected, `i_` are the implementation's
/// choice but must neither crash nor hang.
enum JSONTestSuite {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/JSONTestSuite/test_parsing")

    static func files(_ prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    /// Decodes the file into `Any`; returns the error, or nil when accepted.
    static func outcome(_ name: String) throws -> JSONDecodingError? {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        do {
            _ = try ModelDecoder().decode(Any.self, from: data)
            return nil
        } catch let error as JSONDecodingError {
            return error
        }
    }

    /// What HandyStream does with each implementation-defined case.
    static let implementationDefined: [String: Bool] = [
        // Numbers out of every type's range are valid JSON: accepted; they fit no Int or Double property
        // (the default is kept), and a String property gets their exact text.
        "i_number_double_huge_neg_exp.json": true,
        "i_number_huge_exp.json": true,
        "i_number_neg_int_huge_exp.json": true,
        "i_number_pos_double_huge_exp.json": true,
        "i_number_real_neg_overflow.json": true,
        "i_number_real_pos_overflow.json": true,
        "i_number_real_underflow.json": true,
        "i_number_too_big_neg_int.json": true,
        "i_number_too_big_pos_int.json": true,
        "i_number_very_big_negative_int.json": true,
        // Escaped surrogates without their partner: U+FFFD in lenient decoding (the default), an error in strict
        // decoding (see `unpairedSurrogates` below).
        "i_object_key_lone_2nd_surrogate.json": true,
        "i_string_1st_surrogate_but_2nd_missing.json": true,
        "i_string_1st_valid_surrogate_2nd_invalid.json": true,
        "i_string_incomplete_surrogate_and_escape_valid.json": true,
        "i_string_incomplete_surrogate_pair.json": true,
        "i_string_incomplete_surrogates_escape_valid.json": true,
        "i_string_invalid_lonely_surrogate.json": true,
        "i_string_invalid_surrogate.json": true,
        "i_string_inverted_surrogates_U+1D11E.json": true,
        "i_string_lone_second_surrogate.json": true,
        // UTF-16 and UTF-32 input, with or without a byte order mark, is told by its first bytes and read, as
        // JSONDecoder reads it.
        "i_string_UTF-16LE_with_BOM.json": true,
        "i_string_utf16BE_no_BOM.json": true,
        "i_string_utf16LE_no_BOM.json": true,
        // Bytes that are not UTF-8: refused.
        "i_string_UTF-8_invalid_sequence.json": false,
        "i_string_UTF8_surrogate_U+D800.json": false,
        "i_string_invalid_utf-8.json": false,
        "i_string_iso_latin_1.json": false,
        "i_string_lone_utf8_continuation_byte.json": false,
        "i_string_not_in_unicode_range.json": false,
        "i_string_overlong_sequence_2_bytes.json": false,
        "i_string_overlong_sequence_6_bytes.json": false,
        "i_string_overlong_sequence_6_bytes_null.json": false,
        "i_string_truncated-utf-8.json": false,
        // 500 levels: under the default cap of 512.
        "i_structure_500_nested_arrays.json": true,
        // A UTF-8 byte order mark is skipped (RFC 8259 lets a parser ignore it; JSONDecoder does).
        "i_structure_UTF-8_BOM_empty_object.json": true,
    ]
}

@Suite("JSONTestSuite conformance")
struct JSONTestSuiteTests {
    @Test("The corpus is complete")
    func corpus() {
        #expect(JSONTestSuite.files("y_").count == 95)
        #expect(JSONTestSuite.files("n_").count == 188)
        #expect(JSONTestSuite.files("i_").count == 35)
    }

    @Test("y_: accepted", arguments: JSONTestSuite.files("y_"))
    func accepted(name: String) throws {
        let error = try JSONTestSuite.outcome(name)
        #expect(error == nil, "\(name): \(String(describing: error))")
    }

    @Test("n_: rejected with an error", arguments: JSONTestSuite.files("n_"))
    func rejected(name: String) throws {
        #expect(try JSONTestSuite.outcome(name) != nil, "\(name) was accepted")
    }

    @Test("i_: the documented choice", arguments: JSONTestSuite.files("i_"))
    func implementationDefined(name: String) throws {
        let expected = try #require(JSONTestSuite.implementationDefined[name] as Bool?, "\(name) is not in the table")
        let error = try JSONTestSuite.outcome(name)
        #expect((error == nil) == expected, "\(name): \(String(describing: error))")
    }

    /// The surrogate cases, and what lenient decoding makes of them.
    static let surrogateCases: [(file: String, lenient: String)] = [
        ("i_object_key_lone_2nd_surrogate.json", "\u{FFFD}"),
        ("i_string_1st_surrogate_but_2nd_missing.json", "\u{FFFD}"),
        ("i_string_1st_valid_surrogate_2nd_invalid.json", "\u{FFFD}\u{1234}"),
        ("i_string_incomplete_surrogate_and_escape_valid.json", "\u{FFFD}\n"),
        ("i_string_incomplete_surrogate_pair.json", "\u{FFFD}a"),
        ("i_string_incomplete_surrogates_escape_valid.json", "\u{FFFD}\u{FFFD}\n"),
        ("i_string_invalid_lonely_surrogate.json", "\u{FFFD}"),
        ("i_string_invalid_surrogate.json", "\u{FFFD}abc"),
        ("i_string_inverted_surrogates_U+1D11E.json", "\u{FFFD}\u{FFFD}"),
        ("i_string_lone_second_surrogate.json", "\u{FFFD}"),
    ]

    @Test(
        "Unpaired surrogate escapes: U+FFFD when lenient, an error when strict, never another character",
        arguments: surrogateCases.map(\.file))
    func unpairedSurrogates(file: String) throws {
        let data = try Data(contentsOf: JSONTestSuite.directory.appendingPathComponent(file))
        let expected = try #require(Self.surrogateCases.first { $0.file == file }?.lenient)
        let value = try ModelDecoder().decode(JSONValue.self, from: data)
        let text: String? =
            switch value {
            case .array(let elements): elements.first.flatMap { if case .string(let text) = $0 { text } else { nil } }
            case .object(let members): members.first?.key
            default: nil
            }
        #expect(text == expected)
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        #expect(throws: DecodingError.self) { try strict.decode(JSONValue.self, from: data) }
        // Every chunk size gives the same string.
        for size in 1...8 {
            let decoder = try ModelDecoder().incremental(JSONValue.self)
            for start in stride(from: 0, to: data.count, by: size) {
                try decoder.feed(data[start..<min(start + size, data.count)])
            }
            #expect(try decoder.finish() == value, "chunks of \(size)")
        }
    }

    @Test("A surrogate escape is judged by its partner, however the escapes and backslashes fall")
    func surrogateEscapes() throws {
        func decoded(_ json: String) throws -> String { try ModelDecoder().decode(String.self, from: json) }
        #expect(try decoded(#""\uD800\u0041""#) == "\u{FFFD}A")
        #expect(try decoded(#""\uD800\uD800""#) == "\u{FFFD}\u{FFFD}")
        #expect(try decoded(#""\uD83D\uDE00""#) == "😀")
        #expect(try decoded(#""\\uD800""#) == "\\uD800")
        #expect(try decoded(#""\\\uD83D\uDE00x""#) == "\\😀x")
        #expect(try decoded(#""\uD800\\uDC00""#) == "\u{FFFD}\\uDC00")
        #expect(try decoded(#""a\uDC00b""#) == "a\u{FFFD}b")
        let error = try #require(
            decodingError(
                String.self, #"["ok", "a\uD800\u0041"]"#, at: "[1]",
                options: DecodingOptions(strict: true)))
        #expect(
            error.description == "1:10: an unpaired UTF-16 surrogate escape (\\uD800) in a string; lenient "
                + "decoding reads it as U+FFFD at $[1]")
    }

    @Test("Form feed and vertical tab are refused, with the offset of the byte")
    func formFeed() throws {
        let error = try #require(decodingError(Any.self, "[1,\u{0C}2]"))
        #expect(
            error.description == "1:4: invalid character (form feed and vertical tab are not JSON whitespace, "
                + "nor allowed unescaped in strings) at $[1]")
        #expect(decodingError(Any.self, "[\"a\u{0B}b\"]")?.kind == .malformed)
    }

    @Test("A byte order mark is skipped; UTF-16 and UTF-32 are read, whole and in chunks of every size")
    func inputEncodings() throws {
        let text = #"{"name": "café 😀", "list": [1, 2]}"#
        struct Value: Codable, Equatable {
            var name: String
            var list: [Int]
        }
        let encodings: [(String, [UInt8])] = [
            ("UTF-8 with a mark", [0xEF, 0xBB, 0xBF] + Array(text.utf8)),
            ("UTF-16BE", Array(text.data(using: .utf16BigEndian)!)),
            ("UTF-16LE", Array(text.data(using: .utf16LittleEndian)!)),
            ("UTF-16BE with a mark", [0xFE, 0xFF] + Array(text.data(using: .utf16BigEndian)!)),
            ("UTF-16LE with a mark", [0xFF, 0xFE] + Array(text.data(using: .utf16LittleEndian)!)),
            ("UTF-32BE", Array(text.data(using: .utf32BigEndian)!)),
            ("UTF-32LE", Array(text.data(using: .utf32LittleEndian)!)),
            ("UTF-32BE with a mark", [0, 0, 0xFE, 0xFF] + Array(text.data(using: .utf32BigEndian)!)),
        ]
        let expected = Value(name: "café 😀", list: [1, 2])
        for (name, bytes) in encodings {
            let foundation = try? JSONDecoder().decode(Value.self, from: Data(bytes))
            #expect(foundation == expected, "JSONDecoder, \(name)")
            #expect(try ModelDecoder().decode(Value.self, from: bytes) == expected, "\(name)")
            #expect(
                try ModelDecoder(options: DecodingOptions(strict: true)).decode(Value.self, from: bytes) == expected,
                "\(name)")
            for size in [1, 2, 3, 5, 7] {
                let decoder = try ModelDecoder().incremental(Value.self)
                for start in stride(from: 0, to: bytes.count, by: size) {
                    try decoder.feed(Array(bytes[start..<min(start + size, bytes.count)]))
                }
                #expect(try decoder.finish() == expected, "\(name) in chunks of \(size)")
            }
        }
        // A two-byte UTF-16 document, and input that is not valid in its encoding.
        #expect(try ModelDecoder().decode(Int.self, from: [0, 0x37]) == 7)
        #expect(throws: DecodingError.self) {
            try ModelDecoder().decode(String.self, from: [0, 0x22, 0xD8, 0x00, 0, 0x22])
        }
        #expect(throws: DecodingError.self) { try ModelDecoder().decode(Int.self, from: [0, 0x31, 0]) }
    }
}

@Suite("Strict UTF-8")
struct UTF8ValidationTests {
    @Test("Agrees with the standard library's validation on random byte strings", arguments: 0..<3)
    func randomBytes(seed: Int) {
        var generator = SplitMix64(seed: UInt64(7 + seed))
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &generator)
            // Bias towards the interesting lead and continuation bytes.
            let bytes: [UInt8] = (0..<length).map { _ in
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: UInt8.random(in: 0x20...0x7F, using: &generator)
                case 1: UInt8.random(in: 0x80...0xBF, using: &generator)
                case 2: UInt8.random(in: 0xC0...0xF7, using: &generator)
                default: [0xE0, 0xED, 0xF0, 0xF4, 0xA0, 0x9F, 0x8F, 0x90][Int.random(in: 0..<8, using: &generator)]
                }
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(bytes.withUnsafeBytes { UTF8Validation.isValid($0) } == expected, "\(bytes)")
        }
    }
}
