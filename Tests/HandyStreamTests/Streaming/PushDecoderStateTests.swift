import Foundation
@testable import HandyStream
import Testing

/// The error `body` throws, described; "no error" when there is none.
func thrown(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "no error"
    } catch let error as DecodingError {
        // A `Decodable` value's (a `JSONValue`'s) error: the location it carries.
        return (error.context?.underlyingError as? JSONDecodingError).map { "\($0)" } ?? "\(error)"
    } catch {
        return "\(error)"
    }
}

@Suite("Push decoders: one state machine")
struct PushDecoderStateTests {
    @Test("After a feed error, every call rethrows it")
    func errorIsFinal() throws {
        let decoder = try ModelDecoder().incremental(Item.self)
        let first = thrown { try decoder.feed(Array(#"{"id": 1,, "#.utf8)) }
        #expect(first == "1:11: expected a string as an object key at $")
        #expect(thrown { try decoder.feed(Array(#""name": "x"}"#.utf8)) } == first)
        #expect(thrown { _ = try decoder.finish() } == first)
        #expect(thrown { _ = try decoder.finish() } == first)

        let elements = try ModelDecoder().elements(of: Item.self, at: "[*]")
        #expect(try elements.feed(Array(#"[{"id": 1}, "#.utf8)).map(\.id) == [1])
        // The element completed before the bad input comes first; the next call throws.
        #expect(try elements.feed(Array(#"{"id": 2}, x"#.utf8)).map(\.id) == [2])
        let broken = thrown { _ = try elements.feed(Array(#"{"id": 4}"#.utf8)) }
        #expect(broken.contains("invalid"))
        #expect(thrown { _ = try elements.feed(Array(#"{"id": 3}]"#.utf8)) } == broken)
        #expect(thrown { _ = try elements.finish() } == broken)
    }

    @Test("After finish, feed and finish are misuse, said plainly")
    func afterFinish() throws {
        let decoder = try ModelDecoder().incremental(Item.self)
        try decoder.feed(Array(#"{"id": 1}"#.utf8))
        #expect(try decoder.finish().id == 1)
        #expect(
            thrown { try decoder.feed(Array(" ".utf8)) }
                == "IncrementalDecoder.feed(_:) was called after finish(): the decoder has ended")
        #expect(
            thrown { _ = try decoder.finish() }
                == "IncrementalDecoder.finish() was called twice: the decoder has ended")
        let elements = try ModelDecoder().elements(of: Item.self, at: "[*]")
        _ = try elements.feed(Array("[]".utf8))
        #expect(try elements.finish().isEmpty)
        #expect(
            thrown { _ = try elements.finish() }
                == "ElementDecoder.finish() was called twice: the decoder has ended")
    }

    @Test("Without a path, the whole document is read: feed never says it is done early")
    func wholeDocument() throws {
        let decoder = try ModelDecoder().incremental(Item.self)
        #expect(try decoder.feed(Array(#"{"id": 1}"#.utf8)) == false)
        #expect(thrown { try decoder.feed(Array(" x".utf8)) }.contains("unexpected data after the JSON value"))
        let withPath = try ModelDecoder().incremental(Int.self, at: "a")
        #expect(try withPath.feed(Array(#"{"a": 1, "#.utf8)) == true)
        #expect(try withPath.feed(Array("garbage".utf8)) == true)  // ignored: the value is complete
        #expect(try withPath.finish() == 1)
    }

    @Test("Syntax errors name the path where they are, with or without a designated path")
    func syntaxErrorPaths() throws {
        let json = Array(#"{"a": [1, {"b": tru}]}"#.utf8)
        let incremental = try ModelDecoder().incremental(JSONValue.self)
        #expect(thrown { try incremental.feed(json) }.hasSuffix("at $.a[1].b"))
        #expect(thrown { try ModelDecoder().validate(json) }.hasSuffix("at $.a[1].b"))
        #expect(
            thrown { try ModelDecoder().validate(Array(#"[1, [2, {"k": [3, }]]"#.utf8)) }.hasSuffix("at $[1][1].k[1]"))
        // A key replaced by a shorter one at the same level, after deeper keys were kept (as text extracted by a
        // path keeps them).
        let keys = Array(#"{"a long first key": {"deeper key": {"x": 1}}, "k": {"yy": [0, }}"#.utf8)
        #expect(thrown { try ModelDecoder().validate(keys) }.hasSuffix("at $.k.yy[1]"))
        #expect(thrown { _ = try ModelDecoder().decode(JSONText.self, from: keys) }.hasSuffix("at $.k.yy[1]"))
        // With a designated path, an error in a member or element skipped on the way names that member or element,
        // never the key the path wants (which this document never reaches).
        let skipped = Array(#"{"statuses": [{"id": 1}, {"id": 2, "user": {"na"#.utf8)
        #expect(
            thrown { _ = try ModelDecoder().decode(JSONValue.self, from: skipped, at: "search_metadata") }
                .hasSuffix("at $.statuses"))
        let values = try ModelDecoder().values(of: JSONText.self, at: "statuses[*].id")
        #expect(
            thrown {
                _ = try values.feed(skipped)
                _ = try values.finish()
            }.hasSuffix("at $.statuses[1].user"))
        let malformed = Array(#"{"a": {"b": 1 "c": 2}, "want": 3}"#.utf8)
        #expect(
            thrown { _ = try ModelDecoder().decode(JSONValue.self, from: malformed, at: "want") }.hasSuffix("at $.a"))
    }

    @Test("Across chunks, columns count characters, not bytes")
    func columnsAcrossChunks() throws {
        let json = Array(#"{"ä": "日本語", "b": x}"#.utf8)
        let whole = thrown { _ = try ModelDecoder().decode(JSONValue.self, from: json) }
        for size in 1...json.count {
            let decoder = try ModelDecoder().incremental(JSONValue.self)
            let error = thrown {
                for chunk in chunks(json, size: size) { try decoder.feed(chunk) }
                _ = try decoder.finish()
            }
            #expect(error.hasPrefix("1:20: "), "chunks of \(size): \(error)")
            #expect(whole.hasPrefix("1:20: "))
        }
    }

    @Test("Across chunks, columns count characters wherever the multi-byte ones fall in a long line")
    func columnsInLongLines() throws {
        // Lines are counted in blocks of 32 bytes, skipped while all ASCII: characters of two, three and four bytes
        // at every position of a block, on a first line and after a newline, against the error of the whole text.
        for position in 0..<70 {
            for (character, lead) in [("é", ""), ("日", "\n"), ("😀", "  \n ")] {
                let key = String(repeating: "k", count: position) + character + String(repeating: "v", count: 40)
                let json = Array(#"{\#(lead)"\#(key)": "\#(character)\#(key)", "b": x}"#.utf8)
                let whole = thrown { _ = try ModelDecoder().decode(JSONValue.self, from: json) }
                #expect(whole.hasPrefix(lead.isEmpty ? "1:" : "2:"), "\(whole)")
                for size in [1, 5, 31, 32, 33, 64, json.count] {
                    let decoder = try ModelDecoder().incremental(JSONValue.self)
                    let error = thrown {
                        for chunk in chunks(json, size: size) { try decoder.feed(chunk) }
                        _ = try decoder.finish()
                    }
                    let location = { (text: String) in text.prefix { $0 != " " } }
                    #expect(location(error) == location(whole), "\(character) at \(position), chunks of \(size)")
                }
            }
        }
    }

    @Test("A directory is not a file to read: a clear error")
    func directoryInput() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let message = thrown { _ = try ModelDecoder().decode(Item.self, fromFileAt: directory) }
        #expect(message.contains("Is a directory"), "\(message)")
        #expect(message.contains(directory))
        #expect(thrown { try ModelDecoder().validate(fileAt: directory) }.contains("Is a directory"))
        #expect(
            thrown { _ = try ModelDecoder().decode(Item.self, fromFileAt: "/no/such/file") }
                .contains("No such file or directory"))
    }
}

extension PushDecoderStateTests {
    @Test("values(of:at:) gives the value at the path in each top-level value, at every chunk size")
    func valuesPerDocument() throws {
        let lines = Array("{\"a\": 1, \"z\": [0]}\n{\"a\": [2, 3]}\n{\"b\": 0, \"a\": {\"b\": 4}, \"c\": {}}\n".utf8)
        for size in [1, 2, 3, 7, lines.count] {
            let decoder = try ModelDecoder().values(of: JSONValue.self, at: "a")
            var found: [JSONValue] = []
            for chunk in chunks(lines, size: size) { found += try decoder.feed(chunk) }
            found += try decoder.finish()
            #expect(
                found == [
                    .number("1"), .array([.number("2"), .number("3")]),
                    .object([JSONValue.Member(key: "b", value: .number("4"))]),
                ], "chunks of \(size)")
        }
        let missing = try ModelDecoder().values(of: Int.self, at: "a")
        #expect(try missing.feed(Array("{\"a\": 1}\n{\"b\": 2}\n".utf8)) == [1])
        #expect(thrown { _ = try missing.finish() }.contains("path 'a' not found"))
        let whole = try ModelDecoder().values(of: Int.self)
        #expect(try whole.feed(Array("1 2\n3".utf8)) == [1, 2])
        #expect(try whole.finish() == [3])
    }
}
