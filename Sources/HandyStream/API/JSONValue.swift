import Foundation

/// A JSON value without a model: numbers keep their text (so nothing is rounded), objects keep their key order.
///
///     let value = try ModelDecoder().decode(JSONValue.self, from: data, at: "data.config")
///     if case .object(let members) = value { … }
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// The number's text as the document wrote it (JSON5's numbers in JSON's grammar, `0x10` as `16`, and its `NaN`,
    /// `Infinity` and `-Infinity` as those words).
    case number(String)
    /// A string, its escapes decoded.
    case string(String)
    /// An array's elements in order.
    case array([JSONValue])
    /// Members in document order (duplicate keys kept).
    case object([Member])

    /// One member of an object: its key and its value.
    public struct Member: Equatable, Sendable {
        /// The member's key, its escapes decoded.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// A member with `key` and `value`.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the first member named `key`, for an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index`, for an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

/// The compact JSON text of a value: what `handystream extract` writes. Made straight from the events, with no tree.
public struct JSONText: Equatable, Sendable, CustomStringConvertible {
    /// The text, as UTF-8.
    public var bytes: [UInt8]
    /// The text as a `String`.
    public var string: String { String(decoding: bytes, as: UTF8.self) }
    public var description: String { string }

    /// Text that is already compact JSON.
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

extension ModelDecoder {
    /// Checks that `bytes` is one well-formed JSON document (the conformance rules, UTF-8, the nesting cap).
    public func validate(_ bytes: some ContiguousBytes) throws {
        let decoder = try incremental(Validation.self)
        try decoder.feed(bytes)
        _ = try decoder.finish()
    }

    /// Checks a file, read in chunks.
    public func validate(fileAt file: String, chunkSize: Int = 1 << 16) throws {
        let decoder = try incremental(Validation.self)
        try ChunkReader.read(file: file, chunkSize: chunkSize) { chunk in try !decoder.feed(chunk) }
        _ = try decoder.finish()
    }
}

// MARK: - Hashing, literals, printing

extension JSONValue: Hashable {}
extension JSONValue.Member: Hashable {}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A number, its text the integer's digits.
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    /// A number, its text the shortest that reads back as the same `Double` (integral values without `.0`).
    public init(floatLiteral value: Double) {
        let text = value.description
        self = .number(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object, its members in the literal's order.
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(members.map { Member(key: $0.0, value: $0.1) })
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text (numbers as the document wrote them, members in order).
    public var description: String {
        (try? ModelEncoder().encodeToString(self)) ?? "null"
    }
}
