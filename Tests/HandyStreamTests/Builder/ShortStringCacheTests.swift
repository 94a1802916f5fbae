@testable import HandyStream
import Foundation
import Testing

/// The run's table of short strings made before (``ShortStringCache``): every string it hands out is the one its
/// bytes make.
@Suite("Short strings: the table of those made before")
struct ShortStringCacheTests {
    /// What `ShortStringCache.string(_:)` must give for `bytes`.
    static func expected(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func look(_ cache: ShortStringCache, _ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { cache.string($0) }
    }

    @Test("Every string of 1 to 15 bytes over two letters, looked up twice in shuffled order, is its own")
    func everyStringOverTwoLetters() {
        // 65,534 strings for 256 entries: keys land on every entry many times, and strings that differ only in
        // length share their words ("aaaaaaaaa" and "aaaaaaaaaa"; "ab" and "abb" fold to the same short word).
        var strings: [[UInt8]] = []
        for length in 1...15 {
            for bits in 0..<(1 << length) {
                strings.append((0..<length).map { bits >> $0 & 1 == 0 ? UInt8(ascii: "a") : UInt8(ascii: "b") })
            }
        }
        var generator = SplitMix64(seed: 7)
        let cache = ShortStringCache()
        defer { cache.free() }
        var wrong = 0
        for _ in 0..<2 {
            strings.shuffle(using: &generator)
            for bytes in strings where Self.look(cache, bytes) != Self.expected(bytes) { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test("Strings met again are the same strings, kept or not; bytes past ASCII included")
    func repeatedStrings() {
        let words = [
            "a", "ab", "abb", "abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghij",
            "aaaaaaaaa", "aaaaaaaaaa", "aaaaaaaaaaaaaaa", "é", "日本", "😀", "café", "naïve ok", "ü日本語のテキスト", "tag-1",
            "tag-10", "tag-100", "1", "11", "111",
        ]
        var generator = SplitMix64(seed: 11)
        let cache = ShortStringCache()
        defer { cache.free() }
        for round in 0..<2_000 {
            // Mostly the same few words, with a new one now and then to push them out.
            let word =
                round % 5 == 0
                ? "unique \(round)" : words[Int(generator.next() % UInt64(words.count))]
            let bytes = Array(word.utf8)
            guard bytes.count <= 15 else { continue }
            let found = Self.look(cache, bytes)
            #expect(found == word, "round \(round)")
            #expect(Array(found.utf8) == bytes)
        }
    }

    struct Tagged: HandyJSON, Equatable {
        var name = ""
        var nickname: String? = nil
        var tags: [String] = []
    }

    /// `count` elements whose strings repeat (tags from a small set) or not (names), with empty strings, escapes,
    /// bytes past ASCII, and strings on both sides of 15 bytes.
    static func document(count: Int) -> (json: String, models: [Tagged]) {
        let tagSet = ["", "a", "x\\u0041y", "café", "tag-7", "fifteen-bytes-1", "sixteen-bytes-12", "日本", "\\n"]
        let tagText = ["", "a", "xAy", "café", "tag-7", "fifteen-bytes-1", "sixteen-bytes-12", "日本", "\n"]
        var items: [String] = []
        var models: [Tagged] = []
        for index in 0..<count {
            let tags = (0..<5).map { (index * 3 + $0) % tagSet.count }
            let nickname = index % 4 == 0 ? nil : "n\(index % 3)"
            items.append(
                #"{"name": "item \#(index)", "nickname": \#(nickname.map { "\"\($0)\"" } ?? "null"), "tags": ["#
                    + tags.map { "\"\(tagSet[$0])\"" }.joined(separator: ", ") + "]}")
            models.append(Tagged(name: "item \(index)", nickname: nickname, tags: tags.map { tagText[$0] }))
        }
        return ("{\"items\": [" + items.joined(separator: ", ") + "]}", models)
    }

    @Test("A document with many repeated short strings decodes to the same values, whole and in chunks")
    func decodedThroughTheTable() throws {
        let (json, models) = Self.document(count: 400)
        #expect(try ModelDecoder().decode([Tagged].self, from: json, at: "items") == models)
        for size in [1, 7, 64, 4096] {
            let decoder = try ModelDecoder().elements(of: Tagged.self, at: "items")
            var found: [Tagged] = []
            let bytes = Array(json.utf8)
            var start = 0
            while start < bytes.count {
                found += try decoder.feed(Array(bytes[start..<min(start + size, bytes.count)]))
                start += size
            }
            found += try decoder.finish()
            #expect(found == models, "chunks of \(size)")
        }
        // Fewer short strings than the table waits for: the same values without one.
        let (small, smallModels) = Self.document(count: 3)
        #expect(try ModelDecoder().decode([Tagged].self, from: small, at: "items") == smallModels)
    }
}
