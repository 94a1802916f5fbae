import Foundation
@testable import HandyStream
import Testing

/// The encoder's keyed containers used again (``TreeKeyedContainerMaker``): a container is handed out again only
/// when nothing but its pool holds it and only by the encoder it was made for, so containers a value's
/// `encode(to:)` keeps open while it encodes others of the same key type write where they should, as with
/// `JSONEncoder`; and the encoder, which the pooled containers hold, is freed when its value is written.
@Suite struct EncoderContainerPoolTests {
    /// The pool is in use on this toolchain: `KeyedEncodingContainer` is the one reference `Mirror` reports.
    @Test func theStandardLibrarysContainerIsUnderstood() {
        #expect(KeyedContainerBox.encodingIsUnderstood)
    }

    static func sameAsJSONEncoder<T: Encodable>(_ value: T) throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        var options = EncodingOptions()
        options.sortedKeys = true
        let ours = try ModelEncoder(options: options).encode(value)
        #expect(
            String(decoding: ours, as: UTF8.self) == String(decoding: try foundation.encode(value), as: UTF8.self))
    }

    /// Each node keeps its container in a variable while its children, of its own type, take containers of the
    /// same key type, and writes to it again after them.
    @Test func containersKeptOpenAcrossNestedValuesOfTheirType() throws {
        func tree(_ depth: Int, _ label: String) -> TreeNode {
            TreeNode(
                name: label,
                children: depth == 0 ? [] : (0..<3).map { tree(depth - 1, label + ".\($0)") })
        }
        try Self.sameAsJSONEncoder(tree(4, "r"))
        try Self.sameAsJSONEncoder([tree(2, "a"), tree(0, "b"), tree(3, "c")])
    }

    /// Two containers of one key type open at once in one `encode(to:)` (one nested in the other), and a super
    /// encoder's (another encoder) beside them.
    @Test func containersOfOneKeyTypeOpenTogether() throws {
        try Self.sameAsJSONEncoder((0..<20).map { TwoAtOnce(value: $0) })
    }

    /// A value's `encode(to:)` keeps its container after the encode: the encoder is freed once the value lets it
    /// go, and not before; without such a value, as soon as the value is written.
    @Test func anEncoderWithPooledContainersIsFreed() throws {
        weak var plain: AnyObject?
        do {
            let value = RemembersEncoder(keeps: false)
            _ = try ModelEncoder().encode([value, value])
            plain = value.encoder
        }
        #expect(plain == nil)
        weak var keeping: AnyObject?
        do {
            let value = RemembersEncoder(keeps: true)
            _ = try ModelEncoder().encode([value, value])
            keeping = value.encoder
            withExtendedLifetime(value) { #expect(keeping != nil) }
        }
        #expect(keeping == nil)
    }
}

private struct TreeNode: Encodable {
    var name: String
    var children: [TreeNode]
    enum CodingKeys: String, CodingKey { case name, children, count }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(children, forKey: .children)
        // Written after the children, which took containers of this key type.
        try container.encode(children.count, forKey: .count)
    }
}

private struct TwoAtOnce: Encodable {
    var value: Int
    enum CodingKeys: String, CodingKey { case value, inner, after, parent }

    func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: CodingKeys.self)
        var inner = outer.nestedContainer(keyedBy: CodingKeys.self, forKey: .inner)
        try inner.encode(value * 2, forKey: .value)
        var parent = outer.superEncoder(forKey: .parent).container(keyedBy: CodingKeys.self)
        try parent.encode(value * 3, forKey: .value)
        try outer.encode(value, forKey: .value)
        try inner.encode(value * 4, forKey: .after)
        try parent.encode(value * 5, forKey: .after)
        try outer.encode(value * 6, forKey: .after)
    }
}

/// Remembers the encoder it was encoded by (weakly), and keeps its container when asked to.
private final class RemembersEncoder: Encodable {
    let keeps: Bool
    weak var encoder: AnyObject?
    var container: KeyedEncodingContainer<AnyCodingKey>?

    init(keeps: Bool) { self.keeps = keeps }

    func encode(to encoder: any Encoder) throws {
        self.encoder = encoder as AnyObject
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(1, forKey: AnyCodingKey(stringValue: "id"))
        if keeps { self.container = container }
    }
}
