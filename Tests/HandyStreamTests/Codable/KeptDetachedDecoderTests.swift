import Foundation
@testable import HandyStream
import Testing

// A decoder (or a container) that a value's `init(from:)` keeps and reads after it returned reads the value it was
// given, as with `JSONDecoder`, whatever the entry point: each streamed element, each element of a model's `[T]`
// property and each model's `T?` property is decoded on a tape of its own frame, which the next value must not reset
// under a decoder still reading it. A decoder from `superDecoder(forKey:)`, `superDecoder()` or an unkeyed
// container's `superDecoder()` is a decoder of its own over the same tape (`TapeDecoder.detached`): it read the last
// element's tape (`third, third, third`) and, after an element larger than a later one, a token past the tape's end
// (an assertion in debug builds, a precondition in release builds: the process died).
//
// (The suite is not named `KeptDecoderTests`: LenientRuleTests.swift has a suite of that name.)

/// A value whose `init(from:)` keeps something, and reads its name through it when asked.
private protocol ReadsItsNameLater: Decodable {
    /// One element of a document of such values, named `name`. `large`: with many more tokens and bytes before the
    /// name than a small element has.
    static func element(named name: String, large: Bool) -> String
    func name() throws -> String
}

private let padding = (0..<64).map(String.init).joined(separator: ", ")
private let filler = String(repeating: "x", count: 300)

/// `{"<key>": {"name": "<name>"}}`, after 64 numbers and a long string when `large`.
private func keyedElement(_ name: String, large: Bool, key: String = "inner") -> String {
    let before = large ? #""pad": [\#(padding)], "skip": "\#(filler)", "# : ""
    return #"{\#(before)"\#(key)": {"name": "\#(name)"}}"#
}

private func nameKey() -> AnyCodingKey { AnyCodingKey(stringValue: "name") }
private func innerKey() -> AnyCodingKey { AnyCodingKey(stringValue: "inner") }

/// Keeps the decoder `superDecoder(forKey:)` hands it.
private struct KeepsSuperDecoderForKey: ReadsItsNameLater {
    let inner: any Decoder
    init(from decoder: any Decoder) throws {
        inner = try decoder.container(keyedBy: AnyCodingKey.self).superDecoder(forKey: innerKey())
    }
    static func element(named name: String, large: Bool) -> String { keyedElement(name, large: large) }
    func name() throws -> String {
        try inner.container(keyedBy: AnyCodingKey.self).decode(String.self, forKey: nameKey())
    }
}

/// Keeps the decoder `superDecoder()` hands it (the member "super").
private struct KeepsSuperDecoder: ReadsItsNameLater {
    let inner: any Decoder
    init(from decoder: any Decoder) throws {
        inner = try decoder.container(keyedBy: AnyCodingKey.self).superDecoder()
    }
    static func element(named name: String, large: Bool) -> String { keyedElement(name, large: large, key: "super") }
    func name() throws -> String {
        try inner.container(keyedBy: AnyCodingKey.self).decode(String.self, forKey: nameKey())
    }
}

/// Keeps a keyed container of the decoder `superDecoder(forKey:)` hands it.
private struct KeepsSuperDecodersContainer: ReadsItsNameLater {
    let inner: KeyedDecodingContainer<AnyCodingKey>
    init(from decoder: any Decoder) throws {
        inner = try decoder.container(keyedBy: AnyCodingKey.self).superDecoder(forKey: innerKey())
            .container(keyedBy: AnyCodingKey.self)
    }
    static func element(named name: String, large: Bool) -> String { keyedElement(name, large: large) }
    func name() throws -> String { try inner.decode(String.self, forKey: nameKey()) }
}

/// Keeps the decoder an unkeyed container's `superDecoder()` hands it for the last element.
private struct KeepsUnkeyedSuperDecoder: ReadsItsNameLater {
    let last: any Decoder
    init(from decoder: any Decoder) throws {
        var elements = try decoder.unkeyedContainer()
        var last: (any Decoder)?
        while !elements.isAtEnd { last = try elements.superDecoder() }
        guard let last else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no element"))
        }
        self.last = last
    }
    static func element(named name: String, large: Bool) -> String {
        large ? #"[\#(padding), "\#(filler)", {"name": "\#(name)"}]"# : #"[{"name": "\#(name)"}]"#
    }
    func name() throws -> String {
        try last.container(keyedBy: AnyCodingKey.self).decode(String.self, forKey: nameKey())
    }
}

/// Keeps its decoder itself (read correctly before the fix: a guard against regressions).
private struct KeepsItsOwnDecoder: ReadsItsNameLater {
    let decoder: any Decoder
    init(from decoder: any Decoder) throws { self.decoder = decoder }
    static func element(named name: String, large: Bool) -> String { keyedElement(name, large: large) }
    func name() throws -> String {
        try decoder.container(keyedBy: AnyCodingKey.self)
            .nestedContainer(keyedBy: AnyCodingKey.self, forKey: innerKey())
            .decode(String.self, forKey: nameKey())
    }
}

/// Keeps its keyed container (read correctly before the fix: a guard against regressions).
private struct KeepsItsKeyedContainer: ReadsItsNameLater {
    let container: KeyedDecodingContainer<AnyCodingKey>
    init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: AnyCodingKey.self) }
    static func element(named name: String, large: Bool) -> String { keyedElement(name, large: large) }
    func name() throws -> String {
        try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: innerKey())
            .decode(String.self, forKey: nameKey())
    }
}

/// A model with the values as the elements of an array property.
private struct ListModel<Item: ReadsItsNameLater>: HandyJSON {
    var items: [Item] = []
}

/// A model with a value as an optional property.
private struct HolderModel<Item: ReadsItsNameLater>: HandyJSON {
    var value: Item? = nil
}

private struct MissingValue: Error {}

@Suite struct KeptDetachedDecoderTests {
    private static var kinds: [any ReadsItsNameLater.Type] {
        [
            KeepsSuperDecoderForKey.self, KeepsSuperDecoder.self, KeepsSuperDecodersContainer.self,
            KeepsUnkeyedSuperDecoder.self, KeepsItsOwnDecoder.self, KeepsItsKeyedContainer.self,
        ]
    }
    static var decoders: [ModelDecoder] { [ModelDecoder(), ModelDecoder(options: DecodingOptions(strict: true))] }

    static let small = ["first", "second", "third"]
    /// The first element is the largest: a kept decoder that reads a later element's tape reads past its end.
    static let largeFirst = ["the first element, larger than the others", "b", "c"]

    /// `[e1, e2, e3]`, the first element large when `largeFirst`.
    private static func array<T: ReadsItsNameLater>(_: T.Type, _ names: [String], largeFirst: Bool) -> String {
        let elements = names.enumerated().map { T.element(named: $1, large: largeFirst && $0 == 0) }
        return "[" + elements.joined(separator: ", ") + "]"
    }

    private static func names<T: ReadsItsNameLater>(_ values: [T]) throws -> [String] {
        try values.map { try $0.name() }
    }

    /// The names each entry point reads, through what the values kept, after the whole document was decoded.
    private static func namesByEntryPoint<T: ReadsItsNameLater>(
        _: T.Type, _ expected: [String], largeFirst: Bool, _ decoder: ModelDecoder
    ) throws -> [String: [String]] {
        let json = array(T.self, expected, largeFirst: largeFirst)
        var found: [String: [String]] = [:]

        let elements = try decoder.elements(of: T.self, at: "[*]")
        var streamed = try elements.feed(Array(json.utf8))
        streamed += try elements.finish()
        found["elements(of:at:)"] = try names(streamed)

        let chunked = try decoder.elements(of: T.self, at: "[*]")
        var inChunks: [T] = []
        let bytes = Array(json.utf8)
        for start in stride(from: 0, to: bytes.count, by: 5) {
            inChunks += try chunked.feed(Array(bytes[start..<min(start + 5, bytes.count)]))
        }
        inChunks += try chunked.finish()
        found["elements(of:at:), 5-byte chunks"] = try names(inChunks)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("handystream-kept-\(UUID()).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var each: [T] = []
        try decoder.forEachElement(of: T.self, at: "[*]", inFileAt: file.path, chunkSize: 7) { each.append($0) }
        found["forEachElement"] = try names(each)

        let list = try decoder.decode(ListModel<T>.self, from: #"{"items": \#(json)}"#)
        found["a model's [T] property"] = try names(list.items)

        let holderElements = expected.enumerated().map { index, name -> String in
            #"{"value": \#(T.element(named: name, large: largeFirst && index == 0))}"#
        }
        let holders = "[" + holderElements.joined(separator: ", ") + "]"
        let held = try decoder.elements(of: HolderModel<T>.self, at: "[*]")
        var models = try held.feed(Array(holders.utf8))
        models += try held.finish()
        found["streamed models' T? property"] = try models.map { model -> String in
            guard let value = model.value else { throw MissingValue() }
            return try value.name()
        }
        return found
    }

    private static func check<T: ReadsItsNameLater>(_: T.Type, _ expected: [String], largeFirst: Bool) throws {
        for decoder in Self.decoders {
            let found = try namesByEntryPoint(T.self, expected, largeFirst: largeFirst, decoder)
            for (entryPoint, names) in found.sorted(by: { $0.key < $1.key }) {
                #expect(names == expected, "\(T.self) through \(entryPoint), strict: \(decoder.options.strict)")
            }
        }
    }

    /// Three streamed elements give first, second, third (they gave third, third, third).
    @Test func keptDecodersReadTheirOwnElement() throws {
        for kind in Self.kinds { try Self.check(kind, Self.small, largeFirst: false) }
    }

    /// An element larger than the ones after it: a kept decoder reads its own element, and nothing traps (it read a
    /// token past a later, smaller element's tape: an assertion in debug builds, a precondition in release builds).
    @Test func aKeptDecoderOfALargerElementDoesNotTrap() throws {
        for kind in Self.kinds { try Self.check(kind, Self.largeFirst, largeFirst: true) }
    }

    /// The whole array as one `Decodable` value (one tape): what each value kept reads what `JSONDecoder`'s does.
    @Test func oneTapeReadsAsJSONDecoderReads() throws {
        func compare<T: ReadsItsNameLater>(_: T.Type) throws {
            for largeFirst in [false, true] {
                let names = largeFirst ? Self.largeFirst : Self.small
                let json = Self.array(T.self, names, largeFirst: largeFirst)
                let foundation = try JSONDecoder().decode([T].self, from: Data(json.utf8)).map { try? $0.name() }
                for decoder in Self.decoders {
                    let ours = try decoder.decode([T].self, from: json).map { try? $0.name() }
                    #expect(ours == foundation, "\(T.self), strict: \(decoder.options.strict)")
                }
            }
        }
        for kind in Self.kinds { try compare(kind) }
    }

    /// A kept decoder from `superDecoder(forKey:)` holds the decoder it came from, and both are freed with the values
    /// that kept them (no cycle).
    @Test func aKeptSuperDecoderIsFreedWithItsValue() throws {
        let json = Self.array(KeepsSuperDecoderForKey.self, Self.small, largeFirst: false)
        weak var kept: AnyObject?
        do {
            let elements = try ModelDecoder().elements(of: KeepsSuperDecoderForKey.self, at: "[*]")
            var values = try elements.feed(Array(json.utf8))
            values += try elements.finish()
            kept = values.first.map { $0.inner as AnyObject }
            withExtendedLifetime(values) { #expect(kept != nil) }
            #expect(try Self.names(values) == Self.small)
        }
        #expect(kept == nil)
    }
}
