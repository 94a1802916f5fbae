import Foundation

/// The type adaptation rules for one scalar type: what each kind of JSON scalar becomes, or `nil` when it does not
/// fit (a property then keeps its default). HandyJSON's rules, tabled in the ModelsInDepth article:
/// - A number, or a string holding a base-10 number, fills a number property when it fits exactly: `300` does not
///   fit an `Int8`, nor `1.5` an `Int`; `1.0` and `1e3` do; `1e400` does not fit a `Double`.
/// - A number fills a `String` property with its exact text from the document.
/// - `Bool` takes `true`/`false`, the strings `"true"`/`"false"`/`"1"`/`"0"` in any case, and numbers (0 is false).
protocol ScalarConversion {
    associatedtype Value
    /// `text` is a number token's (see ``DecimalText/init(token:)``).
    static func value(number text: UnsafeRawBufferPointer) -> Value?
    /// A number event's value when the input may be JSON5: the conversions that keep a number's text give `NaN`,
    /// `Infinity` and `-Infinity` as such (``DecodingOptions/numberText(_:)``); the others read the text alone.
    static func value(number text: UnsafeRawBufferPointer, json5: Bool) -> Value?
    static func value(string bytes: UnsafeRawBufferPointer) -> Value?
    /// A string event's value; `run` can say the bytes are ASCII (``String``'s conversion asks).
    static func value(string bytes: UnsafeRawBufferPointer, in run: DecodingRun) -> Value?
    static func value(bool: Bool) -> Value?
    static var expectation: String { get }
    static func write(_ value: Value, to writer: inout JSONWriter) throws
    /// Whether the frames convert and store values of `Value` themselves, with this conversion (``ScalarKind``).
    static var kind: ScalarKind { get }
}

extension ScalarConversion {
    @inline(__always)
    static func value(number text: UnsafeRawBufferPointer, json5: Bool) -> Value? { value(number: text) }
    @inline(__always)
    static func value(string bytes: UnsafeRawBufferPointer, in run: DecodingRun) -> Value? { value(string: bytes) }
    static var kind: ScalarKind { .other }
}

// MARK: - Numbers

struct IntegerConversion<Value: FixedWidthInteger>: ScalarConversion {
    static func write(_ value: Value, to writer: inout JSONWriter) { writer.integer(value) }

    static func value(number text: UnsafeRawBufferPointer) -> Value? {
        if Value.bitWidth > 64, let wide = wide(text) { return wide }
        if let plain = DecimalText.plainInteger(token: text, as: Value.self) { return plain }
        return DecimalText(token: text)?.integer(Value.self)
    }
    static func value(string bytes: UnsafeRawBufferPointer) -> Value? {
        if Value.bitWidth > 64, let wide = wide(bytes) { return wide }
        return DecimalText(bytes, fromString: true)?.integer(Value.self)
    }
    /// `Int128` and `UInt128`: digits beyond what ``DecimalText`` holds (64 bits), read by the standard library.
    static func wide(_ text: UnsafeRawBufferPointer) -> Value? { Value(String(decoding: text, as: UTF8.self)) }
    static func value(bool: Bool) -> Value? { bool ? 1 : 0 }
    static var expectation: String { "an integer that fits \(Value.self)" }
    static var kind: ScalarKind { Value.self == Int.self ? .int : .other }
}

struct DoubleConversion: ScalarConversion {
    static func write(_ value: Double, to writer: inout JSONWriter) throws { try writer.floatingPoint(value) }

    static func value(number text: UnsafeRawBufferPointer) -> Double? { DecimalText.double(token: text) }
    static func value(string bytes: UnsafeRawBufferPointer) -> Double? { DecimalText.double(string: bytes) }
    static func value(bool: Bool) -> Double? { bool ? 1 : 0 }
    static var expectation: String { "a number within Double's range" }
    static var kind: ScalarKind { .double }
}

struct FloatConversion: ScalarConversion {
    static func write(_ value: Float, to writer: inout JSONWriter) throws { try writer.floatingPoint(value) }

    static func value(number text: UnsafeRawBufferPointer) -> Float? { DecimalText(token: text)?.float(text: text) }
    static func value(string bytes: UnsafeRawBufferPointer) -> Float? {
        DecimalText(bytes, fromString: true)?.float(text: bytes)
    }
    static func value(bool: Bool) -> Float? { bool ? 1 : 0 }
    static var expectation: String { "a number within Float's range" }
}

struct BoolConversion: ScalarConversion {
    static func write(_ value: Bool, to writer: inout JSONWriter) { writer.bool(value) }

    static func value(number text: UnsafeRawBufferPointer) -> Bool? {
        guard let number = DecimalText(token: text) else { return nil }
        return number.significand != 0 || number.droppedNonZero
    }
    static func value(string bytes: UnsafeRawBufferPointer) -> Bool? {
        switch bytes.count {
        case 1:
            if bytes[0] == UInt8(ascii: "1") { return true }
            if bytes[0] == UInt8(ascii: "0") { return false }
            return nil
        case 4: return matches(bytes, "true") ? true : nil
        case 5: return matches(bytes, "false") ? false : nil
        default: return nil
        }
    }
    static func value(bool: Bool) -> Bool? { bool }
    static var expectation: String { "a Boolean" }
    static var kind: ScalarKind { .bool }

    private static func matches(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        ASCII.equalIgnoringCase(bytes, UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }
}

// MARK: - Text

struct StringConversion: ScalarConversion {
    static func write(_ value: String, to writer: inout JSONWriter) { writer.string(value) }

    static func value(number text: UnsafeRawBufferPointer) -> String? { String(jsonBytes: text) }
    static func value(number text: UnsafeRawBufferPointer, json5: Bool) -> String? {
        json5 ? JSON5Text.spelling(text) ?? String(jsonBytes: text) : String(jsonBytes: text)
    }
    static func value(string bytes: UnsafeRawBufferPointer) -> String? { String(jsonBytes: bytes) }
    /// A short string comes from the run's ``ShortStringCache``; a longer one skips the UTF-8 check when it lies, as
    /// it is, in a chunk the tokenizer's scan found all ASCII (``DecodingRun/isKnownASCII(_:)``).
    @inline(__always)
    static func value(string bytes: UnsafeRawBufferPointer, in run: DecodingRun) -> String? {
        if bytes.count <= String.inlineUTF8Capacity { return bytes.isEmpty ? "" : run.shortString(bytes) }
        return String(jsonBytes: bytes, knownASCII: run.isKnownASCII(bytes))
    }
    static func value(bool: Bool) -> String? { bool ? "true" : "false" }
    static var expectation: String { "a string" }
    static var kind: ScalarKind { .string }
}

// MARK: - Foundation types

struct NSStringConversion: ScalarConversion {
    static func write(_ value: NSString, to writer: inout JSONWriter) { writer.string(String(value)) }

    static func value(number text: UnsafeRawBufferPointer) -> NSString? {
        NSString(string: String(jsonBytes: text))
    }
    static func value(number text: UnsafeRawBufferPointer, json5: Bool) -> NSString? {
        StringConversion.value(number: text, json5: json5).map { NSString(string: $0) }
    }
    static func value(string bytes: UnsafeRawBufferPointer) -> NSString? {
        NSString(string: String(jsonBytes: bytes))
    }
    static func value(bool: Bool) -> NSString? { NSString(string: bool ? "true" : "false") }
    static var expectation: String { "a string" }
}

struct NSNumberConversion: ScalarConversion {
    static func write(_ value: NSNumber, to writer: inout JSONWriter) throws { try writer.number(value) }

    static func value(number text: UnsafeRawBufferPointer) -> NSNumber? { number(text, fromString: false) }
    static func value(string bytes: UnsafeRawBufferPointer) -> NSNumber? { number(bytes, fromString: true) }
    static func value(bool: Bool) -> NSNumber? { NSNumber(value: bool) }
    static var expectation: String { "a number" }

    /// An integer when the text is one that fits 64 bits, otherwise a `Double`.
    private static func number(_ text: UnsafeRawBufferPointer, fromString: Bool) -> NSNumber? {
        guard let decimal = DecimalText(text, fromString: fromString) else { return nil }
        if !decimal.hasFractionOrExponent {
            if let value = decimal.integer(Int64.self) { return NSNumber(value: value) }
            if let value = decimal.integer(UInt64.self) { return NSNumber(value: value) }
        }
        return decimal.double(text: text).map { NSNumber(value: $0) }
    }
}

struct DecimalConversion: ScalarConversion {
    static func write(_ value: Decimal, to writer: inout JSONWriter) throws { try writer.decimal(value) }

    static func value(number text: UnsafeRawBufferPointer) -> Decimal? { decimal(text, fromString: false) }
    static func value(string bytes: UnsafeRawBufferPointer) -> Decimal? { decimal(bytes, fromString: true) }
    static func value(bool: Bool) -> Decimal? { bool ? 1 : 0 }
    static var expectation: String { "a decimal number" }

    private static func decimal(_ text: UnsafeRawBufferPointer, fromString: Bool) -> Decimal? {
        guard DecimalText(text, fromString: fromString) != nil else { return nil }
        return Decimal(string: String(jsonBytes: text), locale: nil)
    }
}
