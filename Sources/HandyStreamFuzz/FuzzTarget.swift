import Foundation
import HandyJSON
import HandyStream

// The fuzz target: arbitrary bytes decoded into a model with every property kind, into plain Codable types (where
// JSONDecoder decodes, strict and lenient mode must give its value), and into a Codable type with a
// mapping, defaults and nested Codable, optional and container values (lenient and strict, against JSONDecoder's
// verdict), whole and in random chunks, with and without a designated path, as elements and as untyped values; what
// decodes is written back and decoded again. Built with `-sanitize=fuzzer,address -DFUZZING` (`make fuzz`), libFuzzer drives `LLVMFuzzerTestOneInput`;
// built normally, the executable replays files given as arguments through the same function.

struct FuzzModel: HandyJSON {
    enum Kind: String, HandyJSONEnum { case a, b }

    var int = 0
    var int8: Int8 = 0
    var uint64: UInt64 = 0
    var double = 0.0
    var float: Float = 0
    var bool = false
    var string = ""
    var decimal: Decimal = 0
    var number: NSNumber = 0
    var optional: Int?
    var kind: Kind?
    var list: [Int] = []
    var optionals: [String?] = []
    var set: Set<String> = []
    var map: [String: Double] = [:]
    var nested: [FuzzChild] = []
    var child: FuzzChild?
    var any: Any?
    var anyList: [Any] = []
    var value: JSONValue?
    var renamed = ""
    var deep = 0
    var date: Date?
    var serialized = ""
    var taken = 0
    var across = ""
    var pair: (Int, Int) = (0, 0)

    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.renamed <-- ["r", "renamed"]
        mapper <<< self.deep <-- "a.b.c"
        mapper <<< self.date <-- DateTransform()
        // A plain key, then a nested key path; a candidate another property already reads; candidates on three
        // levels, the last with a transform.
        mapper <<< self.serialized <-- ["serializeKey", "x.y"]
        mapper <<< self.taken <-- ["int", "taken"]
        mapper <<< self.across <-- ["x.z.w", "across", "x.v"]
        mapper <<< self.pair <-- (
            ["pair", "x.pair"],
            TransformOf<(Int, Int), [Int]>(
                fromJSON: { list in list.flatMap { $0.count == 2 ? ($0[0], $0[1]) : nil } },
                toJSON: { pair in pair.map { [$0.0, $0.1] } })
        )
    }
}

final class FuzzChild: HandyJSON {
    var name = ""
    var children: [FuzzChild] = []
    required init() {}
}

/// A Codable type touching every part of the Codable path: synthesized and hand-written `init(from:)`, candidate keys,
/// a nested key path, defaults, enums, dates, optionals, arrays, dictionaries, a HandyJSON model inside.
struct FuzzCodable: Codable, HandyJSON {
    enum Kind: String, Codable, EmptyInitializable {
        case a, b
        init() { self = .a }
    }

    struct Point: Codable {
        var x: Int
        var y: Double?

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            x = try container.decode(Int.self)
            y = container.isAtEnd ? nil : try container.decodeIfPresent(Double.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(x)
            try container.encode(y)
        }
    }

    var int = -1
    var text = ""
    var flag = false
    var kind = Kind.a
    var maybe: Kind?
    var when: Date?
    var points: [Point] = []
    var optionals: [Int?] = []
    var map: [String: [UInt8]] = [:]
    var child: [FuzzCodable]?
    var model: FuzzModelInCodable?
    var deep = 0

    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< text <-- ["text", "t", "x.t"]
        mapper <<< deep <-- "a.b.c"
    }
}

struct FuzzModelInCodable: HandyJSON, Codable {
    var name = ""
    var list: [Int] = []
}

/// Plain Codable types, no mapping: lenient and strict mode must give JSONDecoder's value whenever it decodes.
struct FuzzPlain: Decodable, Equatable {
    enum Shape: Codable, Equatable {
        case circle(r: Double)
        case square(side: Int)
    }

    /// A hand-written `init(from:)` that decides for itself what to do with what it can't read.
    struct Loose: Decodable, Equatable {
        var xs: [Int] = []
        var maybe: Int?
        enum CodingKeys: CodingKey { case xs, maybe }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            maybe = try? container.decode(Int.self, forKey: .maybe)
            if var elements = try? container.nestedUnkeyedContainer(forKey: .xs) {
                while !elements.isAtEnd {
                    if let value = try? elements.decode(Int.self) {
                        xs.append(value)
                    } else if (try? elements.decode(String.self)) == nil, (try? elements.decodeNil()) != true {
                        break
                    }
                }
            }
        }
    }

    var a: Int
    var b: String?
    var c: [Double]
    var d: [String: Int]?
    var e: Set<Int>?
    var f: UInt8?
    var shape: Shape?
    var loose: Loose?
    var nested: [FuzzPlain]?
}

enum Fuzz {
    static func run(_ input: UnsafeRawBufferPointer) {
        let bytes = Array(input)
        // The lenient rule: where JSONDecoder decodes, strict and lenient mode give its value (with trailing commas
        // allowed, as JSONDecoder allows them; HandyStream refuses them by default, on purpose).
        if let foundation = try? JSONDecoder().decode(FuzzPlain.self, from: Data(bytes)), !foundationIsLaxer(bytes) {
            var strictOptions = DecodingOptions(strict: true)
            strictOptions.allowsTrailingCommas = true
            var lenientOptions = DecodingOptions()
            lenientOptions.allowsTrailingCommas = true
            let strictValue = try? ModelDecoder(options: strictOptions).decode(FuzzPlain.self, from: bytes)
            let lenientValue = try? ModelDecoder(options: lenientOptions).decode(FuzzPlain.self, from: bytes)
            if strictValue != foundation || lenientValue != foundation {
                fatalError("not JSONDecoder's value: \(String(decoding: bytes, as: UTF8.self))")
            }
            // JSON is JSON5: the JSON5 stage must leave every JSON document's value as it is.
            var json5Options = DecodingOptions(strict: true)
            json5Options.allowsJSON5 = true
            if (try? ModelDecoder(options: json5Options).decode(FuzzPlain.self, from: bytes)) != foundation {
                fatalError("JSON read differently as JSON5: \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        // JSON5 where JSONDecoder reads it (its checks of numbers and escapes wait until a value is decoded; the
        // JSON5 stage checks them all, so it may refuse more): what HandyStream reads, JSONDecoder reads alike.
        if bytes.count < 4096 {
            var json5Options = DecodingOptions(strict: true)
            json5Options.allowsJSON5 = true
            let json5Decoder = JSONDecoder()
            json5Decoder.allowsJSON5 = true
            if let value = try? ModelDecoder(options: json5Options).decode(FuzzPlain.self, from: bytes),
                let foundation = try? json5Decoder.decode(FuzzPlain.self, from: Data(bytes)), value != foundation,
                !bytes.contains(UInt8(ascii: "\\"))
            {
                fatalError("not JSONDecoder's JSON5 value: \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        let lenient = ModelDecoder()
        let strict = ModelDecoder(options: DecodingOptions(strict: true, maximumDepth: 64))
        if let model = try? lenient.decode(FuzzModel.self, from: bytes) {
            // What decodes must write, and read back.
            if let text = try? ModelEncoder(options: EncodingOptions(nonFiniteNumbers: .null)).encode(model) {
                _ = try! lenient.decode(FuzzModel.self, from: text)
            }
        }
        _ = try? strict.decode(FuzzModel.self, from: bytes)
        // Codable: lenient, and strict, which must agree with JSONDecoder on whether the value decodes (malformed
        // input aside: both refuse it, for their own reasons); what decodes is written and read back.
        if let value = try? lenient.decode(FuzzCodable.self, from: bytes),
            let text = try? ModelEncoder(options: EncodingOptions(nonFiniteNumbers: .null)).encode(value)
        {
            _ = try! lenient.decode(FuzzCodable.self, from: text)
        }
        var strictCommas = DecodingOptions(strict: true)
        strictCommas.allowsTrailingCommas = true
        let strictCodable = try? ModelDecoder(options: strictCommas).decode(FuzzCodable.self, from: bytes)
        let foundation = try? JSONDecoder().decode(FuzzCodable.self, from: Data(bytes))
        if foundation != nil && strictCodable == nil && bytes.count < 4096 && !foundationIsLaxer(bytes) {
            fatalError("JSONDecoder decoded what strict mode refused: \(String(decoding: bytes, as: UTF8.self))")
        }
        _ = try? lenient.decode([FuzzCodable].self, from: bytes, at: "data[*]")
        _ = try? lenient.decode(FuzzModel.self, from: bytes, at: "data.item")
        _ = try? lenient.decode([FuzzModel].self, from: bytes, at: "list[1]")
        // Wildcards: collected, and streamed in random chunks below.
        _ = try? lenient.decode([JSONValue].self, from: bytes, at: "[*].*[*]")
        _ = try? lenient.decode([FuzzModel].self, from: bytes, at: "data[*].items[*]")
        _ = try? lenient.decode(Any.self, from: bytes)
        _ = try? lenient.decode(JSONText.self, from: bytes, at: "a").string
        _ = FuzzModel.deserialize(from: String(decoding: bytes, as: UTF8.self))
        // Random chunk splits, chosen by the input's first byte.
        let step = Int(bytes.first ?? 1) % 13 + 1
        /// Feeds `bytes` in chunks of `step` until one is refused; whether all were taken.
        func fedInChunks(_ feed: ([UInt8]) throws -> Void) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + step)
                guard (try? feed(Array(bytes[offset..<end]))) != nil else { return false }
                offset = end
            }
            return true
        }
        if let decoder = try? lenient.incremental(FuzzModel.self), fedInChunks({ _ = try decoder.feed($0) }) {
            _ = try? decoder.finish()
        }
        // Streamed in the same chunks (each scanned for the kinds of byte the tokenizer checks), an untyped value
        // decodes exactly when the whole document does, to the same value.
        let whole = try? lenient.decode(JSONValue.self, from: bytes)
        if let decoder = try? lenient.incremental(JSONValue.self) {
            let streamed = fedInChunks({ _ = try decoder.feed($0) }) ? try? decoder.finish() : nil
            if streamed != whole {
                fatalError(
                    "streamed in chunks of \(step), not the whole document's value: "
                        + "\(String(describing: streamed)) against \(String(describing: whole))")
            }
        }
        checkQueries(on: whole, bytes: bytes, fedInChunks: fedInChunks)
        if let matches = try? lenient.elements(of: JSONValue.self, at: "*[*].a") {
            _ = fedInChunks({ _ = try matches.feed($0) })
            _ = try? matches.finish()
        }
        if let elements = try? lenient.elements(of: FuzzModel.self, at: "[*]") {
            _ = try? elements.feed(bytes)
            _ = try? elements.finish()
        }
        if let lines = try? lenient.elements(of: JSONValue.self) {
            _ = try? lines.feed(bytes)
            _ = try? lines.finish()
        }
        // Top-level values; a large array's elements, split by their structure.
        for path in ["", "[*]", "data[*]", "$.data[*]..a"] { checkParallelLines(bytes, at: path, spanSize: step) }
    }
}

/// JSON Lines, or an array's elements, on two threads, in spans of `spanSize` bytes: the values one reading gives when
/// it succeeds, and its error when it fails.
private func checkParallelLines(_ bytes: [UInt8], at path: String, spanSize: Int) {
    func read(_ body: ((JSONValue) -> Void) throws -> Void) -> (values: [JSONValue], error: String?) {
        var values: [JSONValue] = []
        do {
            try body { values.append($0) }
            return (values, nil)
        } catch {
            return (values, String(describing: error))
        }
    }
    let one = read { add in
        let decoder = try ModelDecoder().values(of: JSONValue.self, at: path)
        for value in try decoder.feed(bytes) { add(value) }
        for value in try decoder.finish() { add(value) }
    }
    let two = read { add in
        try ModelDecoder().forEachValue(of: JSONValue.self, at: path, in: bytes, jobs: 2, spanSize: spanSize) {
            add($0)
        }
    }
    if one.error != two.error || (one.error == nil && one.values != two.values) {
        fatalError(
            "\(path): two threads, spans of \(spanSize): \(two.values.count) values, \(two.error ?? "no error"); one reading: "
                + "\(one.values.count) values, \(one.error ?? "no error")")
    }
}

/// JSONPath: a query read on a stream gives, fed in chunks, the nodelist the whole-value evaluation gives (duplicate
/// keys, outside I-JSON, aside); an input that is itself a query is parsed and evaluated, whole and streamed, on a
/// fixed document, without a trap.
private func checkQueries(on whole: JSONValue?, bytes: [UInt8], fedInChunks: (([UInt8]) throws -> Void) -> Bool) {
    func streamed(_ query: String, fedInChunks: (([UInt8]) throws -> Void) -> Bool) -> [JSONValue]? {
        guard let decoder = try? ModelDecoder().values(of: JSONValue.self, at: query) else { return nil }
        var values: [JSONValue] = []
        guard fedInChunks({ values += try decoder.feed($0) }), let rest = try? decoder.finish() else { return nil }
        return values + rest
    }
    if let whole, !hasDuplicateKeys(whole) {
        let queries = [
            "$.*", "$[*].a", "$.a.*[0]", "$['data'][*]['items'][1]", "$.*[?@.a > 1 || @ == 'x'].a", "$..a",
            "$.*[-2:]", "$[0, 'a', -1]", "$[*][?@ == $[0]]",
        ]
        for query in queries {
            let expected = try! JSONPath(parsing: query).nodes(in: whole).map(\.value)
            guard let values = streamed(query, fedInChunks: fedInChunks), values == expected else {
                fatalError("\(query) streamed differs from its whole-value nodelist \(expected)")
            }
        }
    }
    guard bytes.first == UInt8(ascii: "$"), bytes.count <= 256,
        let query = try? JSONPath(parsing: String(decoding: bytes, as: UTF8.self))
    else { return }
    let document: JSONValue = ["a": [1, ["b": "ab", "a": [2, 3]]], "b": ["a": "a", "c": [true, nil]], "$": 0]
    let expected = query.nodes(in: document).map(\.value)
    let text = Array(document.description.utf8)
    let chunks: (([UInt8]) throws -> Void) -> Bool = { feed in
        for byte in text { guard (try? feed([byte])) != nil else { return false } }
        return true
    }
    if let values = streamed(query.description, fedInChunks: chunks), values != expected {
        fatalError("\(query) streamed gives \(values), its whole-value nodelist \(expected)")
    }
}

private func hasDuplicateKeys(_ value: JSONValue) -> Bool {
    switch value {
    case .array(let elements): return elements.contains(where: hasDuplicateKeys)
    case .object(let members):
        return Set(members.map(\.key)).count != members.count || members.contains { hasDuplicateKeys($0.value) }
    default: return false
    }
}

/// Inputs on which Foundation is laxer than strict mode on purpose: unpaired surrogate escapes (Foundation repairs
/// them; strict mode refuses them), nesting past the 512-level cap, duplicate keys, a BOM or invalid UTF-8 that
/// Foundation repairs, a control character inside a string (Foundation checks a string only when it is decoded;
/// HandyStream checks every string as it streams).
private func foundationIsLaxer(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.contains("\\u") || text.contains("\u{FFFD}") || bytes.first == 0xEF
        || bytes.filter { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }.count > 400
        || hasControlCharacterInString(bytes) || hasUnreadMalformedNumber(bytes)
}

/// A malformed number in a value that `JSONDecoder` never reads (`{"k": 1, "k": 2-9223}` into `[String: Int]`, where
/// the first "k" counts): it checks a number when it reads one, HandyStream refuses the document (the README's
/// differences table). `JSONSerialization`, on the same scanner, converts every number, so it refuses such a
/// document where `JSONDecoder` decodes it.
private func hasUnreadMalformedNumber(_ bytes: [UInt8]) -> Bool {
    (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) == nil
}

private func hasControlCharacterInString(_ bytes: [UInt8]) -> Bool {
    var inString = false
    var escaped = false
    for byte in bytes {
        if !inString {
            if byte == UInt8(ascii: "\"") { inString = true }
        } else if escaped {
            escaped = false
        } else if byte == UInt8(ascii: "\\") {
            escaped = true
        } else if byte == UInt8(ascii: "\"") {
            inString = false
        } else if byte < 0x20 {
            return true
        }
    }
    return false
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    Fuzz.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

#if FUZZING
/// libFuzzer's driver, from the fuzzer runtime that `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// SwiftPM names an executable's entry point after its target; libFuzzer takes over from here.
@_cdecl("HandyStreamFuzz_main")
func fuzzerEntryPoint(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
#else
@main
struct Replay {
    static func main() throws {
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: path))?.map { "\(path)/\($0)" } ?? [path]
            for file in files {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                data.withUnsafeBytes { Fuzz.run($0) }
                count += 1
            }
        }
        print("replayed \(count) inputs")
    }
}
#endif
