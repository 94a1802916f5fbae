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
    static func write(_ value: Value, to writer: inout JSONWriter) throws
}

/// Stores scalars of one type (or of its `Optional`) through its ``ScalarConversion``.
///
/// The codec is not generic: it holds the store functions, made by ``make(_:)`` and ``makeOptional(_:)``, which the
/// compiler specializes for each conversion because they are called with concrete types (see ``ScalarCodecs``).
/// Generic code would run unspecialized here and ask the runtime for type metadata on every value.
final class ScalarCodec: ValueCodec, @unchecked Sendable {
    typealias Store = (UnsafeRawBufferPointer, UnsafeMutableRawPointer, StoreMode) -> Bool

    private let number: Store
    private let string: Store
    private let bool: (Bool, UnsafeMutableRawPointer, StoreMode) -> Bool
    private let null: (UnsafeMutableRawPointer, StoreMode) -> Bool
    private let writer: (UnsafeRawPointer, inout JSONWriter) throws -> Void
    private let nilTest: ((UnsafeRawPointer) -> Bool)?
    private let expected: String
    /// Made by ``makeOptional(_:)``.
    override var isOptional: Bool { nilTest != nil }

    private init(
        type: Any.Type, expected: String, number: @escaping Store, string: @escaping Store,
        bool: @escaping (Bool, UnsafeMutableRawPointer, StoreMode) -> Bool,
        null: @escaping (UnsafeMutableRawPointer, StoreMode) -> Bool,
        write: @escaping (UnsafeRawPointer, inout JSONWriter) throws -> Void,
        isNil: ((UnsafeRawPointer) -> Bool)? = nil
    ) {
        self.number = number
        self.string = string
        self.bool = bool
        self.null = null
        self.writer = write
        self.nilTest = isNil
        self.expected = expected
        super.init(valueType: type)
    }

    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        try self.writer(source, &run.writer)
    }

    override func isNil(_ source: UnsafeRawPointer) -> Bool { nilTest?(source) ?? false }

    /// The codec for `Conversion.Value`.
    static func make<Conversion: ScalarConversion>(_: Conversion.Type) -> ScalarCodec {
        ScalarCodec(
            type: Conversion.Value.self, expected: Conversion.expectation,
            number: { text, target, mode in
                guard let value = Conversion.value(number: text) else { return false }
                ModelStorage.store(value, at: target, mode: mode)
                return true
            },
            string: { bytes, target, mode in
                guard let value = Conversion.value(string: bytes) else { return false }
                ModelStorage.store(value, at: target, mode: mode)
                return true
            },
            bool: { flag, target, mode in
                guard let value = Conversion.value(bool: flag) else { return false }
                ModelStorage.store(value, at: target, mode: mode)
                return true
            },
            null: { _, _ in false },
            write: { source, writer in
                try Conversion.write(ModelStorage.load(Conversion.Value.self, from: source), to: &writer)
            })
    }

    /// The codec for `Conversion.Value?`: `null` is `nil`; a value that doesn't fit is refused like any other (as a
    /// property it keeps the default; as an element the frame makes it `nil`).
    static func makeOptional<Conversion: ScalarConversion>(_: Conversion.Type) -> ScalarCodec {
        ScalarCodec(
            type: Conversion.Value?.self, expected: Conversion.expectation,
            number: { text, target, mode in
                store(Conversion.value(number: text), at: target, mode: mode)
            },
            string: { bytes, target, mode in
                store(Conversion.value(string: bytes), at: target, mode: mode)
            },
            bool: { flag, target, mode in
                store(Conversion.value(bool: flag), at: target, mode: mode)
            },
            null: { target, mode in
                ModelStorage.store(Conversion.Value?.none, at: target, mode: mode)
                return true
            },
            write: { source, writer in
                if let value = ModelStorage.load(Conversion.Value?.self, from: source) {
                    try Conversion.write(value, to: &writer)
                } else {
                    writer.null()
                }
            },
            isNil: { source in ModelStorage.load(Conversion.Value?.self, from: source) == nil })
    }

    @inline(__always)
    private static func store<Value>(_ value: Value?, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard let value else { return false }
        ModelStorage.store(Optional(value), at: target, mode: mode)
        return true
    }

    override func storeNumber(
        _ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    )
        -> Bool
    {
        number(text, target, mode)
    }

    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    )
        -> Bool
    {
        string(bytes, target, mode)
    }

    override func storeBool(_ flag: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        bool(flag, target, mode)
    }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        null(target, mode)
    }

    override var expectation: String { expected }
}

// MARK: - Numbers

struct IntegerConversion<Value: FixedWidthInteger>: ScalarConversion {
    static func write(_ value: Value, to writer: inout JSONWriter) { writer.integer(value) }

    static func value(number text: UnsafeRawBufferPointer) -> Value? {
        if Value.bitWidth > 64, let wide = wide(text) { return wide }
        return DecimalText(text)?.integer(Value.self)
    }
    static func value(string bytes: UnsafeRawBufferPointer) -> Value? {
        if Value.bitWidth > 64, let wide = wide(bytes) { return wide }
        return DecimalText(bytes, fromString: true)?.integer(Value.self)
    }
    /// `Int128` and `UInt128`: digits beyond what ``DecimalText`` holds (64 bits), read by the standard library.
    static func wide(_ text: UnsafeRawBufferPointer) -> Value? { Value(String(decoding: text, as: UTF8.self)) }
    static func value(bool: Bool) -> Value? { bool ? 1 : 0 }
    static var expectation: String { "an integer that fits \(Value.self)" }
}

struct DoubleConversion: ScalarConversion {
    static func write(_ value: Double, to writer: inout JSONWriter) throws { try writer.double(value) }

    static func value(number text: UnsafeRawBufferPointer) -> Double? { DecimalText(text)?.double(text: text) }
    static func value(string bytes: UnsafeRawBufferPointer) -> Double? {
        DecimalText(bytes, fromString: true)?.double(text: bytes)
    }
    static func value(bool: Bool) -> Double? { bool ? 1 : 0 }
    static var expectation: String { "a number within Double's range" }
}

struct FloatConversion: ScalarConversion {
    static func write(_ value: Float, to writer: inout JSONWriter) throws { try writer.float(value) }

    static func value(number text: UnsafeRawBufferPointer) -> Float? { DecimalText(text)?.float(text: text) }
    static func value(string bytes: UnsafeRawBufferPointer) -> Float? {
        DecimalText(bytes, fromString: true)?.float(text: bytes)
    }
    static func value(bool: Bool) -> Float? { bool ? 1 : 0 }
    static var expectation: String { "a number within Float's range" }
}

struct BoolConversion: ScalarConversion {
    static func write(_ value: Bool, to writer: inout JSONWriter) { writer.bool(value) }

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
    static func write(_ value: String, to writer: inout JSONWriter) { writer.string(value) }

    static func value(number text: UnsafeRawBufferPointer) -> String? { String(jsonBytes: text) }
    static func value(string bytes: UnsafeRawBufferPointer) -> String? { String(jsonBytes: bytes) }
    static func value(bool: Bool) -> String? { bool ? "true" : "false" }
    static var expectation: String { "a string" }
}

extension String {
    /// A string from bytes yajl has already checked to be valid UTF-8 (or from number text, which is ASCII).
    @inline(__always)
    init(jsonBytes bytes: UnsafeRawBufferPointer) {
        self = String(decoding: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }
}

// MARK: - Foundation types

struct NSStringConversion: ScalarConversion {
    static func write(_ value: NSString, to writer: inout JSONWriter) { writer.string(String(value)) }

    static func value(number text: UnsafeRawBufferPointer) -> NSString? {
        NSString(string: String(jsonBytes: text))
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

// MARK: - The scalar types

enum ScalarCodecs {
    /// The codec for a scalar type the library knows, or for an `Optional` of one; `nil` for any other type.
    static func codec(for type: Any.Type) -> ValueCodec? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int.self): ScalarCodec.make(IntegerConversion<Int>.self)
        case ObjectIdentifier(Int8.self): ScalarCodec.make(IntegerConversion<Int8>.self)
        case ObjectIdentifier(Int16.self): ScalarCodec.make(IntegerConversion<Int16>.self)
        case ObjectIdentifier(Int32.self): ScalarCodec.make(IntegerConversion<Int32>.self)
        case ObjectIdentifier(Int64.self): ScalarCodec.make(IntegerConversion<Int64>.self)
        case ObjectIdentifier(UInt.self): ScalarCodec.make(IntegerConversion<UInt>.self)
        case ObjectIdentifier(UInt8.self): ScalarCodec.make(IntegerConversion<UInt8>.self)
        case ObjectIdentifier(UInt16.self): ScalarCodec.make(IntegerConversion<UInt16>.self)
        case ObjectIdentifier(UInt32.self): ScalarCodec.make(IntegerConversion<UInt32>.self)
        case ObjectIdentifier(UInt64.self): ScalarCodec.make(IntegerConversion<UInt64>.self)
        case ObjectIdentifier(Int128.self): ScalarCodec.make(IntegerConversion<Int128>.self)
        case ObjectIdentifier(UInt128.self): ScalarCodec.make(IntegerConversion<UInt128>.self)
        case ObjectIdentifier(Double.self): ScalarCodec.make(DoubleConversion.self)
        case ObjectIdentifier(Float.self): ScalarCodec.make(FloatConversion.self)
        case ObjectIdentifier(Bool.self): ScalarCodec.make(BoolConversion.self)
        case ObjectIdentifier(String.self): ScalarCodec.make(StringConversion.self)
        case ObjectIdentifier(NSString.self): ScalarCodec.make(NSStringConversion.self)
        case ObjectIdentifier(NSNumber.self): ScalarCodec.make(NSNumberConversion.self)
        case ObjectIdentifier(Decimal.self): ScalarCodec.make(DecimalConversion.self)
        case ObjectIdentifier(Int?.self): ScalarCodec.makeOptional(IntegerConversion<Int>.self)
        case ObjectIdentifier(Int8?.self): ScalarCodec.makeOptional(IntegerConversion<Int8>.self)
        case ObjectIdentifier(Int16?.self): ScalarCodec.makeOptional(IntegerConversion<Int16>.self)
        case ObjectIdentifier(Int32?.self): ScalarCodec.makeOptional(IntegerConversion<Int32>.self)
        case ObjectIdentifier(Int64?.self): ScalarCodec.makeOptional(IntegerConversion<Int64>.self)
        case ObjectIdentifier(UInt?.self): ScalarCodec.makeOptional(IntegerConversion<UInt>.self)
        case ObjectIdentifier(UInt8?.self): ScalarCodec.makeOptional(IntegerConversion<UInt8>.self)
        case ObjectIdentifier(UInt16?.self): ScalarCodec.makeOptional(IntegerConversion<UInt16>.self)
        case ObjectIdentifier(UInt32?.self): ScalarCodec.makeOptional(IntegerConversion<UInt32>.self)
        case ObjectIdentifier(UInt64?.self): ScalarCodec.makeOptional(IntegerConversion<UInt64>.self)
        case ObjectIdentifier(Int128?.self): ScalarCodec.makeOptional(IntegerConversion<Int128>.self)
        case ObjectIdentifier(UInt128?.self): ScalarCodec.makeOptional(IntegerConversion<UInt128>.self)
        case ObjectIdentifier(Double?.self): ScalarCodec.makeOptional(DoubleConversion.self)
        case ObjectIdentifier(Float?.self): ScalarCodec.makeOptional(FloatConversion.self)
        case ObjectIdentifier(Bool?.self): ScalarCodec.makeOptional(BoolConversion.self)
        case ObjectIdentifier(String?.self): ScalarCodec.makeOptional(StringConversion.self)
        case ObjectIdentifier(NSString?.self): ScalarCodec.makeOptional(NSStringConversion.self)
        case ObjectIdentifier(NSNumber?.self): ScalarCodec.makeOptional(NSNumberConversion.self)
        case ObjectIdentifier(Decimal?.self): ScalarCodec.makeOptional(DecimalConversion.self)
        default: nil
        }
    }
}
