import Foundation
import HandyStream
import Testing

// Seeded random scripts of container operations, run by a hand-written `init(from:)` over seeded random documents:
// every call of the three containers (keyed, unkeyed, single value), nested containers and super decoders, with each
// call's outcome logged (its value, or its error's case, type and coding path; the containers' coding paths, keys,
// counts and indices). The decoders must write the same log; the script catches every error, so lenient mode must
// write it too (it rescues only what escapes `init(from:)`).

/// A key of any name.
struct ScriptKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The seed of a script, handed to `init(from:)` through `userInfo`.
final class ScriptSeed: Sendable {
    static let key = CodingUserInfoKey(rawValue: "handystream.tests.scriptSeed")!
    let seed: UInt64
    init(_ seed: UInt64) { self.seed = seed }
}

/// Runs the script its seed writes; the log is its value.
struct ScriptRun: Decodable, Equatable {
    var log: [String] = []

    /// The keys a script asks for; a document's are the same with `a_b` for `aB` (which the snake case strategy
    /// converts).
    static let keys = ["a", "b", "c", "super", "zz", "aB"]

    init(from decoder: any Decoder) throws {
        guard let seed = decoder.userInfo[ScriptSeed.key] as? ScriptSeed else { throw CancellationError() }
        var random = SplitMix64(seed: seed.seed)
        run(decoder, depth: 0, &random)
    }

    /// Runs `body`, logging its value (or only that it returned, for a container or a decoder) or its error.
    mutating func record<T>(_ label: String, _ body: () throws -> T) -> T? {
        do {
            let value = try body()
            let shown =
                value is any Decoder || value is SingleValueDecodingContainer
                || value is KeyedDecodingContainer<ScriptKey> || value is UnkeyedDecodingContainer
            log.append("\(label) → \(shown ? "made" : "\(value)")")
            return value
        } catch let error as DecodingError {
            let (kind, path) = errorSummary(error)
            log.append("\(label) → \(kind) at \(path): \(Self.message(error))")
            return nil
        } catch {
            // A number that doesn't fit: JSONDecoder's own `JSONError`, which no one else can make.
            log.append("\(label) → another error")
            return nil
        }
    }

    /// An error's message, which `init(from:)` may show.
    static func message(_ error: DecodingError) -> String {
        // JSONDecoder's mismatch of a `Decimal` has no message; HandyStream's says what it found (README).
        if case .typeMismatch(let type, _) = error, type == Decimal.self { return "(a Decimal's mismatch)" }
        return error.message
    }

    mutating func run(_ decoder: any Decoder, depth: Int, _ random: inout SplitMix64) {
        log.append("decoder at \(decoder.codingPath.map(\.stringValue))")
        for _ in 0..<(1 + Int(random.next() % 3)) {
            switch random.next() % 3 {
            case 0:
                if let keyed = record("keyed", { try decoder.container(keyedBy: ScriptKey.self) }) {
                    run(keyed, depth: depth, &random)
                }
            case 1:
                if var unkeyed = record("unkeyed", { try decoder.unkeyedContainer() }) {
                    run(&unkeyed, depth: depth, &random)
                }
            default:
                if let single = record("single", { try decoder.singleValueContainer() }) {
                    log.append("single at \(single.codingPath.map(\.stringValue)), nil \(single.decodeNil())")
                    decodeValue(random.next(), "single") { try single.decode($0) }
                }
            }
        }
    }

    /// Decodes a value of a type the script picks, by `decode`, which is given the type.
    mutating func decodeValue(_ pick: UInt64, _ label: String, _ decode: (any Decodable.Type) throws -> Any) {
        let types: [any Decodable.Type] = [
            Int.self, Int8.self, UInt8.self, Double.self, Float.self, String.self, Bool.self, [Int].self, Int?.self,
            Decimal.self, [Bool?].self, Int64.self,
        ]
        let type = types[Int(pick % UInt64(types.count))]
        _ = record("\(label) \(type)") { "\(try decode(type))" }
    }

    mutating func run(_ keyed: KeyedDecodingContainer<ScriptKey>, depth: Int, _ random: inout SplitMix64) {
        log.append("keyed at \(keyed.codingPath.map(\.stringValue)), keys \(keyed.allKeys.map(\.stringValue).sorted())")
        for _ in 0..<(1 + Int(random.next() % 5)) {
            let name = Self.keys[Int(random.next() % UInt64(Self.keys.count))]
            let key = ScriptKey(stringValue: name)
            switch random.next() % 9 {
            case 0: _ = record("contains \(name)") { keyed.contains(key) }
            case 8:
                // The overloads of the standard types, which a generic call doesn't reach.
                switch random.next() % 4 {
                case 0: _ = record("decodeIfPresent Int \(name)") { try keyed.decodeIfPresent(Int.self, forKey: key) }
                case 1: _ = record("decode Bool \(name)") { try keyed.decode(Bool.self, forKey: key) }
                case 2:
                    _ = record("decodeIfPresent String \(name)") { try keyed.decodeIfPresent(String.self, forKey: key) }
                default: _ = record("decode Double \(name)") { try keyed.decode(Double.self, forKey: key) }
                }
            case 1: _ = record("decodeNil \(name)") { try keyed.decodeNil(forKey: key) }
            case 2: decodeValue(random.next(), "decode \(name)") { try keyed.decode($0, forKey: key) }
            case 3:
                decodeValue(random.next(), "decodeIfPresent \(name)") {
                    try keyed.decodeIfPresent($0, forKey: key) as Any
                }
            case 4:
                if depth < 3,
                    let nested = record(
                        "nestedKeyed \(name)",
                        {
                            try keyed.nestedContainer(keyedBy: ScriptKey.self, forKey: key)
                        })
                {
                    run(nested, depth: depth + 1, &random)
                }
            case 5:
                if depth < 3,
                    var nested = record("nestedUnkeyed \(name)", { try keyed.nestedUnkeyedContainer(forKey: key) })
                {
                    run(&nested, depth: depth + 1, &random)
                }
            case 6:
                if depth < 3, let inner = record("superDecoder", { try keyed.superDecoder() }) {
                    run(inner, depth: depth + 1, &random)
                }
            default:
                if depth < 3, let inner = record("superDecoder \(name)", { try keyed.superDecoder(forKey: key) }) {
                    run(inner, depth: depth + 1, &random)
                }
            }
        }
    }

    mutating func run(_ unkeyed: inout any UnkeyedDecodingContainer, depth: Int, _ random: inout SplitMix64) {
        for _ in 0..<(1 + Int(random.next() % 6)) {
            log.append(
                "unkeyed at \(unkeyed.codingPath.map(\.stringValue)), count \(String(describing: unkeyed.count)), "
                    + "index \(unkeyed.currentIndex), at end \(unkeyed.isAtEnd)")
            switch random.next() % 8 {
            case 0: _ = record("decodeNil") { try unkeyed.decodeNil() }
            case 7:
                // The overloads of the standard types, which a generic call doesn't reach.
                switch random.next() % 4 {
                case 0: _ = record("decodeIfPresent Int") { try unkeyed.decodeIfPresent(Int.self) as Any }
                case 1: _ = record("decodeIfPresent Bool") { try unkeyed.decodeIfPresent(Bool.self) as Any }
                case 2: _ = record("decodeIfPresent String") { try unkeyed.decodeIfPresent(String.self) as Any }
                default: _ = record("decode UInt8") { try unkeyed.decode(UInt8.self) }
                }
            case 1, 2: decodeValue(random.next(), "decode") { try unkeyed.decode($0) }
            case 3: decodeValue(random.next(), "decodeIfPresent") { try unkeyed.decodeIfPresent($0) as Any }
            case 4:
                if depth < 3,
                    let nested = record(
                        "nestedKeyed",
                        {
                            try unkeyed.nestedContainer(keyedBy: ScriptKey.self)
                        })
                {
                    run(nested, depth: depth + 1, &random)
                }
            case 5:
                if depth < 3, var nested = record("nestedUnkeyed", { try unkeyed.nestedUnkeyedContainer() }) {
                    run(&nested, depth: depth + 1, &random)
                }
            default:
                if depth < 3, let inner = record("superDecoder", { try unkeyed.superDecoder() }) {
                    run(inner, depth: depth + 1, &random)
                }
            }
        }
    }
}

/// Seeded random documents for the scripts: the scripts' keys, values of every kind, nested three deep.
struct ScriptDocuments {
    var random: SplitMix64
    /// Keys written as `<path length>.<key>`, for the custom strategy of ``RandomDocuments/KeyStyle/prefixedKey(_:)``.
    var prefixed = false

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }

    mutating func value(depth: Int) -> String {
        let kind = depth >= 3 ? random.next() % 2 : random.next() % 4
        switch kind {
        case 0, 1:
            return pick([
                "null", "true", "false", "0", "-1", "300", "1.5", "1e400", "\"x\"", "\"12\"", "\"\"", "-0", "255",
                "18446744073709551616",
            ])
        case 2:
            let count = Int(random.next() % 4)
            return "[" + (0..<count).map { _ in value(depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            var keys = ScriptRun.keys.map { $0 == "aB" ? "a_b" : $0 }.filter { _ in random.next() % 3 != 0 }
            keys.shuffle(using: &random)
            let prefix = prefixed ? "\(depth + 1)." : ""
            return "{" + keys.map { "\"\(prefix)\($0)\":\(value(depth: depth + 1))" }.joined(separator: ",") + "}"
        }
    }
}

@Suite struct ContainerScriptTests {
    @Test(arguments: [81, 82, 83, 84] as [UInt64])
    func randomScriptsOverRandomDocuments(seed: UInt64) {
        // Seed 83 under the snake case strategy, 84 under a custom one that checks the coding path it is given.
        let strategy: JSONDecoder.KeyDecodingStrategy =
            seed == 83
            ? .convertFromSnakeCase : seed == 84 ? .custom(RandomDocuments.KeyStyle.prefixedKey) : .useDefaultKeys
        var documents = ScriptDocuments(random: SplitMix64(seed: seed), prefixed: seed == 84)
        var mismatches = 0
        var errorsLogged = 0
        var keysFound = 0
        for round in 0..<(DifferentialTests.casesPerSeed / 2) {
            let json = Data(documents.value(depth: 0).utf8)
            let script = ScriptSeed(seed &* 1_000_003 &+ UInt64(round))
            let foundation = JSONDecoder()
            foundation.userInfo[ScriptSeed.key] = script
            foundation.keyDecodingStrategy = strategy
            var strictOptions = DecodingOptions(strict: true)
            strictOptions.userInfo[ScriptSeed.key] = script
            strictOptions.keyDecodingStrategy =
                seed == 83 ? .convertFromSnakeCase : seed == 84 ? DifferentialTests.prefixed : .useDefaultKeys
            var lenientOptions = DecodingOptions()
            lenientOptions.userInfo[ScriptSeed.key] = script
            lenientOptions.keyDecodingStrategy = strictOptions.keyDecodingStrategy
            let expected = DiffOutcome { try foundation.decode(ScriptRun.self, from: json) }
            guard case .value(let run) = expected else {
                Issue.record("the script threw: \(expected)")
                continue
            }
            keysFound += run.log.filter { $0.hasPrefix("contains ") && $0.hasSuffix("→ true") }.count
            errorsLogged += run.log.filter { $0.contains(" at [") && $0.contains("→ ") && !$0.contains("→ true") }.count
            for (mode, options) in [("strict", strictOptions), ("lenient", lenientOptions)] {
                let ours = DiffOutcome { try ModelDecoder(options: options).decode(ScriptRun.self, from: json) }
                guard ours != expected else { continue }
                mismatches += 1
                if mismatches <= 5, case .value(let mine) = ours {
                    let index =
                        zip(mine.log, run.log).enumerated().first { $1.0 != $1.1 }?.offset
                        ?? min(mine.log.count, run.log.count)
                    Issue.record(
                        """
                        \(mode): the logs part at line \(index)
                        document: \(String(decoding: json, as: UTF8.self))
                        ours:        \(index < mine.log.count ? mine.log[index] : "(end)")
                        JSONDecoder: \(index < run.log.count ? run.log[index] : "(end)")
                        before: \(run.log[..<index].suffix(4).joined(separator: "\n        "))
                        """)
                } else if mismatches <= 5 {
                    Issue.record("\(mode): \(ours)\nJSONDecoder: \(expected)")
                }
            }
        }
        #expect(errorsLogged > DifferentialTests.casesPerSeed)
        // The documents' keys are found under each strategy (the custom one strips the right prefixes).
        #expect(keysFound > 0)
    }
}

/// What a keyed container shows of an object: its keys, and the value found by each key.
struct KeysSeen: Decodable, Equatable {
    var keys: [String]
    var values: [Int?]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ScriptKey.self)
        keys = container.allKeys.map(\.stringValue).sorted()
        values = keys.map { try? container.decode(Int.self, forKey: ScriptKey(stringValue: $0)) }
    }
}

extension ContainerScriptTests {
    /// Document keys of every shape (leading, trailing and doubled underscores, capitals, digits, accents, emoji)
    /// converted by `convertFromSnakeCase` as `JSONDecoder` converts them: the keys a container shows, and the
    /// member each one finds (the first of those that convert alike).
    @Test func snakeCaseKeysOfEveryShape() throws {
        var random = SplitMix64(seed: 96)
        let pieces = ["a", "b", "_", "__", "A", "URL", "x1", "2", "é", "É", "日本", "😀", "my", "value", "ID"]
        let jsonDecoder = JSONDecoder()
        jsonDecoder.keyDecodingStrategy = .convertFromSnakeCase
        var options = DecodingOptions(strict: true)
        options.keyDecodingStrategy = .convertFromSnakeCase
        let strict = ModelDecoder(options: options)
        for _ in 0..<300 {
            let keys = (0..<Int(random.next() % 6)).map { _ in
                (0..<Int(random.next() % 5)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            }
            let members = keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ")
            let json = Data("{\(members)}".utf8)
            let expected = DiffOutcome { try jsonDecoder.decode(KeysSeen.self, from: json) }
            #expect(DiffOutcome { try strict.decode(KeysSeen.self, from: json) } == expected, "keys \(keys)")
        }
    }
}

extension ContainerScriptTests {
    /// `null` or a number where a `[String: Int]` is expected, at the root and as a member, under the default key
    /// strategy (read through a keyed container) and the snake case one (read without): `JSONDecoder`'s error, its
    /// message included (followed by where it is in the input, which HandyStream adds to the error it throws).
    @Test func dictionariesRefusedAsJSONDecoderSays() throws {
        struct Holder: Decodable, Equatable { var m: [String: Int] }
        for snakeCase in [false, true] {
            let jsonDecoder = JSONDecoder()
            jsonDecoder.keyDecodingStrategy = snakeCase ? .convertFromSnakeCase : .useDefaultKeys
            var options = DecodingOptions(strict: true)
            options.keyDecodingStrategy = snakeCase ? .convertFromSnakeCase : .useDefaultKeys
            let strict = ModelDecoder(options: options)
            func message(_ body: () throws -> Any) -> String {
                switch Result(catching: body) {
                case .success: return "decoded"
                case .failure(let error as DecodingError):
                    let (kind, path) = errorSummary(error)
                    return "\(kind) at \(path): \(error.message)"
                case .failure(let error): return "\(error)"
                }
            }
            for text in [#"{"m": null}"#, #"{"m": 1}"#, #"{"m": []}"#] {
                let json = Data(text.utf8)
                let expected = message { try jsonDecoder.decode(Holder.self, from: json) }
                #expect(
                    message { try strict.decode(Holder.self, from: json) }.hasPrefix(expected + " (line 1, column "),
                    "\(text), snake case \(snakeCase): \(expected)")
            }
            for text in ["null", "1"] {
                let json = Data(text.utf8)
                let expected = message { try jsonDecoder.decode([String: Int].self, from: json) }
                #expect(
                    message { try strict.decode([String: Int].self, from: json) }.hasPrefix(
                        expected + " (line 1, column "),
                    "\(text), snake case \(snakeCase): \(expected)")
            }
        }
    }
}

extension ContainerScriptTests {
    /// The README's examples of messages: `JSONDecoder`'s words, then HandyStream's location in parentheses.
    @Test func theReadmesMessages() throws {
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        let malformed = errorMessage { try strict.decode([Double].self, from: Data("[1947254449906271.]".utf8)) }
        #expect(
            malformed
                == "The given data was not valid JSON. (1:19: malformed number: a digit must follow the decimal point "
                + "at $[0])")
        #expect(
            errorMessage { try JSONDecoder().decode([Double].self, from: Data("[1947254449906271.]".utf8)) }
                == "The given data was not valid JSON.")
        let tooLarge = errorMessage { try strict.decode(Double.self, from: Data("1e400".utf8)) }
        #expect(
            tooLarge
                == "The given data was not valid JSON. Number 1e400 is not representable in Swift. (line 1, column 6, "
                + "byte 5, at $)")
    }
}
