import Foundation
import HandyStream
import Testing

// Seeded random scripts of encoding container calls, run by a hand-written `encode(to:)`: every call of the three
// containers, nested containers, super encoders, values that run scripts of their own, a key encoded again, a
// container asked for twice, errors let through or caught, under random formatting and strategies. Both encoders must
// write the same bytes (or throw the same error) and show the script the same coding paths and counts. The scripts
// keep to what `JSONEncoder` allows: it traps on a second value in a single value container, on a keyed and an
// unkeyed container from one encoder, and on a nested container of another kind than the key already holds.

/// What a script saw: the paths and counts it asked for, the errors it caught.
final class EncodingScriptLog {
    var lines: [String] = []
}

/// How a keyed container's keys are used so far (a container asked for twice shares them, as it shares the
/// object), so that a script never asks for what `JSONEncoder` traps on.
final class KeyUsage {
    enum Use { case value, object, array, superEncoder }
    var uses: [String: Use] = [:]
    var nested: [String: KeyUsage] = [:]

    func nestedUsage(_ key: String) -> KeyUsage {
        if let usage = nested[key] { return usage }
        let usage = KeyUsage()
        nested[key] = usage
        return usage
    }
}

/// A value whose `encode(to:)` runs the script its seed writes.
struct EncodingScript: Encodable {
    let seed: UInt64
    let depth: Int
    let log: EncodingScriptLog
    /// The key strategy's name for each key the scripts use (keys that become the same name share their use).
    let converted: @Sendable (String) -> String

    func encode(to encoder: any Encoder) throws {
        let runner = EncodingScriptRunner(seed: seed, log: log, converted: converted)
        try runner.run(encoder, depth: depth)
    }
}

final class EncodingScriptRunner {
    var random: SplitMix64
    let log: EncodingScriptLog
    let converted: @Sendable (String) -> String

    static let keys = ["a", "b", "c", "aB", "a_b"]

    init(seed: UInt64, log: EncodingScriptLog, converted: @escaping @Sendable (String) -> String) {
        random = SplitMix64(seed: seed)
        self.log = log
        self.converted = converted
    }

    func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    /// Encodes `value` by `body`; a thrown error goes on most of the time, and is otherwise caught and logged when
    /// the value is a scalar. (`JSONEncoder` reuses the encoder of a value that failed half written for the next one,
    /// which then starts with what the failed one wrote: README; so an error from a collection or a script goes on.)
    func attempt(_ label: String, _ value: any Encodable, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as EncodingError
            where value is Double || value is Float || value is Int ? below(3) == 0 : false
        {
            guard case .invalidValue(_, let context) = error else { throw error }
            log.lines.append("\(label) caught at \(context.codingPath.map(\.stringValue)): \(context.debugDescription)")
        }
    }

    /// A value to encode: scalars of each kind (a non-finite one now and then), collections, a nested script.
    func leaf(depth: Int) -> any Encodable {
        switch below(14) {
        case 0: return below(200) - 100
        case 1: return ["x", "é/\"", ""][below(3)]
        case 2: return below(2) == 0
        case 3: return [1.5, -0.0, 1e300, .nan, .infinity, 0.1][below(6)]
        case 4: return below(3) == 0 ? [1.0, -.infinity] : [1.0, 2.5]
        case 5: return Float([0.25, 3.4e38, Float.nan][below(3)])
        case 6: return Date(timeIntervalSince1970: Double(below(2_000_000_000)) - 1e9)
        case 7: return Data((0..<below(5)).map { UInt8($0 * 60) })
        case 8: return URL(string: "https://example.com/\(below(9))")!
        case 9: return Decimal(string: ["1.5", "-0", "12345678901234567890.5"][below(3)])!
        case 10: return ["k": below(9), "l": -1]
        case 11: return Int8(truncatingIfNeeded: below(300))
        case 12: return [Int?.none, 3]
        default:
            guard depth < 3 else { return "leaf" }
            return EncodingScript(seed: random.next(), depth: depth + 1, log: log, converted: converted)
        }
    }

    /// `elementSuper`: the encoder is an unkeyed container's `superEncoder()`, through whose own unkeyed container
    /// `JSONEncoder` writes an empty array before the elements, or stops the program (README); the script asks it
    /// for the other two.
    func run(_ encoder: any Encoder, depth: Int, elementSuper: Bool = false) throws {
        log.lines.append("encoder at \(encoder.codingPath.map(\.stringValue))")
        switch elementSuper ? [0, 2][below(2)] : below(3) {
        case 0:
            let usage = KeyUsage()
            for _ in 0..<(1 + below(2)) {
                var keyed = encoder.container(keyedBy: ScriptKey.self)
                try run(&keyed, usage, depth: depth)
            }
        case 1:
            for _ in 0..<(1 + below(2)) {
                var unkeyed = encoder.unkeyedContainer()
                try run(&unkeyed, depth: depth)
            }
        default:
            var single = encoder.singleValueContainer()
            log.lines.append("single at \(single.codingPath.map(\.stringValue))")
            if below(5) == 0 {
                try single.encodeNil()
            } else {
                let value = leaf(depth: depth)
                try attempt("single", value) { try single.encode(value) }
            }
        }
    }

    func run(_ keyed: inout KeyedEncodingContainer<ScriptKey>, _ usage: KeyUsage, depth: Int) throws {
        log.lines.append("keyed at \(keyed.codingPath.map(\.stringValue))")
        for _ in 0..<(1 + below(5)) {
            let name = Self.keys[below(Self.keys.count)]
            let key = ScriptKey(stringValue: name)
            let stored = converted(name)
            let use = usage.uses[stored]
            switch below(8) {
            case 0, 1:
                guard use == nil || use == .value else { continue }
                let value = leaf(depth: depth)
                try attempt("encode \(name)", value) { try keyed.encode(value, forKey: key) }
                usage.uses[stored] = .value
            case 2:
                guard use == nil || use == .value else { continue }
                try keyed.encodeNil(forKey: key)
                usage.uses[stored] = .value
            case 3:
                guard use == nil || use == .value else { continue }
                let value: Int? = below(2) == 0 ? nil : below(9)
                try keyed.encodeIfPresent(value, forKey: key)
                if value != nil { usage.uses[stored] = .value }
            case 4:
                guard depth < 3, use == nil || use == .object else { continue }
                usage.uses[stored] = .object
                var nested = keyed.nestedContainer(keyedBy: ScriptKey.self, forKey: key)
                try run(&nested, usage.nestedUsage(stored), depth: depth + 1)
            case 5:
                guard depth < 3, use == nil || use == .array else { continue }
                usage.uses[stored] = .array
                var nested = keyed.nestedUnkeyedContainer(forKey: key)
                try run(&nested, depth: depth + 1)
            case 6:
                guard depth < 3, usage.uses[converted("super")] == nil else { continue }
                usage.uses[converted("super")] = .superEncoder
                try runSuper(keyed.superEncoder(), depth: depth + 1)
            default:
                guard depth < 3, use == nil else { continue }
                usage.uses[stored] = .superEncoder
                try runSuper(keyed.superEncoder(forKey: key), depth: depth + 1)
            }
        }
    }

    /// Runs a super encoder and lets it go, so that `JSONEncoder`'s writes its value before the script goes on.
    func runSuper(_ encoder: consuming any Encoder, depth: Int, elementSuper: Bool = false) throws {
        try run(encoder, depth: depth, elementSuper: elementSuper)
    }

    func run(_ unkeyed: inout any UnkeyedEncodingContainer, depth: Int) throws {
        for _ in 0..<(1 + below(5)) {
            log.lines.append("unkeyed at \(unkeyed.codingPath.map(\.stringValue)), count \(unkeyed.count)")
            switch below(6) {
            case 0, 1:
                let value = leaf(depth: depth)
                try attempt("encode", value) { try unkeyed.encode(value) }
            case 2: try unkeyed.encodeNil()
            case 3:
                guard depth < 3 else { continue }
                var nested = unkeyed.nestedContainer(keyedBy: ScriptKey.self)
                try run(&nested, KeyUsage(), depth: depth + 1)
            case 4:
                guard depth < 3 else { continue }
                var nested = unkeyed.nestedUnkeyedContainer()
                try run(&nested, depth: depth + 1)
            default:
                guard depth < 3 else { continue }
                try runSuper(unkeyed.superEncoder(), depth: depth + 1, elementSuper: true)
            }
        }
    }
}

@Suite struct EncodingScriptTests {
    @Test(arguments: [91, 92] as [UInt64])
    func randomScripts(seed: UInt64) {
        var values = RandomValues(seed: seed, nonFiniteRate: 0)
        var written = 0
        var thrown = 0
        var mismatches = 0
        for round in 0..<(DifferentialTests.casesPerSeed / 2) {
            var choice = EncodingChoice(&values)
            choice.sortedKeys = true
            // Base64 data only: under `deferredToData`, `JSONEncoder` writes data encoded through a container of a
            // super encoder with an empty array before it, or stops the program (README; `deferredDataInSuperEncoders`).
            choice.data = 0
            // Under the snake case strategy `aB` is written `a_b`; the custom one prefixes the path's length, so that
            // no two of the scripts' keys meet.
            let snakeCase = choice.keys == 1
            let converted: @Sendable (String) -> String = { name in snakeCase && name == "aB" ? "a_b" : name }
            let seedOfScript = seed &* 1_000_003 &+ UInt64(round)
            let theirLog = EncodingScriptLog()
            let ourLog = EncodingScriptLog()
            let theirs = EncodeOutcome {
                try choice.foundation.encode(
                    EncodingScript(seed: seedOfScript, depth: 0, log: theirLog, converted: converted))
            }
            let ours = EncodeOutcome {
                Data(
                    try choice.ours.encode(
                        EncodingScript(seed: seedOfScript, depth: 0, log: ourLog, converted: converted)))
            }
            if case .text = theirs { written += 1 } else { thrown += 1 }
            guard ours != theirs || ourLog.lines != theirLog.lines else { continue }
            mismatches += 1
            guard mismatches <= 5 else { continue }
            if ours != theirs {
                Issue.record("round \(round): \(difference(ours.description, theirs.description))\noptions: \(choice)")
            } else {
                let index =
                    zip(ourLog.lines, theirLog.lines).enumerated().first { $1.0 != $1.1 }?.offset
                    ?? min(ourLog.lines.count, theirLog.lines.count)
                let line = { (lines: [String]) in index < lines.count ? lines[index] : "(end)" }
                Issue.record(
                    """
                    round \(round): the logs part at line \(index) (options: \(choice))
                    ModelEncoder: \(line(ourLog.lines))
                    JSONEncoder:  \(line(theirLog.lines))
                    before: \(theirLog.lines[..<index].suffix(4).joined(separator: "\n        "))
                    """)
            }
        }
        #expect(written > DifferentialTests.casesPerSeed / 8)
        #expect(thrown > 0)
    }
}

/// Encodes what its `body` does with the encoder.
struct EncodedBy: Encodable {
    let body: @Sendable (any Encoder) throws -> Void
    func encode(to encoder: any Encoder) throws { try body(encoder) }
}

extension EncodingScriptTests {
    /// A value whose encoding throws leaves nothing in a keyed or unkeyed container when `encode(to:)` catches the
    /// error (a key encoded before keeps its value), as in `JSONEncoder`; it left an empty object before.
    @Test func caughtErrorsLeaveNothing() throws {
        let value = EncodedBy { encoder in
            var keyed = encoder.container(keyedBy: ScriptKey.self)
            try keyed.encode(1, forKey: ScriptKey(stringValue: "a"))
            try? keyed.encode(Double.nan, forKey: ScriptKey(stringValue: "a"))
            try? keyed.encode(Float.infinity, forKey: ScriptKey(stringValue: "b"))
            var unkeyed = keyed.nestedUnkeyedContainer(forKey: ScriptKey(stringValue: "c"))
            try unkeyed.encode(true)
            try? unkeyed.encode(-Double.infinity)
            try? unkeyed.encode([1.5, .nan])
            try unkeyed.encode(unkeyed.count)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let expected = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(expected == #"{"a":1,"c":[true,1]}"#)
        #expect(try ModelEncoder(options: EncodingOptions(sortedKeys: true)).encodeToString(value) == expected)
    }

    /// Two slips of `JSONEncoder` that ModelEncoder doesn't copy (README): after a collection whose encoding threw
    /// half way and was caught, the next collection starts with what the failed one wrote (`{"b":[1,null,3]}`); an
    /// unkeyed container's `superEncoder()` filled through its own unkeyed container gets an empty array first
    /// (`[[[],true,2]]`), or stops the program.
    @Test func jsonEncodersSlipsAreNotCopied() throws {
        let afterCaught = EncodedBy { encoder in
            var keyed = encoder.container(keyedBy: ScriptKey.self)
            try? keyed.encode([1.0, -.infinity], forKey: ScriptKey(stringValue: "a"))
            try keyed.encode([nil, 3] as [Int?], forKey: ScriptKey(stringValue: "b"))
        }
        #expect(try ModelEncoder().encodeToString(afterCaught) == #"{"b":[null,3]}"#)
        let elementSuper = EncodedBy { encoder in
            var unkeyed = encoder.unkeyedContainer()
            var inner = unkeyed.superEncoder().unkeyedContainer()
            func encode<T: Encodable>(_ value: T) throws { try inner.encode(value) }
            try encode(true)
            try encode(2)
        }
        #expect(try ModelEncoder().encodeToString(elementSuper) == "[[true,2]]")
    }
}

extension EncodingScriptTests {
    /// Keys of every shape (capitals in runs, digits, underscores, accents, emoji, empty) converted by
    /// `convertToSnakeCase` as `JSONEncoder` converts them, in a keyed container and in a nested one.
    @Test func snakeCaseKeysOfEveryShape() throws {
        var values = RandomValues(seed: 95, nonFiniteRate: 0)
        let pieces = [
            "a", "A", "URL", "ID", "my", "Value", "x1", "2", "_", "__", "é", "É", "ß", "日本", "😀", "camel", "Case",
            "HTTP",
            "s", "-", " ",
        ]
        let jsonEncoder = JSONEncoder()
        jsonEncoder.outputFormatting = .sortedKeys
        jsonEncoder.keyEncodingStrategy = .convertToSnakeCase
        let ours = ModelEncoder(options: EncodingOptions(sortedKeys: true, keyEncodingStrategy: .convertToSnakeCase))
        for _ in 0..<300 {
            let keys = values.array(5) { values in
                (0..<values.below(5)).map { _ in values.pick(pieces) }.joined()
            }
            let value = EncodedBy { encoder in
                var keyed = encoder.container(keyedBy: ScriptKey.self)
                for (index, key) in keys.enumerated() {
                    try keyed.encode(index, forKey: ScriptKey(stringValue: key))
                    var nested = keyed.nestedContainer(
                        keyedBy: ScriptKey.self, forKey: ScriptKey(stringValue: "in" + key))
                    try nested.encode(key, forKey: ScriptKey(stringValue: key + "Tail"))
                }
            }
            let expected = String(decoding: try jsonEncoder.encode(value), as: UTF8.self)
            #expect(try ours.encodeToString(value) == expected, "keys \(keys)")
        }
    }
}
