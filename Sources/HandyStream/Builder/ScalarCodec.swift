import Foundation

/// Stores scalars of one type (or its `Optional`) through its ``ScalarConversion``. Not generic: its store functions,
/// made by ``make(_:)`` and ``makeOptional(_:)`` with concrete types (``ScalarCodecs``), are specialized per
/// conversion.
final class ScalarCodec: ValueCodec, @unchecked Sendable {
    /// A number's store is also told whether the input is JSON5 (see ``ScalarConversion/value(number:json5:)``).
    typealias Store = (UnsafeRawBufferPointer, UnsafeMutableRawPointer, StoreMode, Bool) -> Bool
    /// A string's store is also given the run, which can say the bytes are known to be ASCII.
    typealias StringStore = (UnsafeRawBufferPointer, UnsafeMutableRawPointer, StoreMode, DecodingRun) -> Bool

    private let number: Store
    private let string: StringStore
    private let bool: (Bool, UnsafeMutableRawPointer, StoreMode) -> Bool
    private let null: (UnsafeMutableRawPointer, StoreMode) -> Bool
    private let writer: (UnsafeRawPointer, inout JSONWriter) throws -> Void
    private let nilTest: ((UnsafeRawPointer) -> Bool)?
    private let expected: String
    override var isOptional: Bool { nilTest != nil }

    private init(
        type: Any.Type, kind: ScalarKind = .other, expected: String, number: @escaping Store,
        string: @escaping StringStore,
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
        super.init(valueType: type, scalarKind: kind)
    }

    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        try self.writer(source, &run.writer)
    }

    override func isNil(_ source: UnsafeRawPointer) -> Bool { nilTest?(source) ?? false }

    /// The codec for `Conversion.Value`, of the conversion's ``ScalarConversion/kind``: frames may store it themselves.
    static func make<Conversion: ScalarConversion>(_: Conversion.Type) -> ScalarCodec {
        ScalarCodec(
            type: Conversion.Value.self, kind: Conversion.kind, expected: Conversion.expectation,
            number: { text, target, mode, json5 in
                guard let value = Conversion.value(number: text, json5: json5) else { return false }
                ModelStorage.store(value, at: target, mode: mode)
                return true
            },
            string: { bytes, target, mode, run in
                guard let value = Conversion.value(string: bytes, in: run) else { return false }
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

    /// The codec for `Conversion.Value?`: `null` is `nil`; a misfit is refused (a property keeps its default).
    static func makeOptional<Conversion: ScalarConversion>(_: Conversion.Type) -> ScalarCodec {
        ScalarCodec(
            type: Conversion.Value?.self, expected: Conversion.expectation,
            number: { text, target, mode, json5 in
                store(Conversion.value(number: text, json5: json5), at: target, mode: mode)
            },
            string: { bytes, target, mode, run in
                store(Conversion.value(string: bytes, in: run), at: target, mode: mode)
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
    ) -> Bool {
        number(text, target, mode, builder.options.allowsJSON5)
    }

    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        string(bytes, target, mode, builder.run)
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

// MARK: - The scalar types

enum ScalarCodecs {
    /// One entry per conversion, each calling ``entry(_:_:)`` with a concrete type, so that its stores are specialized.
    private static let entries: [@Sendable (Any.Type) -> ValueCodec?] = [
        { entry(IntegerConversion<Int>.self, $0) }, { entry(IntegerConversion<Int8>.self, $0) },
        { entry(IntegerConversion<Int16>.self, $0) }, { entry(IntegerConversion<Int32>.self, $0) },
        { entry(IntegerConversion<Int64>.self, $0) }, { entry(IntegerConversion<UInt>.self, $0) },
        { entry(IntegerConversion<UInt8>.self, $0) }, { entry(IntegerConversion<UInt16>.self, $0) },
        { entry(IntegerConversion<UInt32>.self, $0) }, { entry(IntegerConversion<UInt64>.self, $0) },
        { entry(IntegerConversion<Int128>.self, $0) }, { entry(IntegerConversion<UInt128>.self, $0) },
        { entry(DoubleConversion.self, $0) }, { entry(FloatConversion.self, $0) }, { entry(BoolConversion.self, $0) },
        { entry(StringConversion.self, $0) }, { entry(NSStringConversion.self, $0) },
        { entry(NSNumberConversion.self, $0) }, { entry(DecimalConversion.self, $0) },
    ]

    static func codec(for type: Any.Type) -> ValueCodec? {
        for entry in entries {
            if let codec = entry(type) { return codec }
        }
        return nil
    }

    /// The codec for `type` if it is the conversion's value or that value's `Optional`.
    @inline(__always)
    private static func entry<Conversion: ScalarConversion>(_: Conversion.Type, _ type: Any.Type) -> ValueCodec? {
        if type == Conversion.Value.self { return ScalarCodec.make(Conversion.self) }
        if type == Conversion.Value?.self { return ScalarCodec.makeOptional(Conversion.self) }
        return nil
    }
}
