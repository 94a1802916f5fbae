import Foundation
import HandyStream
import Testing

// Differential tests of ModelEncoder against JSONEncoder on this toolchain: seeded random values of models with
// synthesized and hand-written `encode(to:)`, property wrappers, enums with payloads, classes that encode through
// `super`, every container operation, and scalars of every kind (the Double and Float bit patterns, Decimal,
// strings of every character a writer escapes). Each value is encoded by both under a random choice of output
// formatting and strategies: with sorted keys the bytes must be equal, without them the same JSON; where
// JSONEncoder throws (infinity or NaN under `.throw`), ModelEncoder must throw `invalidValue` at the same coding path.

enum EncKind: String, Codable { case alpha, beta = "Beta", gammaDelta }

enum EncPayload: Codable {
    case none
    case point(x: Double, y: Double)
    case label(String)
    case pair(Int, String?)
    case nested(EncLeaf)
}

struct EncLeaf: Codable {
    var id: Int
    var name: String
    var score: Double?
    var tags: [String]
}

/// Writes its string in capitals through a single-value container.
@propertyWrapper
struct EncShouted: Codable {
    var wrappedValue: String
    init(wrappedValue: String) { self.wrappedValue = wrappedValue }
    init(from decoder: any Decoder) throws { wrappedValue = try decoder.singleValueContainer().decode(String.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.uppercased())
    }
}

/// Writes its value through a single-value container.
@propertyWrapper
struct EncBoxed<Value: Encodable>: Encodable {
    var wrappedValue: Value
    init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

class EncBase: Encodable {
    var id: Int
    init(id: Int) { self.id = id }
    private enum Keys: String, CodingKey { case id }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(id, forKey: .id)
    }
}

/// Adds its key to its parent's container: both write into one object.
final class EncDerived: EncBase {
    var extra: String
    init(id: Int, extra: String) {
        self.extra = extra
        super.init(id: id)
    }
    private enum Keys: String, CodingKey { case extra }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(extra, forKey: .extra)
        try super.encode(to: encoder)
    }
}

/// Writes its parent under `super`.
final class EncViaSuper: EncBase {
    var note: String?
    init(id: Int, note: String?) {
        self.note = note
        super.init(id: id)
    }
    private enum Keys: String, CodingKey { case note }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(note, forKey: .note)
        try super.encode(to: container.superEncoder())
    }
}

/// A hand-written `encode(to:)` that uses every container operation, each part present or not by a flag, so that
/// the shapes vary from value to value.
struct EncManual: Encodable {
    var first: Int
    var optional: Double?
    var values: [Double]
    var flag: Bool
    var text: String
    var leaf: EncLeaf
    var parts: UInt8

    private enum Keys: String, CodingKey { case first, nested, optional, empty, list, flag, parent, camelCasedKey }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(first, forKey: .first)
        if parts & 1 != 0 {
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nested.encodeIfPresent(optional, forKey: .optional)
            try nested.encodeNil(forKey: .empty)
            try nested.encode(text, forKey: .camelCasedKey)
        }
        if parts & 2 != 0 {
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(contentsOf: values)
            var inner = list.nestedContainer(keyedBy: Keys.self)
            try inner.encode(flag, forKey: .flag)
            var innerList = list.nestedUnkeyedContainer()
            try innerList.encodeNil()
            try innerList.encode(text)
            if parts & 4 != 0 { try leaf.encode(to: list.superEncoder()) }
        }
        if parts & 8 != 0 {
            var single = container.superEncoder(forKey: .parent).singleValueContainer()
            try single.encode(text)
        }
        if parts & 16 != 0 { try container.encodeIfPresent(optional, forKey: .optional) }
        if parts & 32 != 0 { try container.encodeNil(forKey: .empty) }
    }
}

struct EncRoot: Encodable {
    var int: Int
    var int8: Int8
    var uint8: UInt8
    var int64: Int64
    var uint64: UInt64
    var float: Float
    var double: Double
    var bool: Bool
    var string: String
    var optionalString: String?
    var optionalInt: Int?
    var doubles: [Double]
    var floats: [Float]
    var matrix: [[Int]]
    var dictionary: [String: Double]
    var intKeyed: [Int: String]
    var leaves: [EncLeaf]
    var optionalLeaf: EncLeaf?
    var optionals: [Int?]
    var kind: EncKind
    var payloads: [EncPayload]
    @EncShouted var shout: String
    var date: Date
    var data: Data
    var url: URL
    var decimal: Decimal
    var uuid: UUID
    var derived: EncDerived
    var viaSuper: EncViaSuper
    var manual: EncManual
    var myURLProperty: String
    var nestedDictionary: [String: [String: Double]]
    var leafDictionary: [String: EncLeaf]
    @EncBoxed var boxedDictionary: [String: Double]
}

/// Seeded random values for ``EncRoot`` and its parts, with the scalars a writer gets wrong: every Double and
/// Float bit pattern, integers at their limits, strings of characters to escape.
struct RandomValues {
    private var generator: SplitMix64
    /// How often a Double or Float is infinite or NaN.
    let nonFiniteRate: Double

    init(seed: UInt64, nonFiniteRate: Double) {
        generator = SplitMix64(seed: seed)
        self.nonFiniteRate = nonFiniteRate
    }

    mutating func next() -> UInt64 { generator.next() }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ probability: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < probability }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    static let pieces: [String] = [
        "a", "Z", "0", "9", " ", "_", "-", ".", "/", "\\", "\"", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
        "é", "e\u{301}", "ß", "日本", "😀", "\u{2028}", "\u{2029}", "\u{FEFF}", "<", ">", "&", "'", "key", "Key",
        "KEY", "10", "2", "x", "URL", "camelCase", "\u{10FFFF}",
    ]

    mutating func string(maximumPieces: Int = 8) -> String {
        (0..<below(maximumPieces + 1)).map { _ in pick(Self.pieces) }.joined()
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T {
        switch below(4) {
        case 0: return pick([T.min, T.max, 0, T.min &+ 1, T.max &- 1])
        case 1: return T(truncatingIfNeeded: below(200)) &- 100
        default: return T(truncatingIfNeeded: next())
        }
    }

    mutating func double() -> Double {
        if chance(nonFiniteRate) { return pick([.infinity, -.infinity, .nan]) }
        switch below(8) {
        case 0: return pick([0, -0.0, 1, 2, 0.1, 1e21, 1e-7, 1e16, 5e-324, .greatestFiniteMagnitude, 9007199254740993])
        case 1: return Double(Int64(truncatingIfNeeded: next()) >> Int64(below(60)))
        case 2: return Double(below(2_000_000)) / 1000 - 1000
        case 3: return Double(sign: .plus, exponent: below(2000) - 1000, significand: 1)
        default:
            let value = Double(bitPattern: next())
            return value.isFinite ? value : 1.5
        }
    }

    mutating func float() -> Float {
        if chance(nonFiniteRate) { return pick([.infinity, -.infinity, .nan]) }
        switch below(4) {
        case 0: return pick([0, -0.0, 0.1, 1, 3.4028235e38, 1e-45, 16_777_217, 1e10])
        case 1: return Float(below(20000)) / 100 - 100
        default:
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: next()))
            return value.isFinite ? value : 2.5
        }
    }

    mutating func decimal() -> Decimal {
        let digits = (0..<(1 + below(38))).map { _ in String(below(10)) }.joined()
        let text = (chance(0.3) ? "-" : "") + digits + (chance(0.5) ? "e\(below(60) - 30)" : "")
        return Decimal(string: text) ?? 0
    }

    mutating func array<T>(_ maximum: Int, _ element: (inout RandomValues) -> T) -> [T] {
        (0..<below(maximum + 1)).map { _ in element(&self) }
    }

    mutating func leaf() -> EncLeaf {
        EncLeaf(
            id: integer(Int.self), name: string(), score: chance(0.3) ? nil : double(),
            tags: array(3) { $0.string(maximumPieces: 3) })
    }

    mutating func payload() -> EncPayload {
        switch below(5) {
        case 0: return .none
        case 1: return .point(x: double(), y: double())
        case 2: return .label(string())
        case 3: return .pair(integer(Int.self), chance(0.5) ? nil : string())
        default: return .nested(leaf())
        }
    }

    mutating func manual() -> EncManual {
        EncManual(
            first: integer(Int.self), optional: chance(0.5) ? nil : double(), values: array(3) { $0.double() },
            flag: chance(0.5), text: string(), leaf: leaf(), parts: UInt8(truncatingIfNeeded: next()))
    }

    mutating func root() -> EncRoot {
        EncRoot(
            int: integer(Int.self), int8: integer(Int8.self), uint8: integer(UInt8.self), int64: integer(Int64.self),
            uint64: integer(UInt64.self), float: float(), double: double(), bool: chance(0.5), string: string(),
            optionalString: chance(0.5) ? nil : string(), optionalInt: chance(0.5) ? nil : integer(Int.self),
            doubles: array(4) { $0.double() }, floats: array(3) { $0.float() },
            matrix: array(3) { $0.array(3) { $0.integer(Int.self) } },
            dictionary: Dictionary(array(5) { ($0.string(maximumPieces: 3), $0.double()) }) { first, _ in first },
            intKeyed: Dictionary(array(5) { ($0.integer(Int.self), $0.string()) }) { first, _ in first },
            leaves: array(3) { $0.leaf() }, optionalLeaf: chance(0.5) ? nil : leaf(),
            optionals: array(4) { $0.chance(0.4) ? nil : $0.integer(Int.self) },
            kind: pick([.alpha, .beta, .gammaDelta]),
            payloads: array(4) { $0.payload() }, shout: string(),
            date: Date(timeIntervalSince1970: Double(below(4_000_000_000)) - 2e9 + Double(below(1000)) / 1000),
            data: bytes(),
            url: URL(string: pick(["https://example.com/a/b?c=d", "file:///tmp/x", "relative/path", "mailto:a@b.c"]))!,
            decimal: decimal(), uuid: UUID(uuid: uuidBytes()),
            derived: EncDerived(id: integer(Int.self), extra: string()),
            viaSuper: EncViaSuper(id: integer(Int.self), note: chance(0.5) ? nil : string()), manual: manual(),
            myURLProperty: string(),
            nestedDictionary: Dictionary(array(3) { ($0.string(maximumPieces: 2), ["k": $0.double()]) }) {
                first, _ in first
            },
            leafDictionary: Dictionary(array(3) { ($0.string(maximumPieces: 2), $0.leaf()) }) { first, _ in first },
            boxedDictionary: Dictionary(array(3) { ($0.string(maximumPieces: 2), $0.double()) }) { first, _ in first })
    }

    mutating func bytes() -> Data {
        let bytes: [UInt8] = array(12) { UInt8(truncatingIfNeeded: $0.next()) }
        return Data(bytes)
    }

    private mutating func uuidBytes() -> uuid_t {
        let high = next()
        let low = next()
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (8 * index)) }
        return (
            byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6),
            byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5),
            byte(low, 6), byte(low, 7)
        )
    }
}

/// One choice of output formatting and strategies, set the same way on both encoders.
struct EncodingChoice: CustomStringConvertible {
    var sortedKeys: Bool
    var prettyPrinted: Bool
    var escapesSlashes: Bool
    var keys: Int
    var dates: Int
    var data: Int
    var floats: Int

    init(_ values: inout RandomValues) {
        sortedKeys = values.chance(0.8)
        prettyPrinted = values.chance(0.4)
        escapesSlashes = values.chance(0.6)
        keys = values.below(3)
        dates = values.below(4)
        data = values.below(2)
        floats = values.below(2)
    }

    var description: String {
        "sortedKeys \(sortedKeys), pretty \(prettyPrinted), slashes escaped \(escapesSlashes), keys \(keys), "
            + "dates \(dates), data \(data), floats \(floats)"
    }

    /// A custom key strategy that depends on the whole coding path.
    @Sendable static func customKey(_ path: [any CodingKey]) -> any CodingKey {
        AnyCodingKey(stringValue: "\(path.count)." + (path.last?.stringValue ?? ""))
    }

    var foundation: JSONEncoder {
        let encoder = JSONEncoder()
        var formatting: JSONEncoder.OutputFormatting = []
        if sortedKeys { formatting.insert(.sortedKeys) }
        if prettyPrinted { formatting.insert(.prettyPrinted) }
        if !escapesSlashes { formatting.insert(.withoutEscapingSlashes) }
        encoder.outputFormatting = formatting
        encoder.keyEncodingStrategy = [.useDefaultKeys, .convertToSnakeCase, .custom(Self.customKey)][keys]
        encoder.dateEncodingStrategy = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601][dates]
        encoder.dataEncodingStrategy = [.base64, .deferredToData][data]
        encoder.nonConformingFloatEncodingStrategy =
            floats == 0 ? .throw : .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    var ours: ModelEncoder {
        let strategy: KeyEncodingStrategy = [.useDefaultKeys, .convertToSnakeCase, .custom(Self.customKey)][keys]
        var options = EncodingOptions(
            prettyPrinted: prettyPrinted, sortedKeys: sortedKeys, keyEncodingStrategy: strategy,
            escapesSlashes: escapesSlashes)
        options.dateEncodingStrategy = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601][dates]
        options.dataEncodingStrategy = [.base64, .deferredToData][data]
        options.nonConformingFloatEncodingStrategy =
            floats == 0 ? .throw : .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return ModelEncoder(options: options)
    }
}

/// An encode's outcome: the text, or the error's case, message and coding path.
enum EncodeOutcome: Equatable, CustomStringConvertible {
    case text(String)
    case error(String, [String])

    init(_ body: () throws -> Data) {
        do {
            self = .text(String(decoding: try body(), as: UTF8.self))
        } catch let error as EncodingError {
            guard case .invalidValue(_, let context) = error else {
                self = .error("EncodingError", [])
                return
            }
            self = .error("invalidValue: \(context.debugDescription)", context.codingPath.map(\.stringValue))
        } catch {
            self = .error("not an EncodingError: \(error)", [])
        }
    }

    var description: String {
        switch self {
        case .text(let text): text
        case .error(let kind, let path): "\(kind) at \(path)"
        }
    }

    /// The same JSON: equal texts, or (members in another order) equal values as `JSONDecoder` reads them and
    /// equal lengths.
    func sameJSON(as other: EncodeOutcome) -> Bool {
        guard case .text(let mine) = self, case .text(let theirs) = other else { return self == other }
        if mine == theirs { return true }
        let read = { (text: String) in try? JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8)) }
        guard let left = read(mine), let right = read(theirs) else { return false }
        return left == right && mine.utf8.count == theirs.utf8.count
    }
}

/// Any JSON value, members by key (a Swift `String` key: `""` and `"\u{FEFF}"` stay apart, as they do not in an
/// `NSDictionary`).
indirect enum AnyJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let array = try? single.decode([AnyJSON].self) {
            self = .array(array)
        } else {
            self = .object(try single.decode([String: AnyJSON].self))
        }
    }
}

/// Where two texts first differ, with some text around it.
func difference(_ ours: String, _ theirs: String) -> String {
    let left = Array(ours.unicodeScalars)
    let right = Array(theirs.unicodeScalars)
    var index = 0
    while index < left.count && index < right.count && left[index] == right[index] { index += 1 }
    func around(_ scalars: [Unicode.Scalar]) -> String {
        let slice = scalars[max(0, index - 60)..<min(scalars.count, index + 60)]
        return String(String.UnicodeScalarView(slice)).debugDescription
    }
    return "first difference at \(index) of \(left.count) / \(right.count)\nModelEncoder: \(around(left))\n"
        + "JSONEncoder:  \(around(right))"
}

@Suite struct EncodingDifferentialTests {
    /// Encodes `value` with both encoders under `choice`; records a difference.
    @discardableResult
    static func compare<T: Encodable>(
        _ value: T, _ choice: EncodingChoice, sourceLocation: SourceLocation = #_sourceLocation
    ) -> EncodeOutcome {
        let foundation = EncodeOutcome { try choice.foundation.encode(value) }
        let ours = EncodeOutcome { Data(try choice.ours.encode(value)) }
        var same = choice.sortedKeys ? ours == foundation : ours.sameJSON(as: foundation)
        if !same, choice.keys != 0, case .error = ours, case .error = foundation {
            same = jsonEncoderCanReport(ours, for: value, choice)
        }
        if !same {
            Issue.record(
                "\(difference(ours.description, foundation.description))\noptions: \(choice)",
                sourceLocation: sourceLocation)
        }
        return foundation
    }

    /// Whether `JSONEncoder` reports `error` for `value` on one of some more calls. Under a key strategy it encodes a
    /// `[String: T]` through a copy of it, whose member order is seeded per instance: which of several failing
    /// members it names changes from call to call (README, differences kept on purpose). Each call's copy gets memory
    /// at another address (``untilTrueAtFreshAddresses(calls:_:)``).
    static func jsonEncoderCanReport<T: Encodable>(_ error: EncodeOutcome, for value: T, _ choice: EncodingChoice)
        -> Bool
    {
        untilTrueAtFreshAddresses(calls: 30) { EncodeOutcome({ try choice.foundation.encode(value) }) == error }
    }

    @Test func jsonEncoderNamesAnyFailingMemberUnderAKeyStrategy() throws {
        // The README's example: under the snake case strategy, each of the three failing members is named on some
        // call, and never another member.
        let value: [String: Double] = ["alpha": .nan, "beta": 1, "gamma": .nan, "delta": .infinity, "eps": 2]
        var values = RandomValues(seed: 1, nonFiniteRate: 0)
        var choice = EncodingChoice(&values)
        choice.keys = 1
        choice.floats = 0
        for key in ["alpha", "gamma", "delta"] {
            let message = key == "delta" ? "Double.inf" : "Double.nan"
            let expected = EncodeOutcome.error(
                "invalidValue: Unable to encode \(message) directly in JSON.", [key])
            #expect(Self.jsonEncoderCanReport(expected, for: value, choice), "\(key)")
        }
        #expect(
            !Self.jsonEncoderCanReport(
                .error("invalidValue: Unable to encode Double.nan directly in JSON.", ["beta"]), for: value, choice))
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomValuesOfTheWholeModel(seed: UInt64) {
        var values = RandomValues(seed: seed, nonFiniteRate: 0.004)
        var written = 0
        var thrown = 0
        for _ in 0..<(DifferentialTests.casesPerSeed / 4) {
            let value = values.root()
            let choice = EncodingChoice(&values)
            if case .text = Self.compare(value, choice) { written += 1 } else { thrown += 1 }
        }
        // Both outcomes are exercised: values written, and non-finite numbers refused under `.throw`.
        #expect(written > DifferentialTests.casesPerSeed / 8)
        #expect(thrown > 0)
    }

    @Test(arguments: [21, 22] as [UInt64])
    func randomValuesOfEachPart(seed: UInt64) {
        var values = RandomValues(seed: seed, nonFiniteRate: 0.02)
        for _ in 0..<DifferentialTests.casesPerSeed {
            let choice = EncodingChoice(&values)
            switch values.below(12) {
            case 0: Self.compare(values.double(), choice)
            case 1: Self.compare(values.float(), choice)
            case 2: Self.compare(values.string(), choice)
            case 3: Self.compare(values.decimal(), choice)
            case 4: Self.compare(values.array(6) { $0.double() }, choice)
            case 5: Self.compare(values.leaf(), choice)
            case 6: Self.compare(values.payload(), choice)
            case 7: Self.compare(values.manual(), choice)
            case 8:
                let dictionary = Dictionary(values.array(8) { ($0.string(maximumPieces: 3), $0.integer(Int8.self)) }) {
                    first, _ in first
                }
                Self.compare(dictionary, choice)
            case 9:
                Self.compare(Dictionary(values.array(8) { ($0.integer(Int.self), $0.bool()) }) { a, _ in a }, choice)
            case 10: Self.compare(EncViaSuper(id: values.integer(Int.self), note: values.string()), choice)
            default: Self.compare(values.array(4) { $0.chance(0.5) ? nil : $0.payload() }, choice)
            }
        }
    }
}

extension RandomValues {
    mutating func bool() -> Bool { chance(0.5) }
}

extension EncodingDifferentialTests {
    /// Scalars at their edges, at the root and in an array, under random formatting and strategies: the widest
    /// integers, `Float16`, dates before 1970 and with fractions of a second (the ISO 8601 strategy drops them),
    /// `Decimal`'s extremes, relative URLs, empty data.
    @Test(arguments: [61, 62] as [UInt64])
    func scalarsAtTheirEdges(seed: UInt64) {
        var values = RandomValues(seed: seed, nonFiniteRate: 0)
        let base = URL(string: "https://example.com/a/")!
        for _ in 0..<(DifferentialTests.casesPerSeed / 4) {
            var choice = EncodingChoice(&values)
            choice.floats = 1
            let seconds = Double(values.below(8_000_000_000)) - 4e9 + Double(values.below(1_000_000)) / 1e6
            switch values.below(8) {
            case 0:
                Self.compare([Int128.max, Int128.min, Int128(values.integer(Int64.self)) << values.below(60)], choice)
            case 1: Self.compare([UInt128.max, UInt128(values.integer(UInt64.self)) << values.below(60)], choice)
            case 2:
                let half = Float16(bitPattern: UInt16(truncatingIfNeeded: values.next()))
                Self.compare([half, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0], choice)
            case 3:
                Self.compare(
                    [Date(timeIntervalSince1970: seconds), Date(timeIntervalSinceReferenceDate: -seconds)], choice)
            case 4: Self.compare(Date(timeIntervalSince1970: seconds), choice)
            case 5:
                Self.compare(
                    [Decimal.greatestFiniteMagnitude, .leastFiniteMagnitude, .leastNonzeroMagnitude, values.decimal()],
                    choice)
            case 6:
                Self.compare(
                    [URL(string: "b/c?d=e#f", relativeTo: base)!, URL(string: "../x", relativeTo: base)!, base], choice)
            default:
                Self.compare(
                    [Data(), Data([0, 255]), Data(values.array(5) { UInt8(truncatingIfNeeded: $0.next()) })], choice)
            }
        }
    }
}

/// Optionals of optionals, under synthesized conformance (`encodeIfPresent` of an `Int?`).
struct EncNestedOptionals: Encodable {
    var a: Int??
    var b: [Int??]
    var c: [String: Int?]
}

extension EncodingDifferentialTests {
    /// The standard library's and Foundation's composite `Encodable` types under random formatting and strategies:
    /// optionals of optionals, ranges, sets, dictionaries keyed by integers (an object) and by other types (an array
    /// of alternating keys and values), raw-value enums, `CGFloat`, `ContiguousArray`, `UUID`, a root `nil`.
    @Test(arguments: [71, 72] as [UInt64])
    func standardCompositeValues(seed: UInt64) {
        var values = RandomValues(seed: seed, nonFiniteRate: 0.02)
        for _ in 0..<(DifferentialTests.casesPerSeed / 4) {
            let choice = EncodingChoice(&values)
            let small = { (values: inout RandomValues) in Int(values.integer(Int8.self)) }
            let optional = { (values: inout RandomValues) -> Int?? in
                [Int??.none, .some(nil), .some(small(&values))][values.below(3)]
            }
            switch values.below(12) {
            case 0:
                let value = EncNestedOptionals(
                    a: optional(&values), b: values.array(4, optional),
                    c: Dictionary(values.array(4) { ($0.string(maximumPieces: 2), $0.chance(0.5) ? nil : small(&$0)) })
                    { first, _ in first })
                Self.compare(value, choice)
            case 1:
                let bounds = [small(&values), small(&values)].sorted()
                Self.compare(bounds[0]..<bounds[1], choice)
                Self.compare(bounds[0]...bounds[1], choice)
                Self.compare([bounds[0]...], choice)
                Self.compare([...bounds[1]], choice)
            case 2: Self.compare(Set(values.array(6, small)), choice)
            case 3:
                Self.compare(Dictionary(values.array(5) { (small(&$0), $0.string()) }) { first, _ in first }, choice)
            case 4:
                Self.compare(
                    Dictionary(values.array(5) { ($0.integer(Int8.self), $0.double()) }) { first, _ in first }, choice)
            case 5: Self.compare(Dictionary(values.array(2) { ($0.bool(), small(&$0)) }) { first, _ in first }, choice)
            case 6:
                Self.compare(Dictionary(values.array(4) { ($0.double(), small(&$0)) }) { first, _ in first }, choice)
            case 7: Self.compare(values.array(4) { [DiffLevel.low, .high][$0.below(2)] }, choice)
            case 8: Self.compare(values.array(4) { CGFloat($0.double()) }, choice)
            case 9: Self.compare(ContiguousArray(values.array(4) { $0.float() }), choice)
            case 10: Self.compare([Int?.none], choice)
            default:
                Self.compare(Int?.none, choice)
                Self.compare(Optional(Optional(Int?.none)), choice)
            }
        }
    }
}
