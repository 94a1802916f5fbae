import Foundation
import HandyStream
import Testing

struct JSON5SpecialHolder: Decodable, Equatable {
    var v: JSONValue
}

struct JSON5SpecialText: Decodable, Equatable {
    var text: String
}

struct JSON5SpecialModel: HandyJSON {
    var text = ""
    var name: NSString?
    var n = 0
    var value: JSONValue = .null
}

/// JSON5's `NaN`, `Infinity` and `-Infinity` reach a user as those words, whatever reads them: never as the texts the
/// JSON5 stage writes for the tokenizer (`2E999999`, `1E999999`, `-1E999999`), which only `Double` and `Float` read.
@Suite struct JSON5SpecialNumberTests {
    static func options(strict: Bool = false) -> DecodingOptions {
        var options = DecodingOptions(strict: strict)
        options.allowsJSON5 = true
        return options
    }

    static let document = "{a: [NaN, Infinity, -Infinity, +Infinity, -NaN, +NaN, 1]}"
    static let words: JSONValue = [
        .number("NaN"), .number("Infinity"), .number("-Infinity"), .number("Infinity"), .number("NaN"), .number("NaN"),
        .number("1"),
    ]

    /// A `JSONValue` holds the words: at the root (its own codec), at a path, streamed, and inside `Codable` values
    /// (read from the tape).
    @Test func jsonValueHoldsTheWords() throws {
        for strict in [false, true] {
            let decoder = ModelDecoder(options: Self.options(strict: strict))
            #expect(try decoder.decode(JSONValue.self, from: Self.document)["a"] == Self.words)
            #expect(try decoder.decode(JSONValue.self, from: Self.document, at: "a") == Self.words)
            #expect(try decoder.decode([JSONValue].self, from: Self.document, at: "a") == Self.words.arrayElements)
            #expect(try decoder.decode([String: JSONValue].self, from: Self.document)["a"] == Self.words)
            #expect(try decoder.decode(JSON5SpecialHolder.self, from: "{v: -Infinity}").v == .number("-Infinity"))
            let elements = try decoder.elements(of: JSONValue.self, at: "a")
            var streamed = try elements.feed(Array(Self.document.utf8))
            streamed += try elements.finish()
            #expect(streamed == Self.words.arrayElements)
        }
        // Plain JSON keeps the same text as written: it is an ordinary number there.
        #expect(try ModelDecoder().decode(JSONValue.self, from: "[2E999999]") == [.number("2E999999")])
    }

    /// NaN is not read back as infinity: the value is encoded as a `Double` NaN is, under the encoder's options, by
    /// both of the encoder's routes (`Codable`, and a model's `JSONValue` property).
    @Test func encodedAsTheValueItIs() throws {
        let value = try ModelDecoder(options: Self.options()).decode(JSONValue.self, from: Self.document, at: "a")
        #expect(throws: (any Error).self) { try ModelEncoder().encode(value) }
        let asStrings = ModelEncoder(options: EncodingOptions(nonFiniteNumbers: .string))
        #expect(try asStrings.encodeToString(value) == #"["nan","inf","-inf","inf","nan","nan",1]"#)
        let model = try ModelDecoder(options: Self.options()).decode(
            JSON5SpecialModel.self, from: "{value: [NaN, -Infinity, 2]}")
        let asNull = ModelEncoder(options: EncodingOptions(nonFiniteNumbers: .null))
        #expect(try asNull.encodeToString(model).contains(#""value":[null,null,2]"#))
    }

    /// A number read as text (lenient mode's `String`, a model's `String` and `NSString`) is the word.
    @Test func textIsTheWord() throws {
        let lenient = ModelDecoder(options: Self.options())
        #expect(try lenient.decode(JSON5SpecialText.self, from: "{text: NaN}").text == "NaN")
        #expect(try lenient.decode(JSON5SpecialText.self, from: "{text: -Infinity}").text == "-Infinity")
        let model = try lenient.decode(JSON5SpecialModel.self, from: "{text: -NaN, name: +Infinity}")
        #expect(model.text == "NaN")
        #expect(model.name == "Infinity")
        // Strict mode refuses a number as a String, as JSONDecoder does.
        #expect(throws: DecodingError.self) {
            try ModelDecoder(options: Self.options(strict: true)).decode(JSON5SpecialText.self, from: "{text: NaN}")
        }
    }

    /// Extracted text spells them as JSON5 does, and the same decoder reads it back.
    @Test func extractedTextReadsBack() throws {
        let decoder = ModelDecoder(options: Self.options())
        let bytes = Array(Self.document.utf8)
        let text = try decoder.decode(JSONText.self, from: bytes, at: "a").string
        #expect(text == "[NaN,Infinity,-Infinity,Infinity,NaN,NaN,1]")
        #expect(try decoder.decode(JSONText.self, from: bytes, at: "a[2]").string == "-Infinity")
        let again = try decoder.decode([Double].self, from: text)
        #expect(again.count == 7 && again[0].isNaN && again[1] == .infinity && again[2] == -.infinity && again[6] == 1)
        let infinity = try decoder.decode(JSONText.self, from: bytes, at: "a[1]").string
        #expect(try decoder.decode(Double.self, from: infinity) == .infinity)
    }

    /// Errors name the number as the document wrote it.
    @Test func errorsNameTheWord() throws {
        let strict = Self.options(strict: true)
        let any = decodingError([String: Any].self, "{a: NaN}", options: strict)
        #expect(any?.message.contains("the number NaN") == true, "\(String(describing: any))")
        let model = decodingError(JSON5SpecialModel.self, "{n: -Infinity}", options: strict)
        #expect(model?.message.contains("the number -Infinity") == true, "\(String(describing: model))")
        let codable = decodingError([String: Int].self, "{a: Infinity}", options: strict)
        #expect(
            codable?.message.contains("Number Infinity is not representable") == true,
            "\(String(describing: codable))")
        for error in [any, model, codable] {
            #expect(error.map { !"\($0)".contains("E999999") } == true)
        }
    }
}

extension JSONValue {
    /// An array's elements (`[]` for anything else).
    fileprivate var arrayElements: [JSONValue] {
        if case .array(let elements) = self { elements } else { [] }
    }
}
