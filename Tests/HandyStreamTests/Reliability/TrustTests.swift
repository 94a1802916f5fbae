import Foundation
@testable import HandyStream
import Testing

@Suite("Caps, paths and error positions")
struct TrustTests {
    @Test("maximumDepth: .max is honoured without overflow; the stack grows with the nesting met")
    func unboundedDepth() throws {
        let options = DecodingOptions(maximumDepth: .max)
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        let value = try ModelDecoder(options: options).decode(JSONValue.self, from: deep)
        var level = 0
        var current = value
        while case .array(let elements) = current, let first = elements.first {
            level += 1
            current = first
        }
        #expect(level == 4_999)
        #expect(try ModelDecoder(options: options).decode(Everything.self, from: #"{"list": [1, 2]}"#).list == [1, 2])
        #expect(try ModelDecoder(options: DecodingOptions(maximumDepth: 0)).decode(Int.self, from: "7") == 7)
    }

    @Test("The depth cap holds for path and value together")
    func capAcrossStages() throws {
        let options = DecodingOptions(maximumDepth: 10)
        let path = Array(repeating: "a", count: 6).joined(separator: ".")
        func document(valueDepth: Int) -> String {
            String(repeating: #"{"a":"#, count: 6) + String(repeating: "[", count: valueDepth)
                + String(repeating: "]", count: valueDepth) + String(repeating: "}", count: 6)
        }
        #expect(try ModelDecoder(options: options).decode(JSONValue.self, from: document(valueDepth: 4), at: path)
            != .null)
        let error = decodingError(JSONValue.self, document(valueDepth: 5), at: path, options: options)
        #expect(error?.kind == .tooDeep)
        #expect(error?.message == "nesting deeper than 10 levels")
        let elements = try ModelDecoder(options: options).elements(of: JSONValue.self, at: path)
        #expect(throws: JSONDecodingError.self) { _ = try elements.feed(Array(document(valueDepth: 5).utf8)) }
    }

    @Test("A path with [*] anywhere but once at the end is refused, not read as another path")
    func wildcardPaths() throws {
        for path in ["a[*][*]", "a[*].b", "[*][*]", "a[*][*][*]"] {
            let error = decodingError(JSONValue.self, #"{"a": [[1]]}"#, at: path)
            #expect(error?.kind == .invalidPath, "\(path)")
        }
        #expect(try ModelDecoder().decode([Int].self, from: #"{"a": [1, 2]}"#, at: "a[*]") == [1, 2])
    }

    @Test("A dictionary value that doesn't fit is reported at its own key")
    func dictionaryErrorKey() throws {
        let strict = ModelDecoder(options: DecodingOptions(strict: true))
        let error = decodingError([String: Int].self, #"{"a":1,"b":"x"}"#, options: strict.options)
        #expect(error?.path == "$.b")
        let shape = decodingError([String: Int].self, #"{"a":1,"b":[1]}"#, options: strict.options)
        #expect(shape?.path == "$.b")
    }
}

/// Collects the diagnostics of one decoding.
final class DiagnosticLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    var all: [String] { lock.withLock { entries } }
    var options: DecodingOptions {
        DecodingOptions(diagnostics: { [self] diagnostic in lock.withLock { entries.append(diagnostic.description) } })
    }
}

enum Species2: String, HandyJSONEnum { case cat, dog }

struct OptionalElements: HandyJSON {
    var ints: [Int?] = []
    var map: [String: Int?] = [:]
    var owners: [Owner?] = []
    var kinds: [Species2?] = []
}

extension TrustTests {
    @Test("Elements of [T?] and [String: T?] that don't fit: nil, reported to diagnostics, an error in strict mode")
    func optionalElementsReported() throws {
        let json = #"{"ints":[1,"x",3e20],"map":{"a":"y","b":2},"owners":[{"name":"A"},7],"kinds":["cat","cow"]}"#
        let log = DiagnosticLog()
        let model = try ModelDecoder(options: log.options).decode(OptionalElements.self, from: json)
        #expect(model.ints == [1, nil, nil])
        #expect(model.map == ["a": Int?.none, "b": Int?.some(2)])
        #expect(model.owners.count == 2 && model.owners[1] == nil)
        #expect(model.kinds == [.cat, nil])
        #expect(log.all == [
            "$.ints[1]: expected an integer that fits Int; the element became nil",
            "$.ints[2]: expected an integer that fits Int; the element became nil",
            "$.map.a: expected an integer that fits Int; the value became nil",
            "$.owners[1]: expected an object; the element became nil",
            "$.kinds[1]: expected a raw value of Species2; the element became nil",
        ])
        let strict = DecodingOptions(strict: true)
        #expect(decodingError(OptionalElements.self, #"{"ints":[1,"x",3e20]}"#, options: strict)?.path == "$.ints[1]")
        #expect(decodingError([String: Int?].self, #"{"a":"y"}"#, options: strict)?.path == "$.a")
        #expect(decodingError([Owner?].self, "[7]", options: strict)?.kind == .typeMismatch)
    }

    @Test("A root T? that doesn't fit is nil and reported; strict mode throws")
    func optionalRoot() throws {
        let log = DiagnosticLog()
        #expect(try ModelDecoder(options: log.options).decode(Int?.self, from: #""x""#) == nil)
        #expect(try ModelDecoder(options: log.options).decode(Owner?.self, from: "[1]") == nil)
        #expect(log.all == ["$: expected an integer that fits Int, found a string; the value became nil",
                            "$: expected an object, found an array; the value became nil"])
        #expect(decodingError(Int?.self, #""x""#, options: DecodingOptions(strict: true))?.kind == .typeMismatch)
        #expect(try ModelDecoder().decode(Int?.self, from: "null") == nil)
        #expect(try ModelDecoder().decode(Int?.self, from: "5") == 5)
    }
}
