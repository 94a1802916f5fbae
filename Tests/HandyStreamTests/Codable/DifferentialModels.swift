import Foundation
import HandyStream

// The models of the differential tests against Foundation: synthesized and hand-written `init(from:)`, property
// wrappers, enums with payloads, classes with `super`, every container operation. Each has a schema from which
// ``RandomDocuments`` writes documents that fit, or nearly fit.

enum DiffColor: String, Codable, Equatable { case red, green, blue }

enum DiffShape: Codable, Equatable {
    case circle(radius: Double)
    case rect(w: Int, h: Int)
    case none
}

struct DiffPoint: Codable, Equatable {
    var x: Int
    var y: Double
}

struct DiffTagged: Codable, Equatable {
    var name: String
    var color: DiffColor?
    var tags: [String]
    var counts: [String: Int]
    var point: DiffPoint?
    var flags: Set<Int>?
    var small: UInt8?
    var ratio: Float?
    var byId: [Int: String]?
    var shape: DiffShape?
    var big: Int64?
    var maybe: [Double?]?
    var active: Bool
}

/// Skips any array element it can't read (as BetterCodable's `@LossyArray`).
@propertyWrapper
struct DiffLossy<Element: Decodable & Equatable>: Decodable, Equatable {
    var wrappedValue: [Element]
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var values: [Element] = []
        while !container.isAtEnd {
            if let value = try? container.decode(Element.self) {
                values.append(value)
            } else {
                _ = try? container.decode(AnyValue.self)
            }
        }
        wrappedValue = values
    }
}

/// Zero when the value isn't an integer (as BetterCodable's `@DefaultZero`, without the missing key).
@propertyWrapper
struct DiffDefaultZero: Decodable, Equatable {
    var wrappedValue: Int
    init(from decoder: any Decoder) throws {
        wrappedValue = (try? decoder.singleValueContainer().decode(Int.self)) ?? 0
    }
}

struct DiffWrapped: Decodable, Equatable {
    @DiffLossy var values: [Int]
    @DiffDefaultZero var count: Int
    var id: Int
}

class DiffBase: Decodable, Equatable {
    var id: Int
    enum Keys: String, CodingKey { case id }
    required init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .id)
    }
    static func == (lhs: DiffBase, rhs: DiffBase) -> Bool { lhs.isEqual(to: rhs) }
    func isEqual(to other: DiffBase) -> Bool { type(of: self) == type(of: other) && id == other.id }
}

/// Shares its parent's container.
final class DiffDerived: DiffBase {
    var extra: String
    enum Keys: String, CodingKey { case extra }
    required init(from decoder: any Decoder) throws {
        extra = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .extra)
        try super.init(from: decoder)
    }
    override func isEqual(to other: DiffBase) -> Bool {
        super.isEqual(to: other) && extra == (other as? DiffDerived)?.extra
    }
}

/// Reads its parent from the member "super", as `superDecoder()` names it.
final class DiffSuper: DiffBase {
    var note: String?
    enum Keys: String, CodingKey { case note }
    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        try super.init(from: container.superDecoder())
    }
    override func isEqual(to other: DiffBase) -> Bool {
        super.isEqual(to: other) && note == (other as? DiffSuper)?.note
    }
}

/// Every container operation, and decisions of its own on what it can't read.
struct DiffManual: Decodable, Equatable {
    var first: Int
    var rest: [String]
    var hasExtra: Bool
    var keys: [String]
    var nilFlag: Bool
    var pair: [Int]
    var inner: Double?

    enum Keys: String, CodingKey { case first, rest, extra, flag, pair, nested }
    enum NestedKeys: String, CodingKey { case value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        keys = container.allKeys.map(\.stringValue).sorted()
        first = (try? container.decode(Int.self, forKey: .first)) ?? -1
        rest = try container.decodeIfPresent([String].self, forKey: .rest) ?? []
        hasExtra = container.contains(.extra)
        nilFlag = (try? container.decodeNil(forKey: .flag)) ?? false
        if container.contains(.pair) {
            var pair = try container.nestedUnkeyedContainer(forKey: .pair)
            var values: [Int] = []
            while !pair.isAtEnd {
                if try pair.decodeNil() { continue }
                values.append(try pair.decode(Int.self))
            }
            self.pair = values
        } else {
            pair = []
        }
        if let nested = try? container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested) {
            inner = try nested.decodeIfPresent(Double.self, forKey: .value)
        }
    }
}

struct DiffRoot: Decodable, Equatable {
    var items: [DiffTagged]
    var wrapped: DiffWrapped?
    var derived: DiffDerived?
    var viaSuper: DiffSuper?
    var manual: DiffManual?
    var matrix: [[Int]]?
    var loop: TryingLoop?
    var label: String
}

/// The shape of the JSON a model reads, for writing documents.
indirect enum Schema: Sendable {
    case int, double, float, string, bool, uint8, int64
    case color
    case shape
    case object([(key: String, value: Schema, optional: Bool)])
    case array(Schema)
    case dictionary(Schema)
    case set(Schema)
    case intKeyed(Schema)
    case optional(Schema)
    case anything

    // Computed, so built anew each time: an indirect enum kept in a static stays allocated to the end, which
    // LeakSanitizer reports.
    static var point: Schema { Schema.object([("x", .int, false), ("y", .double, false)]) }
    static var tagged: Schema {
        Schema.object([
            ("name", .string, false), ("color", .color, true), ("tags", .array(.string), false),
            ("counts", .dictionary(.int), false), ("point", point, true), ("flags", .set(.int), true),
            ("small", .uint8, true), ("ratio", .float, true), ("byId", .intKeyed(.string), true),
            ("shape", .shape, true),
            ("big", .int64, true), ("maybe", .array(.optional(.double)), true), ("active", .bool, false),
        ])
    }
    static var wrapped: Schema {
        Schema.object([("values", .array(.int), false), ("count", .int, false), ("id", .int, false)])
    }
    static var derived: Schema { Schema.object([("id", .int, false), ("extra", .string, false)]) }
    static var viaSuper: Schema {
        Schema.object([("note", .string, true), ("super", .object([("id", .int, false)]), false)])
    }
    static var manual: Schema {
        Schema.object([
            ("first", .int, true), ("rest", .array(.string), true), ("extra", .anything, true),
            ("flag", .optional(.bool), true),
            ("pair", .array(.optional(.int)), true), ("nested", .object([("value", .double, true)]), true),
        ])
    }
    static var loop: Schema { Schema.object([("xs", .array(.int), false), ("maybe", .int, true)]) }
    static var root: Schema {
        Schema.object([
            ("items", .array(tagged), false), ("wrapped", wrapped, true), ("derived", derived, true),
            ("viaSuper", viaSuper, true), ("manual", manual, true), ("matrix", .array(.array(.int)), true),
            ("loop", loop, true), ("label", .string, false),
        ])
    }
}

/// Seeded documents that fit a schema, with mistakes sown at a given rate: a value of another kind, a number that
/// doesn't fit, a missing or extra key, `null`.
struct RandomDocuments {
    private var generator: SplitMix64
    let mistakeRate: Double
    let keyStyle: KeyStyle

    /// How keys are written: as the coding keys, for the snake case strategy, or as `<path length>.<key>` for a
    /// custom strategy that checks the coding path it is given (``KeyStyle/prefixedKey(_:)``).
    enum KeyStyle: Sendable {
        case plain, snakeCase, prefixed

        func written(_ key: String, pathLength: Int) -> String {
            switch self {
            case .plain: key
            case .snakeCase: key.map { $0.isUppercase ? "_" + $0.lowercased() : String($0) }.joined()
            case .prefixed: "\(pathLength).\(key)"
            }
        }

        /// The custom strategy for ``prefixed``: the key without its prefix when the prefix is the path's length.
        @Sendable static func prefixedKey(_ path: [any CodingKey]) -> any CodingKey {
            let key = path.last?.stringValue ?? ""
            let prefix = "\(path.count)."
            return AnyCodingKey(stringValue: key.hasPrefix(prefix) ? String(key.dropFirst(prefix.count)) : "!" + key)
        }
    }

    init(seed: UInt64, mistakeRate: Double, keyStyle: KeyStyle = .plain) {
        generator = SplitMix64(seed: seed)
        self.mistakeRate = mistakeRate
        self.keyStyle = keyStyle
    }

    mutating func next() -> UInt64 { generator.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ probability: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < probability }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    static let strays = [
        "null", "\"12\"", "\"x\"", "12", "1.5", "true", "false", "[]", "{}", "300", "-1", "1e400", "\"1.5\"", "2.0",
        "[1, \"2\"]", "{\"x\": 1}", "\"true\"", "0", "-0", "1e2", "18446744073709551616", "\"red\"",
    ]

    static let snakeCaseKeys = [
        "_leading_key", "trailing_key_", "double__under", "UPPER_CASE", "a_b_c", "__", "_", "x_1_y", "ünï_cödé",
        "already_Camel_Case", "snake_ü_é", "mixed_Case_KEY", "_x_", "a__b__c", "1_2_3",
    ]

    mutating func document(_ schema: Schema) -> String { value(schema, depth: 0) }

    mutating func value(_ schema: Schema, depth: Int) -> String {
        if chance(mistakeRate) { return pick(Self.strays) }
        switch schema {
        case .int: return pick(["0", "1", "-7", "42", "1000000", "\(below(100_000))", "1.0", "1e3"])
        case .double: return pick(["0", "1.5", "-2.25", "3", "1e10", "0.1", "\(below(1000)).\(below(100))", "-0.0"])
        case .float: return pick(["0.5", "1", "-3.75", "1e3", "2.5"])
        case .string: return pick(["\"a\"", "\"hello\"", "\"\"", "\"caf\\u00e9\"", "\"x/y\"", "\"\\n\""])
        case .bool: return pick(["true", "false"])
        case .uint8: return pick(["0", "255", "7", "128"])
        case .int64: return pick(["0", "-9223372036854775808", "9223372036854775807", "123"])
        case .color: return pick(["\"red\"", "\"green\"", "\"blue\""])
        case .shape:
            return pick([
                #"{"circle": {"radius": 1.5}}"#, #"{"rect": {"w": 2, "h": 3}}"#, #"{"none": {}}"#,
                #"{"rect": {"w": 2}}"#,
            ])
        case .object(let members):
            var parts: [String] = []
            for member in members {
                if member.optional && chance(0.3) { continue }
                if chance(mistakeRate / 2) { continue }
                parts.append("\"\(key(member.key, depth))\": \(value(member.value, depth: depth + 1))")
            }
            if chance(keyStyle == .snakeCase ? 0.3 : mistakeRate / 2) {
                // Under the snake case strategy, a key its conversion has rules for (`allKeys` shows it converted).
                let name = keyStyle == .snakeCase ? pick(Self.snakeCaseKeys) : key("unexpected", depth)
                parts.append("\"\(name)\": \(pick(Self.strays))")
            }
            // A key twice: the first one counts.
            if chance(mistakeRate), let member = members.randomElement(using: &self) {
                parts.append("\"\(key(member.key, depth))\": \(value(member.value, depth: depth + 1))")
            }
            return "{" + parts.shuffled(using: &self).joined(separator: ", ") + "}"
        case .array(let element):
            let count = depth > 3 ? below(2) : below(4)
            return "[" + (0..<count).map { _ in value(element, depth: depth + 1) }.joined(separator: ", ") + "]"
        case .set(let element):
            return value(.array(element), depth: depth)
        case .dictionary(let element), .intKeyed(let element):
            // At most one member holds a mistake: JSONDecoder visits a dictionary's members in hash order, so with
            // two its error would change from run to run.
            var parts: [String] = []
            var sown = false
            for index in 0..<below(3) {
                var key = "k\(index)"
                if case .intKeyed = schema {
                    key = "\(index)"
                    if !sown && chance(mistakeRate) {
                        key = "k\(index)"
                        sown = true
                    }
                }
                var member = RandomDocuments(seed: next(), mistakeRate: sown ? 0 : mistakeRate, keyStyle: keyStyle)
                let text = member.value(element, depth: depth + 1)
                if Self.strays.contains(text) { sown = true }
                parts.append("\"\(self.key(key, depth))\": \(text)")
            }
            return "{" + parts.joined(separator: ", ") + "}"
        case .optional(let wrapped):
            return chance(0.3) ? "null" : value(wrapped, depth: depth)
        case .anything:
            return pick(Self.strays)
        }
    }
}

extension RandomDocuments: RandomNumberGenerator {}

extension RandomDocuments {
    /// A member's key as written, its value being at `depth` (the path to the key is one longer).
    func key(_ name: String, _ depth: Int) -> String { keyStyle.written(name, pathLength: depth + 1) }
}
