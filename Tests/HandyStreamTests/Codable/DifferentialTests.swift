import Foundation
import HandyStream
import Testing

// Differential tests against Foundation on this toolchain: seeded random documents, nearly fitting a set of models
// (DifferentialModels.swift), decoded by JSONDecoder, by strict mode and by lenient mode. Strict mode must give
// JSONDecoder's value or JSONDecoder's error (case and coding path); lenient mode must give JSONDecoder's value
// whenever JSONDecoder decodes, and must never trap where it doesn't.

/// A decoding error's case and coding path (a missing key's path includes the key), as compared across decoders.
func errorSummary(_ error: any Error) -> (kind: String, path: [String]) {
    guard let error = error as? DecodingError else { return ("not a DecodingError: \(error)", []) }
    switch error {
    case .typeMismatch(let type, let context): return ("typeMismatch \(type)", context.codingPath.map(\.stringValue))
    case .valueNotFound(let type, let context): return ("valueNotFound \(type)", context.codingPath.map(\.stringValue))
    case .keyNotFound(let key, let context):
        return ("keyNotFound", context.codingPath.map(\.stringValue) + [key.stringValue])
    case .dataCorrupted(let context): return ("dataCorrupted", context.codingPath.map(\.stringValue))
    @unknown default: return ("unknown", [])
    }
}

extension DecodingError {
    /// The context's debug description: the error's message.
    var message: String {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context.debugDescription
        @unknown default: ""
        }
    }
}

/// The message of the error `body` throws (empty when it throws none, or no `DecodingError`).
func errorMessage(_ body: () throws -> Any) -> String {
    do {
        _ = try body()
    } catch let error as DecodingError {
        return error.message
    } catch {}
    return ""
}

/// Whether HandyStream's message `ours` is `JSONDecoder`'s `theirs`: word for word, then in parentheses where the
/// error is in the input (for malformed JSON, what is wrong there; for a number that doesn't fit, which number first).
func sameMessage(_ ours: String, _ theirs: String) -> Bool {
    ours == theirs || ours.hasPrefix(theirs + " (")
        || (ours.hasPrefix(theirs + " Number ") && ours.contains(" is not representable in Swift. (line "))
}

/// A decode's outcome: the value, or the error's case and coding path.
enum DiffOutcome<Value: Equatable>: Equatable, CustomStringConvertible {
    case value(Value)
    case error(String, [String])

    init(_ body: () throws -> Value) {
        do {
            self = .value(try body())
        } catch {
            let (kind, path) = errorSummary(error)
            self = .error(kind, path)
        }
    }

    var isValue: Bool {
        if case .value = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .value(let value): "\(value)"
        case .error(let kind, let path): "\(kind) at \(path)"
        }
    }
}

@Suite struct DifferentialTests {
    static let strict = ModelDecoder(options: DecodingOptions(strict: true))

    /// How many documents each seed writes; `HANDYSTREAM_DIFFERENTIAL_CASES` sets more for a longer run.
    static let casesPerSeed = Int(ProcessInfo.processInfo.environment["HANDYSTREAM_DIFFERENTIAL_CASES"] ?? "") ?? 400

    /// Compares the three decoders on `count` documents of `schema` written from `seed`; returns how many documents
    /// JSONDecoder decoded (so that a run shows it tested both sides).
    @discardableResult
    static func compare<T: Decodable & Equatable>(
        _ type: T.Type, _ schema: Schema, seed: UInt64, mistakeRate: Double, count: Int,
        keyStyle: RandomDocuments.KeyStyle = .plain, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        var documents = RandomDocuments(seed: seed, mistakeRate: mistakeRate, keyStyle: keyStyle)
        let jsonDecoder = JSONDecoder()
        var strictOptions = DecodingOptions(strict: true)
        var lenientOptions = DecodingOptions()
        switch keyStyle {
        case .plain: break
        case .snakeCase:
            jsonDecoder.keyDecodingStrategy = .convertFromSnakeCase
            strictOptions.keyDecodingStrategy = .convertFromSnakeCase
            lenientOptions.keyDecodingStrategy = .convertFromSnakeCase
        case .prefixed:
            jsonDecoder.keyDecodingStrategy = .custom(RandomDocuments.KeyStyle.prefixedKey)
            strictOptions.keyDecodingStrategy = Self.prefixed
            lenientOptions.keyDecodingStrategy = Self.prefixed
        }
        let strictDecoder = ModelDecoder(options: strictOptions)
        let lenientDecoder = ModelDecoder(options: lenientOptions)
        var decoded = 0
        var failures = 0
        for _ in 0..<count {
            let json = documents.document(schema)
            let data = Data(json.utf8)
            let foundation = DiffOutcome { try jsonDecoder.decode(T.self, from: data) }
            let strict = DiffOutcome { try strictDecoder.decode(T.self, from: data) }
            let lenient = DiffOutcome { try lenientDecoder.decode(T.self, from: data) }
            if foundation.isValue { decoded += 1 }
            // The messages too: JSONDecoder's, followed by where the error is in the input (and, for a number that
            // doesn't fit, which number).
            if !foundation.isValue, strict == foundation {
                let theirs = errorMessage { try jsonDecoder.decode(T.self, from: data) }
                let ours = errorMessage { try strictDecoder.decode(T.self, from: data) }
                if !sameMessage(ours, theirs) {
                    failures += 1
                    if failures <= 5 {
                        Issue.record(
                            "strict mode's message: \(ours)\nJSONDecoder's: \(theirs)\ndocument: \(json)",
                            sourceLocation: sourceLocation)
                    }
                }
            }
            if strict != foundation {
                failures += 1
                if failures <= 5 {
                    Issue.record(
                        "strict mode: \(strict)\nJSONDecoder: \(foundation)\ndocument: \(json)",
                        sourceLocation: sourceLocation)
                }
            }
            if foundation.isValue && lenient != foundation {
                failures += 1
                if failures <= 5 {
                    let message =
                        "lenient mode changed a value JSONDecoder decodes: \(lenient)\n"
                        + "JSONDecoder: \(foundation)\ndocument: \(json)"
                    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
                }
            }
        }
        return decoded
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomDocumentsOfTheWholeModel(seed: UInt64) {
        // Few mistakes, so that JSONDecoder decodes many; many, so that errors and rescues are exercised.
        let decoded = Self.compare(DiffRoot.self, .root, seed: seed, mistakeRate: 0.01, count: Self.casesPerSeed)
        #expect(decoded > Self.casesPerSeed / 10)
        Self.compare(DiffRoot.self, .root, seed: seed &+ 100, mistakeRate: 0.08, count: Self.casesPerSeed)
    }

    /// One custom strategy, made once (its field tables are cached per strategy).
    static let prefixed = KeyDecodingStrategy.custom(RandomDocuments.KeyStyle.prefixedKey)

    /// Keys written for a key strategy: in snake case, and as `<path length>.<key>` for a custom strategy that
    /// checks the coding path it is given; the three decoders under the same strategy.
    @Test(arguments: [31, 32] as [UInt64])
    func randomDocumentsUnderKeyStrategies(seed: UInt64) {
        for style in [RandomDocuments.KeyStyle.snakeCase, .prefixed] {
            let count = Self.casesPerSeed / 2
            let decoded = Self.compare(
                DiffRoot.self, .root, seed: seed, mistakeRate: 0.01, count: count, keyStyle: style)
            #expect(decoded > count / 10, "\(style)")
            Self.compare(DiffManual.self, .manual, seed: seed, mistakeRate: 0.1, count: count, keyStyle: style)
            Self.compare(
                [String: Int].self, .dictionary(.int), seed: seed, mistakeRate: 0.1, count: count, keyStyle: style)
        }
    }

    @Test(arguments: [11, 12] as [UInt64])
    func randomDocumentsOfEachPart(seed: UInt64) {
        let count = Self.casesPerSeed
        #expect(Self.compare(DiffTagged.self, .tagged, seed: seed, mistakeRate: 0.03, count: count) > 0)
        #expect(Self.compare(DiffWrapped.self, .wrapped, seed: seed, mistakeRate: 0.1, count: count) > 0)
        #expect(Self.compare(DiffDerived.self, .derived, seed: seed, mistakeRate: 0.1, count: count) > 0)
        #expect(Self.compare(DiffSuper.self, .viaSuper, seed: seed, mistakeRate: 0.1, count: count) > 0)
        #expect(Self.compare(DiffManual.self, .manual, seed: seed, mistakeRate: 0.1, count: count) > 0)
        #expect(Self.compare(TryingLoop.self, .loop, seed: seed, mistakeRate: 0.15, count: count) > 0)
        #expect(Self.compare([DiffPoint].self, .array(.point), seed: seed, mistakeRate: 0.05, count: count) > 0)
        #expect(Self.compare([String: Int].self, .dictionary(.int), seed: seed, mistakeRate: 0.1, count: count) > 0)
        #expect(Self.compare([Int: String].self, .intKeyed(.string), seed: seed, mistakeRate: 0.1, count: count) > 0)
        #expect(Self.compare(Set<Int>.self, .set(.int), seed: seed, mistakeRate: 0.1, count: count) > 0)
        #expect(Self.compare([DiffShape].self, .array(.shape), seed: seed, mistakeRate: 0.05, count: count) > 0)
        #expect(Self.compare(Int?.self, .optional(.int), seed: seed, mistakeRate: 0.2, count: count) > 0)
        #expect(Self.compare(Double.self, .double, seed: seed, mistakeRate: 0.2, count: count) > 0)
        #expect(Self.compare(Bool.self, .bool, seed: seed, mistakeRate: 0.3, count: count) > 0)
        #expect(Self.compare([Bool].self, .array(.bool), seed: seed, mistakeRate: 0.1, count: count) > 0)
    }

    /// Strings of every kind and length (ASCII, accented, CJK, emoji, escapes, a decomposed é), short enough to be
    /// stored inline and longer, as values and as keys: the three decoders give the same bytes, and a string is known
    /// to be ASCII exactly when `JSONDecoder`'s is (HandyStream makes them without a second validation).
    @Test func stringsOfEveryKindAndLength() throws {
        struct Texts: Codable, Equatable {
            var values: [String]
            var byKey: [String: String]
        }
        let pieces = [
            "a", "plain ascii ", "é", "e\\u0301", "日本語", "😀", "\\n", "\\\"", "\\u00e9", "\\ud83d\\ude00", "/",
            "0123456789",
        ]
        var generator = SplitMix64(seed: 41)
        for _ in 0..<300 {
            let texts = (0..<6).map { _ in
                (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                    .joined()
            }
            let values = texts.map { "\"\($0)\"" }.joined(separator: ",")
            let members = texts.enumerated().map { "\"\($1)\($0)\": \"\($1)\"" }.joined(separator: ",")
            let data = Data("{\"values\": [\(values)], \"byKey\": {\(members)}}".utf8)
            let foundation = try JSONDecoder().decode(Texts.self, from: data)
            for decoder in [ModelDecoder(), Self.strict] {
                let ours = try decoder.decode(Texts.self, from: data)
                #expect(ours.values.map { Array($0.utf8) } == foundation.values.map { Array($0.utf8) })
                let asciiFlags = { (texts: Texts) in texts.values.map { $0.utf8Span.isKnownASCII } }
                #expect(asciiFlags(ours) == asciiFlags(foundation))
                let ourKeys = ours.byKey.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                let theirKeys = foundation.byKey.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                #expect(ourKeys == theirKeys)
                #expect(ours == foundation)
            }
        }
    }
}
