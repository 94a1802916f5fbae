import Foundation
@testable import HandyStream
import HandyJSON
import Testing

/// Keyed containers used again (KeyedContainerPool.swift): a container is handed out again only when nothing but
/// its pool holds it, so every container a value's `init(from:)` keeps, or keeps open while others are made, reads
/// its own object, as with `JSONDecoder`; and a decoder with pooled containers is freed when its decode is done.
@Suite struct KeyedContainerPoolTests {
    /// The pool is in use on this toolchain: `KeyedDecodingContainer` is the one reference `Mirror` reports.
    @Test func theStandardLibrarysContainerIsUnderstood() {
        #expect(KeyedContainerBox.isUnderstood)
    }

    /// Each element keeps its container; read after the decode, each reads its own object and path.
    @Test func containersKeptByElementsReadTheirOwnObjects() throws {
        let json = "[" + (0..<40).map { #"{"id": \#($0), "name": "n\#($0)"}"# }.joined(separator: ", ") + "]"
        let foundation = try JSONDecoder().decode([KeepsContainer].self, from: Data(json.utf8))
        for decoder in [ModelDecoder(), ModelDecoder(options: DecodingOptions(strict: true))] {
            let ours = try decoder.decode([KeepsContainer].self, from: json)
            #expect(try ours.map { try $0.id() } == Array(0..<40))
            #expect(try ours.map { try $0.name() } == foundation.map { try $0.name() })
            #expect(ours.map(\.path) == foundation.map(\.path))
        }
    }

    /// A tree deeper than the pool (16 containers of a key type): each level reads its members after its children,
    /// through the container it opened before them.
    @Test func containersOpenWhileOthersAreMadeKeepTheirObjects() throws {
        var json = #"{"id": 0, "children": []}"#
        for depth in 1...40 {
            json = #"{"children": [\#(json), {"id": \#(depth * 100), "children": []}], "id": \#(depth)}"#
        }
        let foundation = try JSONDecoder().decode(Tree.self, from: Data(json.utf8))
        let ours = try ModelDecoder().decode(Tree.self, from: json)
        #expect(ours == foundation)
        #expect(ours.ids.count == 81 && ours.ids.first == 40)
    }

    /// Types sharing a key type, one with a mapping and one without, one after the other: a container handed out
    /// again searches with its new value's mapping, or with none.
    @Test func aContainerHandedOutAgainTakesItsNewMapping() throws {
        let json =
            #"[{"a": {"nick": "x"}, "b": {"nick": "y", "nickname": "z"}}, {"a": {"nick": "p"}, "b": {"nickname": "q"}}]"#
        let ours = try ModelDecoder().decode([Pair].self, from: json)
        #expect(ours.map(\.a.nickname) == ["x", "p"])
        #expect(ours.map(\.b.nickname) == ["z", "q"])
    }

    /// The decoder is freed once its decode is done, whether or not a value kept one of its containers past the
    /// end, and once that container is let go of: the pool, which the decoder owns, holds no reference back to it.
    @Test func aDecoderWithPooledContainersIsFreed() throws {
        let json = #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#
        weak var plain: AnyObject?
        do {
            let values = try ModelDecoder().decode([RemembersDecoder].self, from: json)
            plain = values.first?.decoder
            let sawDecoder = values.allSatisfy { $0.sawDecoder }
            #expect(sawDecoder)
        }
        #expect(plain == nil)
        weak var keeping: AnyObject?
        do {
            let values = try ModelDecoder().decode([KeepsContainer].self, from: json)
            keeping = values.first?.decoder
            // The containers the values keep hold their decoder while the values live (an optimized build may end
            // `values`' life at its last use: it is extended to the check).
            withExtendedLifetime(values) { #expect(keeping != nil) }
            #expect(try values.map { try $0.id() } == [1, 2])
        }
        #expect(keeping == nil)
    }
}

/// Keeps its keyed container, and reads it when asked.
private struct KeepsContainer: Decodable {
    let container: KeyedDecodingContainer<AnyCodingKey>
    let path: [String]
    weak var decoder: AnyObject?

    init(from decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: AnyCodingKey.self)
        path = container.codingPath.map(\.stringValue)
        self.decoder = decoder as AnyObject
    }

    func id() throws -> Int { try container.decode(Int.self, forKey: AnyCodingKey(stringValue: "id")) }
    func name() throws -> String { try container.decode(String.self, forKey: AnyCodingKey(stringValue: "name")) }
}

/// Reads its members, and remembers its decoder without holding it.
private struct RemembersDecoder: Decodable {
    weak var decoder: AnyObject?
    var sawDecoder = false

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        _ = try container.decode(Int.self, forKey: AnyCodingKey(stringValue: "id"))
        self.decoder = decoder as AnyObject
        sawDecoder = self.decoder != nil
    }
}

/// Reads its children before its own id, through the container it opened first.
private struct Tree: Decodable, Equatable {
    var ids: [Int]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let children = try container.decode([Tree].self, forKey: AnyCodingKey(stringValue: "children"))
        ids = [try container.decode(Int.self, forKey: AnyCodingKey(stringValue: "id"))] + children.flatMap(\.ids)
    }
}

/// Reads `nickname` through `AnyCodingKey`; `Mapped` reads it from `nick` first.
private struct Unmapped: Decodable {
    var nickname: String
    init(from decoder: any Decoder) throws {
        nickname = try decoder.container(keyedBy: AnyCodingKey.self).decode(
            String.self, forKey: AnyCodingKey(stringValue: "nickname"))
    }
}

private struct Mapped: Decodable, HandyJSON {
    var nickname = ""
    init() {}
    mutating func mapping(mapper: HelpingMapper) { mapper <<< nickname <-- ["nick", "nickname"] }
    init(from decoder: any Decoder) throws {
        nickname = try decoder.container(keyedBy: AnyCodingKey.self).decode(
            String.self, forKey: AnyCodingKey(stringValue: "nickname"))
    }
}

private struct Pair: Decodable {
    var a: Mapped
    var b: Unmapped
}

/// Keyed-container makers pass from a freed decoder to the next one made (``TapeDecoder``'s spare makers): decodes
/// one after another with other key strategies, whose pooled containers must find keys the new decoder's way.
@Suite struct SpareMakersTests {
    struct Account: Codable, Equatable {
        var userName: String
        var loginCount: Int
    }

    @Test func pooledContainersFollowTheirNewDecodersStrategy() throws {
        let camel = #"{"userName": "a", "loginCount": 1}"#
        let snake = #"{"user_name": "b", "login_count": 2}"#
        let snakeFoundation = JSONDecoder()
        snakeFoundation.keyDecodingStrategy = .convertFromSnakeCase
        let expectedSnake = try snakeFoundation.decode([Account].self, from: Data("[\(snake)]".utf8))
        let expectedCamel = try JSONDecoder().decode([Account].self, from: Data("[\(camel)]".utf8))
        var snakeOptions = DecodingOptions(strict: true)
        snakeOptions.keyDecodingStrategy = .convertFromSnakeCase
        for _ in 0..<50 {
            #expect(
                try ModelDecoder(options: DecodingOptions(strict: true)).decode([Account].self, from: "[\(camel)]")
                    == expectedCamel)
            #expect(try ModelDecoder(options: snakeOptions).decode([Account].self, from: "[\(snake)]") == expectedSnake)
        }
    }
}

/// Key names found by the key's byte (``KeyNames``): for enums of one case (no bytes) or many, with names of their
/// own, and for a one-byte struct whose name depends on its byte; each read as `JSONDecoder` reads it.
@Suite struct KeyNamesTests {
    struct OneCase: Decodable, Equatable {
        var only: String
        enum CodingKeys: String, CodingKey { case only = "the only" }
    }

    struct Renamed: Decodable, Equatable {
        var a: Int
        var b: Int
        var c: Int
        enum CodingKeys: String, CodingKey {
            case a = "first"
            case b = "second key, longer than fifteen bytes"
            case c = ""
        }
    }

    struct ByteKey: CodingKey {
        let byte: UInt8
        var stringValue: String { "k\(byte)" }
        var intValue: Int? { nil }
        init(byte: UInt8) { self.byte = byte }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    struct ByBytes: Decodable, Equatable {
        var values: [Int]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: ByteKey.self)
            values = try [3, 200, 3, 0].map { try container.decode(Int.self, forKey: ByteKey(byte: $0)) }
        }
    }

    private func same<T: Decodable & Equatable>(_: T.Type, _ json: String) throws {
        let expected = try JSONDecoder().decode([T].self, from: Data(json.utf8))
        #expect(try ModelDecoder(options: DecodingOptions(strict: true)).decode([T].self, from: json) == expected)
        #expect(try ModelDecoder().decode([T].self, from: json) == expected)
    }

    @Test func namesFoundByByteReadAsJSONDecoderReads() throws {
        #expect(MemoryLayout<OneCase.CodingKeys>.size == 0 && MemoryLayout<ByteKey>.size == 1)
        try same(OneCase.self, #"[{"the only": "x"}, {"only": "y", "the only": "z"}]"#)
        try same(
            Renamed.self,
            #"[{"first": 1, "second key, longer than fifteen bytes": 2, "": 3}, {"": 6, "first": 4, "second key, longer than fifteen bytes": 5}]"#
        )
        try same(ByBytes.self, #"[{"k0": 1, "k3": 2, "k200": 3}, {"k200": 4, "k3": 5, "k0": 6}]"#)
    }

    /// A one-byte key whose name changes on every call: the first name asked for a value is the one kept (the
    /// README's differences table), where `JSONDecoder` asks on every member.
    struct ChangingKey: CodingKey {
        static let calls = Locked(0)
        let byte: UInt8
        var stringValue: String {
            Self.calls.withLock {
                $0 += 1; return "k\($0)"
            }
        }
        var intValue: Int? { nil }
        init(byte: UInt8) { self.byte = byte }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    struct ReadsChangingKey: Decodable {
        var value: Int?
        init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: ChangingKey.self).decodeIfPresent(
                Int.self, forKey: ChangingKey(byte: 9))
        }
    }

    @Test func aKeyIsAskedItsNameOncePerValue() throws {
        let json = #"[{"k1": 1, "k2": 2}, {"k1": 3, "k2": 4}]"#
        let first = ChangingKey.calls.withLock { $0 }
        let values = try ModelDecoder().decode([ReadsChangingKey].self, from: json).map(\.value)
        let asked = ChangingKey.calls.withLock { $0 } - first
        // The name given first (k<first + 1>) is used for both elements, asked once (JSONDecoder would read k1,
        // then k2).
        #expect(asked == 1)
        let name = first + 1
        #expect(values == [name == 1 ? 1 : name == 2 ? 2 : nil, name == 1 ? 3 : name == 2 ? 4 : nil])
    }

    struct Leaf: Decodable {
        var value: Int
        enum CodingKeys: String, CodingKey { case value = "v" }
    }
    struct Branch: Decodable {
        var leaf: Leaf
        enum CodingKeys: CodingKey { case leaf }
    }
    struct Trunk: Decodable {
        var x: Int
        var branches: [Branch]
        var byBytes: ByBytes
    }

    /// A coding path through keys kept as their byte (an enum of one case has none) reads back as `JSONDecoder`'s:
    /// the error's path, each key's string and int value.
    @Test func pathsThroughKeysKeptByTheirByteReadAsJSONDecoderReads() throws {
        let json = [
            #"{"x": 1, "branches": [{"leaf": {"v": 1}}, {"leaf": {"v": "bad"}}], "byBytes": {}}"#,
            #"{"x": 1, "branches": [], "byBytes": {"k0": 1, "k3": 2, "k200": "bad"}}"#,
        ]
        func path(_ decode: () throws -> Trunk) -> [String] {
            do {
                _ = try decode()
                return ["no error"]
            } catch let error as DecodingError {
                let context: DecodingError.Context
                switch error {
                case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
                    .dataCorrupted(let found):
                    context = found
                @unknown default: return ["unknown"]
                }
                return context.codingPath.map { "\($0.stringValue) \($0.intValue.map(String.init) ?? "-")" }
            } catch { return ["\(error)"] }
        }
        for text in json {
            let expected = path { try JSONDecoder().decode(Trunk.self, from: Data(text.utf8)) }
            #expect(expected.count >= 2)
            #expect(
                path { try ModelDecoder(options: DecodingOptions(strict: true)).decode(Trunk.self, from: text) }
                    == expected)
        }
    }
}
