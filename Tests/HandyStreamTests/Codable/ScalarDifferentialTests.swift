import Foundation
import HandyStream
import Testing

// Differential tests against JSONDecoder on this toolchain, one scalar at a time: seeded random number texts of every
// shape (long, signed, with exponents far past any type's range) decoded as every numeric type, `Decimal` and `Date`,
// and seeded random strings decoded under each date, data and non-conforming float strategy. Strict mode must give
// JSONDecoder's value or its error; lenient mode must give its value whenever it decodes.

/// A value compared by its bits where `==` is not enough: `-0.0` against `0.0`, NaN against NaN, a `Date`'s interval.
struct Bits<Value>: Equatable, CustomStringConvertible {
    let value: Value
    let key: [UInt64]

    var description: String { "\(value)" }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }
}

/// `Decimal`'s `==` says 1.0 and 1.00 are equal; its description shows what was kept.
struct ExactDecimal: Decodable, Equatable, CustomStringConvertible {
    let value: Decimal
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Decimal.self) }
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value && lhs.description == rhs.description }
    var description: String { "\(value)" }
}

@Suite struct ScalarDifferentialTests {
    /// Random number texts: valid JSON numbers of every shape the readers treat differently, and a few that are not
    /// JSON at all (a leading zero, a lone point, a plus sign).
    static func numberTexts(seed: UInt64, count: Int) -> [String] {
        var generator = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &generator) }
        func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(below(10))) }) }
        var texts = [
            "0", "-0", "0.0", "-0.0", "1e0", "0e-5", "1E+2", "255", "256", "-128", "-129", "65535", "65536",
            "2147483647", "2147483648", "-2147483649", "4294967296", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
            "1e308", "1.7976931348623157e308", "1.7976931348623159e308", "1e309", "4.9e-324", "2e-324", "1e-400",
            "3.4028235e38", "3.4028236e38", "3.5e38", "1.4e-45", "1e-46", "123456789012345678901234567890",
            "0.1", "0.30000000000000004", "1.0", "1.00", "100e-2", "1e2", "1.5e1", "12.5e-1",
        ]
        for _ in 0..<count {
            var text = below(3) == 0 ? "-" : ""
            switch below(10) {
            case 0: text += "0"
            case 1: text += "0" + digits(1 + below(3))  // not JSON: a leading zero
            default: text += String(1 + below(9)) + digits(below([3, 8, 20, 40][below(4)]))
            }
            if below(2) == 0 { text += "." + digits(below(12) == 0 ? 0 : 1 + below([3, 10, 30][below(3)])) }
            if below(3) == 0 {
                text += ["e", "E"][below(2)] + ["", "+", "-"][below(3)]
                text += String([below(3), below(40), below(400)][below(3)])
            }
            if below(40) == 0 { text = "+" + text }  // not JSON
            texts.append(text)
        }
        return texts
    }

    /// Strings for the string strategies: the ones each strategy reads, near misses, and noise.
    static func stringTexts(seed: UInt64, count: Int) -> [String] {
        var generator = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &generator) }
        func two(_ bound: Int) -> String { String(format: "%02d", below(bound)) }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ :.%é\t")
        var texts = ["", "inf", "-inf", "nan", "Infinity", "NaN", "1.5", " inf", "http://x/y", "a b", "//", "?q=1"]
        for _ in 0..<count {
            switch below(6) {
            case 5:  // a UUID, in either case, or nearly one
                var text = UUID().uuidString
                if below(2) == 0 { text = text.lowercased() }
                if below(3) == 0 { text.removeLast(below(3)) }
                texts.append(text)
            case 0:  // an ISO 8601 date, or nearly one
                var date = "\(1900 + below(200))-\(two(14))-\(two(33))T\(two(25)):\(two(61)):\(two(61))"
                if below(3) == 0 { date += "." + String(below(1000)) }
                date += ["Z", "+01:00", "-0530", "", "z", "+1"][below(6)]
                texts.append(date)
            case 1:  // base64 of random bytes, sometimes damaged
                let bytes = (0..<below(12)).map { _ in UInt8(below(256)) }
                var text = Data(bytes).base64EncodedString()
                if below(3) == 0, !text.isEmpty {
                    let index = text.index(text.startIndex, offsetBy: below(text.count))
                    text.replaceSubrange(index...index, with: String(alphabet[below(alphabet.count)]))
                }
                if below(6) == 0 { text = String(text.filter { $0 != "=" }) }
                texts.append(text)
            case 2:  // the non-conforming names and their cousins
                texts.append(["inf", "-inf", "nan", "Inf", "INF", "-nan", "+inf", "inf ", "infinity"][below(9)])
            case 3:  // a URL, or text that is not one
                texts.append(
                    ["https://", "http://", "", "file:///", "mailto:"][below(5)]
                        + String((0..<below(12)).map { _ in alphabet[below(alphabet.count)] }))
            default:
                texts.append(String((0..<below(8)).map { _ in alphabet[below(alphabet.count)] }))
            }
        }
        return texts
    }

    /// JSON for a string: quotes and the escapes JSON requires.
    static func quoted(_ text: String) -> String {
        var json = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\t": json += "\\t"
            default: json.unicodeScalars.append(scalar)
            }
        }
        return json + "\""
    }

    /// Whether `text` is a JSON number (RFC 8259's grammar).
    static func isJSONNumber(_ text: String) -> Bool {
        text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil
    }

    /// The differences the README keeps on purpose, each only where it applies:
    /// - a number that is not JSON (`00`, `-49.`, `+1`): JSONDecoder checks a number's syntax only when it reads it
    ///   as a number (as a string it is a type mismatch); HandyStream refuses the document.
    /// - a zero written with an exponent (`0e1`, `-0.0E-1`): JSONDecoder refuses some of them as "not valid JSON"
    ///   (`isTrueZero` reads the last one to three bytes backwards, from the exponent's digits); HandyStream reads 0.
    static func knownDifference<Value>(_ text: String, _ ours: DiffOutcome<Value>, _ foundation: DiffOutcome<Value>)
        -> Bool
    {
        if !isJSONNumber(text) { return ours == .error("dataCorrupted", []) }
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        if mantissa.count < text.count, mantissa.allSatisfy({ "-0.".contains($0) }) {
            return ours.isValue && foundation == .error("dataCorrupted", [])
        }
        return false
    }

    /// Decodes each JSON text in an array of one element as `T` (keyed by `key`) with JSONDecoder and the two modes;
    /// returns how many JSONDecoder decoded.
    @discardableResult
    static func same<T: Decodable, Key: Equatable>(
        _: T.Type, _ jsonTexts: [String], foundation: JSONDecoder, options: DecodingOptions = DecodingOptions(),
        key: (T) -> Key, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        var strictOptions = options
        strictOptions.strict = true
        let strict = ModelDecoder(options: strictOptions)
        let lenient = ModelDecoder(options: options)
        var decoded = 0
        var failures = 0
        for text in jsonTexts {
            let json = Data("[\(text)]".utf8)
            let expected = DiffOutcome { try foundation.decode([T].self, from: json).map(key) }
            let ours = DiffOutcome { try strict.decode([T].self, from: json).map(key) }
            var mismatch = ours == expected || knownDifference(text, ours, expected) ? nil : "strict: \(ours)"
            if ours == expected && !expected.isValue {
                let theirs = errorMessage { try foundation.decode([T].self, from: json) }
                let message = errorMessage { try strict.decode([T].self, from: json) }
                if !sameMessage(message, theirs) { mismatch = "strict mode's message: \(message) / \(theirs)" }
            }
            if expected.isValue {
                decoded += 1
                let rescued = DiffOutcome { try lenient.decode([T].self, from: json).map(key) }
                if rescued != expected { mismatch = (mismatch.map { $0 + ", " } ?? "") + "lenient: \(rescued)" }
            }
            if let mismatch {
                failures += 1
                if failures <= 8 {
                    Issue.record(
                        "\(text) as \(T.self): \(mismatch), JSONDecoder: \(expected)", sourceLocation: sourceLocation)
                }
            }
        }
        return decoded
    }

    /// ``same(_:_:foundation:options:key:sourceLocation:)`` for `Date` under each strategy, which must decode some.
    static func sameDates(
        _ texts: [String], _ strategies: [(JSONDecoder.DateDecodingStrategy, String)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (strategy, name) in strategies {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = strategy
            let decoded = same(
                Date.self, texts, foundation: decoder, options: DecodingOptions(dateDecodingStrategy: strategy),
                key: { Bits(value: $0, key: [$0.timeIntervalSinceReferenceDate.bitPattern]) },
                sourceLocation: sourceLocation)
            #expect(decoded > 0, "\(name)", sourceLocation: sourceLocation)
        }
    }

    static let numberCases = Int(ProcessInfo.processInfo.environment["HANDYSTREAM_DIFFERENTIAL_CASES"] ?? "") ?? 400

    @Test(arguments: [41, 42] as [UInt64])
    func numbersAsEveryNumericType(seed: UInt64) {
        let texts = Self.numberTexts(seed: seed, count: Self.numberCases)
        let decoder = JSONDecoder()
        func integers<T: FixedWidthInteger & Decodable>(_ type: T.Type) {
            #expect(Self.same(type, texts, foundation: decoder, key: { $0 }) > 0, "\(type)")
        }
        integers(Int.self)
        integers(Int8.self)
        integers(Int16.self)
        integers(Int32.self)
        integers(Int64.self)
        integers(UInt.self)
        integers(UInt8.self)
        integers(UInt16.self)
        integers(UInt32.self)
        integers(UInt64.self)
        integers(Int128.self)
        integers(UInt128.self)
        #expect(
            Self.same(Float16.self, texts, foundation: decoder, key: { Bits(value: $0, key: [UInt64($0.bitPattern)]) })
                > 0)
        #expect(Self.same(Double.self, texts, foundation: decoder, key: { Bits(value: $0, key: [$0.bitPattern]) }) > 0)
        #expect(
            Self.same(Float.self, texts, foundation: decoder, key: { Bits(value: $0, key: [UInt64($0.bitPattern)]) })
                > 0)
        #expect(Self.same(ExactDecimal.self, texts, foundation: decoder, key: { $0 }) > 0)
        #expect(Self.same(Double?.self, texts, foundation: decoder, key: { $0.map { $0.bitPattern } }) > 0)
    }

    @Test(arguments: [43] as [UInt64])
    func numbersAsDates(seed: UInt64) {
        let texts = Self.numberTexts(seed: seed, count: Self.numberCases)
        let strategies: [(JSONDecoder.DateDecodingStrategy, String)] = [
            (.deferredToDate, "deferred"), (.secondsSince1970, "seconds"), (.millisecondsSince1970, "milliseconds"),
        ]
        Self.sameDates(texts, strategies)
    }

    @Test(arguments: [44, 45] as [UInt64])
    func stringsUnderEachStrategy(seed: UInt64) {
        let strings = Self.stringTexts(seed: seed, count: Self.numberCases)
        let texts = strings.map(Self.quoted) + Self.numberTexts(seed: seed, count: 20) + ["null", "true", "[]", "{}"]

        let floats = JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let floatDecoder = JSONDecoder()
        floatDecoder.nonConformingFloatDecodingStrategy = floats
        let floatOptions = DecodingOptions(nonConformingFloatDecodingStrategy: floats)
        #expect(
            Self.same(
                Double.self, texts, foundation: floatDecoder, options: floatOptions,
                key: { Bits(value: $0, key: [$0.isNaN ? 1 : $0.bitPattern]) }) > 0)
        #expect(
            Self.same(
                Float.self, texts, foundation: floatDecoder, options: floatOptions,
                key: { Bits(value: $0, key: [$0.isNaN ? 1 : UInt64($0.bitPattern)]) }) > 0)

        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssZ"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let dates: [(JSONDecoder.DateDecodingStrategy, String)] = [
            (.iso8601, "iso8601"), (.formatted(formatter), "formatted"),
            (
                .custom { decoder in
                    // Never asked about `null`: JSONDecoder refuses it first.
                    if try decoder.singleValueContainer().decodeNil() { return .distantPast }
                    let text = try decoder.singleValueContainer().decode(String.self)
                    guard let seconds = Double(text.prefix(4)) else {
                        throw DecodingError.dataCorrupted(
                            .init(codingPath: decoder.codingPath, debugDescription: "no year"))
                    }
                    return Date(timeIntervalSince1970: seconds)
                }, "custom"
            ),
        ]
        Self.sameDates(texts, dates)

        let datas: [JSONDecoder.DataDecodingStrategy] = [
            .base64,
            .custom { decoder in
                if try decoder.singleValueContainer().decodeNil() { return Data([0]) }
                return Data(try decoder.singleValueContainer().decode(String.self).utf8.reversed())
            },
        ]
        for strategy in datas {
            let decoder = JSONDecoder()
            decoder.dataDecodingStrategy = strategy
            let decoded = Self.same(
                Data.self, texts, foundation: decoder, options: DecodingOptions(dataDecodingStrategy: strategy),
                key: { $0 })
            #expect(decoded > 0)
        }
        #expect(Self.same(URL.self, texts, foundation: JSONDecoder(), key: { $0 }) > 0)
        #expect(Self.same(UUID.self, texts, foundation: JSONDecoder(), key: { $0 }) > 0)
    }

    /// `Data` under `.deferredToData` is an array of bytes: arrays of random numbers, in range or not.
    @Test func bytesUnderDeferredToData() {
        var generator = SplitMix64(seed: 46)
        let numbers = Self.numberTexts(seed: 46, count: 200)
        var texts: [String] = []
        for _ in 0..<Self.numberCases {
            let count = Int.random(in: 0..<6, using: &generator)
            let elements = (0..<count).map { _ in
                Int.random(in: 0..<4, using: &generator) == 0
                    ? numbers.randomElement(using: &generator)! : String(Int.random(in: 0..<256, using: &generator))
            }
            texts.append("[" + elements.joined(separator: ",") + "]")
        }
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .deferredToData
        #expect(
            Self.same(
                Data.self, texts, foundation: decoder, options: DecodingOptions(dataDecodingStrategy: .deferredToData),
                key: { $0 }) > 0)
    }
}

/// Dates in every place a decoder reads them from: a member, an array's element, a dictionary's member, an optional
/// (read by `decodeIfPresent` and by `decode(Date?.self)`), a nested container, a single value container, a
/// `superDecoder`.
struct DatesEverywhere: Decodable, Equatable {
    var member: Date
    var list: [Date]
    var byKey: [String: Date]
    var maybe: Date?
    var explicit: Date?
    var maybes: [Date?]
    var nested: Date
    var wrapped: Date
    var inherited: Date

    enum Keys: String, CodingKey { case member, list, byKey, maybe, explicit, maybes, box, wrapped, parent }
    enum BoxKeys: String, CodingKey { case inner }

    struct Wrapped: Decodable {
        var date: Date
        init(from decoder: any Decoder) throws { date = try decoder.singleValueContainer().decode(Date.self) }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        member = try container.decode(Date.self, forKey: .member)
        list = try container.decode([Date].self, forKey: .list)
        byKey = try container.decode([String: Date].self, forKey: .byKey)
        maybe = try container.decodeIfPresent(Date.self, forKey: .maybe)
        explicit = try container.decode(Date?.self, forKey: .explicit)
        maybes = try container.decode([Date?].self, forKey: .maybes)
        nested = try container.nestedContainer(keyedBy: BoxKeys.self, forKey: .box).decode(Date.self, forKey: .inner)
        wrapped = try container.decode(Wrapped.self, forKey: .wrapped).date
        inherited = try container.superDecoder(forKey: .parent).singleValueContainer().decode(Date.self)
    }
}

extension ScalarDifferentialTests {
    /// `JSONDecoder` reports a malformed ISO 8601 date at its decoder's path (the value whose `init(from:)` reads
    /// it), not at the date's: strict mode reports each at the same path, under the default key strategy and under
    /// snake case (where `JSONDecoder` reads a `[String: Date]` without its `init(from:)`).
    @Test(arguments: ["member", "list", "byKey", "maybe", "explicit", "maybes", "box", "wrapped", "parent"])
    func malformedISO8601DatesAtJSONDecodersPaths(place: String) throws {
        let good = "\"2026-11-25T10:00:00Z\""
        var members = [
            "member": good, "list": "[\(good)]", "byKey": "{\"a\": \(good)}", "maybe": good, "explicit": good,
            "maybes": "[null, \(good)]", "box": "{\"inner\": \(good)}", "wrapped": good, "parent": good,
        ]
        members[place] = members[place]!.replacingOccurrences(of: good, with: "\"yesterday\"")
        let json =
            "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
            + "}"
        let wide = "{\"outer\": [\(json)]}"
        struct Outer: Decodable, Equatable { var outer: [DatesEverywhere] }
        for strategy in [KeyDecodingStrategy.useDefaultKeys, .convertFromSnakeCase] {
            let foundation = JSONDecoder()
            foundation.dateDecodingStrategy = .iso8601
            if strategy == .convertFromSnakeCase { foundation.keyDecodingStrategy = .convertFromSnakeCase }
            let ours = ModelDecoder(
                options: DecodingOptions(strict: true, keyDecodingStrategy: strategy, dateDecodingStrategy: .iso8601))
            let expected = DiffOutcome { try foundation.decode(Outer.self, from: Data(wide.utf8)) }
            guard case .error(let kind, let path) = expected else {
                Issue.record("JSONDecoder decoded \(wide)")
                continue
            }
            #expect(kind == "dataCorrupted")
            #expect(DiffOutcome { try ours.decode(Outer.self, from: wide) } == expected, "\(place), \(strategy)")
            // The good document decodes to the same value.
            let fine = "{\"outer\": [" + json.replacingOccurrences(of: "\"yesterday\"", with: good) + "]}"
            let decoded = DiffOutcome { try foundation.decode(Outer.self, from: Data(fine.utf8)) }
            #expect(decoded.isValue)
            #expect(DiffOutcome { try ours.decode(Outer.self, from: fine) } == decoded)
            // The path is the decoder's: never longer than the date's own.
            #expect(path.count >= 2 && path.count <= 5, "\(path)")
        }
    }

    /// A number past `Decimal`'s range is `dataCorrupted` at the empty path ("not valid JSON", as `JSONDecoder`
    /// reports every number that doesn't fit), not a type mismatch.
    @Test func decimalsPastTheirRange() throws {
        struct Price: Decodable { var amounts: [String: Decimal] }
        for text in ["1e128", "-1e200", "1e-129", "0e300", "9.5e130"] {
            let json = "{\"amounts\": {\"a\": \(text)}}"
            let expected = DiffOutcome { try JSONDecoder().decode(Price.self, from: Data(json.utf8)).amounts.count }
            #expect(expected == .error("dataCorrupted", []), "\(text)")
            let ours = DiffOutcome {
                try ScalarDifferentialTests.strictDecoder.decode(Price.self, from: json).amounts.count
            }
            #expect(ours == expected, "\(text)")
        }
    }

    static let strictDecoder = ModelDecoder(options: DecodingOptions(strict: true))
}

enum DiffLevel: Int, Codable, Equatable { case low = 1, high = 2 }

extension ScalarDifferentialTests {
    /// The standard library's and Foundation's composite `Decodable` types, each on every text of a pool of small
    /// documents (the shapes they take and the ones they refuse): values, or errors with their case, type and path.
    @Test func standardCompositeTypes() {
        let pool = [
            "null", "1", "-129", "2.5", "\"a\"", "\"1\"", "true", "[]", "{}", "[1,2]", "[2,1]", "[1,1]", "[null]",
            "[1,null]", "[null,null]", "[[1]]", "[1,2,3]", "[\"a\",1]", "[true,1,false,2]", "[1,\"a\",2,\"b\"]",
            "[1.5,1]", "{\"1\":\"a\"}", "{\"x\":1}", "{\"-129\":1}", "{\"1\":null}", "{\"01\":1}", "{\"1\":1,\"2\":2}",
            "{\"a\":[1,null]}", "{\"a\":null}", "[1, 2.0, 3e0]", "{\"lowerBound\":1,\"upperBound\":2}",
        ]
        let decoder = JSONDecoder()
        func check<T: Decodable & Equatable>(_ type: T.Type) {
            var decoded = 0
            for text in pool {
                let json = Data(text.utf8)
                let expected = DiffOutcome { try decoder.decode(T.self, from: json) }
                let ours = DiffOutcome { try ScalarDifferentialTests.strictDecoder.decode(T.self, from: json) }
                #expect(
                    ours == expected || Self.sameButForMember(ours, expected, in: text), "\(text) as \(T.self)")
                if expected.isValue {
                    decoded += 1
                    #expect(DiffOutcome { try ModelDecoder().decode(T.self, from: json) } == expected, "lenient")
                }
            }
            #expect(decoded > 0, "\(T.self)")
        }
        check(Int??.self)
        check([Int?].self)
        check([Int??].self)
        check(Range<Int>.self)
        check(ClosedRange<Int>.self)
        check([Int: String].self)
        check([Int8: Int].self)
        check([Bool: Int].self)
        check([Double: Int].self)
        check(Set<Int>.self)
        check(ContiguousArray<Int>.self)
        check([String: [Int?]].self)
        check([String: Int?].self)
        check(DiffLevel.self)
        check([DiffLevel].self)
        check(CGFloat.self)
        check([Int].self)
        check([Bool].self)
        check(Bool?.self)
        check([String: Bool].self)
    }

    /// A keyed container of `JSONDecoder` holds an object's members in a `Dictionary`, which Swift seeds per process:
    /// when several members fail, which one it reports changes from run to run (`{"1":1,"2":2}` as `[Int: String]`
    /// names `"1"` in one run and `"2"` in another). Our error names the first in document order; this accepts it when
    /// the two errors differ only in the member named, and that member is one of the object's.
    static func sameButForMember<T>(_ ours: DiffOutcome<T>, _ expected: DiffOutcome<T>, in text: String) -> Bool {
        guard case .error(let kind, let path) = ours, case .error(let expectedKind, let expectedPath) = expected,
            kind == expectedKind, path.count == 1, expectedPath.count == 1,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return false }
        return object.keys.contains(path[0]) && object.keys.contains(expectedPath[0])
    }
}
