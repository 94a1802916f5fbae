import Foundation

/// The type adaptation rules for one scalar type: what each kind of JSON scalar becomes, or `nil` when it does not
/// fit (the property then keeps its default). These are HandyJSON's rules, written down in the README:
///
/// - A number fills a number property when it fits exactly: `300` does not fit an `Int8`, `1.5` does not fit an
///   `Int`, `1.0` and `1e3` do; `1e400` does not fit a `Double`.
/// - A string holding a base-10 number fills a number property the same way.
/// - A number fills a `String` property with its exact text from the document.
/// - `Bool` takes `true`/`false`, the strings `"true"`/`"false"`/`"1"`/`"0"` in any case, and numbers (0 is false).
protocol ScalarConversion {
    associatedtype Value
    static func value(number text: UnsafeRawBufferPointer) -> Value?
    static func value(string bytes: UnsafeRawBufferPointer) -> Value?
    static func value(bool: Bool) -> Value?
    static var expectation: String { get }
}

/// Stores scalars of one type through its ``ScalarConversion``.
final class ScalarCodec<Conversion: ScalarConversion>: ValueCodec, @unchecked Sendable {
    init() { super.init(valueType: Conversion.Value.self) }

    override func storeNumber(_ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        guard let value = Conversion.value(number: text) else { return false }
        ModelStorage.store(value, at: target, mode: mode)
        return true
    }

    override func storeString(_ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode)
        -> Bool
    {
        guard let value = Conversion.value(string: bytes) else { return false }
        ModelStorage.store(value, at: target, mode: mode)
        return true
    }

    override func storeBool(_ flag: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard let value = Conversion.value(bool: flag) else { return false }
        ModelStorage.store(value, at: target, mode: mode)
        return true
    }

    override var expectation: String { Conversion.expectation }
}

// MARK: - Numbers

struct IntegerConversion<Value: FixedWidthInteger>: ScalarConversion {
    static func value(number text: UnsafeRawBufferPointer) -> Value? { DecimalText(text)?.integer(Value.self) }
    static func value(string bytes: UnsafeRawBufferPointer) -> Value? {
        DecimalText(bytes, fromString: true)?.integer(Value.self)
    }
    static func value(bool: Bool) -> Value? { bool ? 1 : 0 }
    static var expectation: String { "an integer that fits \(Value.self)" }
}

struct DoubleConversion: ScalarConversion {
    static func value(number text: UnsafeRawBufferPointer) -> Double? { DecimalText(text)?.double(text: text) }
    static func value(string bytes: UnsafeRawBufferPointer) -> Double? {
        DecimalText(bytes, fromString: true)?.double(text: bytes)
    }
    static func value(bool: Bool) -> Double? { bool ? 1 : 0 }
    static var expectation: String { "a number within Double's range" }
}

struct FloatConversion: ScalarConversion {
    static func value(number text: UnsafeRawBufferPointer) -> Float? { DecimalText(text)?.float(text: text) }
    static func value(string bytes: UnsafeRawBufferPointer) -> Float? {
        DecimalText(bytes, fromString: true)?.float(text: bytes)
    }
    static func value(bool: Bool) -> Float? { bool ? 1 : 0 }
    static var expectation: String { "a number within Float's range" }
}

struct BoolConversion: ScalarConversion {
    static func value(number text: UnsafeRawBufferPointer) -> Bool? {
        guard let number = DecimalText(text) else { return nil }
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

    /// Case-insensitive comparison with a lowercase ASCII word.
    private static func matches(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for index in 0..<bytes.count where ASCII.lowercased(bytes[index]) != expected[index] { return false }
        return true
    }
}

// MARK: - Text

struct StringConversion: ScalarConversion {
    static func value(number text: UnsafeRawBufferPointer) -> String? { String(decoding: text, as: UTF8.self) }
    static func value(string bytes: UnsafeRawBufferPointer) -> String? { String(decoding: bytes, as: UTF8.self) }
    static func value(bool: Bool) -> String? { bool ? "true" : "false" }
    static var expectation: String { "a string" }
}

// MARK: - Foundation types

struct NSStringConversion: ScalarConversion {
    static func value(number text: UnsafeRawBufferPointer) -> NSString? {
        NSString(string: String(decoding: text, as: UTF8.self))
    }
    static func value(string bytes: UnsafeRawBufferPointer) -> NSString? {
        NSString(string: String(decoding: bytes, as: UTF8.self))
    }
    static func value(bool: Bool) -> NSString? { NSString(string: bool ? "true" : "false") }
    static var expectation: String { "a string" }
}

struct NSNumberConversion: ScalarConversion {
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
    static func value(number text: UnsafeRawBufferPointer) -> Decimal? { decimal(text, fromString: false) }
    static func value(string bytes: UnsafeRawBufferPointer) -> Decimal? { decimal(bytes, fromString: true) }
    static func value(bool: Bool) -> Decimal? { bool ? 1 : 0 }
    static var expectation: String { "a decimal number" }

    private static func decimal(_ text: UnsafeRawBufferPointer, fromString: Bool) -> Decimal? {
        guard DecimalText(text, fromString: fromString) != nil else { return nil }
        return Decimal(string: String(decoding: text, as: UTF8.self), locale: nil)
    }
}

// MARK: - The scalar types

enum ScalarCodecs {
    /// The codec for a scalar type the library knows, or `nil`.
    static func codec(for type: Any.Type) -> ValueCodec? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int.self): ScalarCodec<IntegerConversion<Int>>()
        case ObjectIdentifier(Int8.self): ScalarCodec<IntegerConversion<Int8>>()
        case ObjectIdentifier(Int16.self): ScalarCodec<IntegerConversion<Int16>>()
        case ObjectIdentifier(Int32.self): ScalarCodec<IntegerConversion<Int32>>()
        case ObjectIdentifier(Int64.self): ScalarCodec<IntegerConversion<Int64>>()
        case ObjectIdentifier(UInt.self): ScalarCodec<IntegerConversion<UInt>>()
        case ObjectIdentifier(UInt8.self): ScalarCodec<IntegerConversion<UInt8>>()
        case ObjectIdentifier(UInt16.self): ScalarCodec<IntegerConversion<UInt16>>()
        case ObjectIdentifier(UInt32.self): ScalarCodec<IntegerConversion<UInt32>>()
        case ObjectIdentifier(UInt64.self): ScalarCodec<IntegerConversion<UInt64>>()
        case ObjectIdentifier(Double.self): ScalarCodec<DoubleConversion>()
        case ObjectIdentifier(Float.self): ScalarCodec<FloatConversion>()
        case ObjectIdentifier(Bool.self): ScalarCodec<BoolConversion>()
        case ObjectIdentifier(String.self): ScalarCodec<StringConversion>()
        case ObjectIdentifier(NSString.self): ScalarCodec<NSStringConversion>()
        case ObjectIdentifier(NSNumber.self): ScalarCodec<NSNumberConversion>()
        case ObjectIdentifier(Decimal.self): ScalarCodec<DecimalConversion>()
        default: nil
        }
    }
}
