import Foundation

// A type both `HandyJSON` and `Codable` keeps its `mapping(mapper:)` on the `Codable` route too, applied to the coding
// key that names each property. Every API (and the field tables, ``CodecFactory``) gives a property its keys so:
//
//   1. `mapping(mapper:)`: `<--` keys are read (the first present wins; a dotted key is a path) and written under the
//      first, as declared; `>>>` is neither read nor written and keeps what `init()` gives it;
//   2. else its `CodingKeys` key (the case's raw value), under the key strategy;
//   3. else its name, under the key strategy.
//
// A coding key names the property of its case's name, or, when no enum case, of its string value.

/// The runtime's name for an enum value's case, `nil` for a value that is no enum's.
@_silgen_name("swift_EnumCaseName")
private func _runtimeEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

enum CodingKeyNames {
    static func property(of key: some CodingKey) -> String {
        if let name = _runtimeEnumCaseName(key) { return String(cString: name) }
        return key.stringValue
    }
}

/// What `mapping(mapper:)` says of a model's properties, by name, for the `Codable` route: made once per type, only
/// when it says something, and kept for the process's life by ``TypeRegistry/modelRules(of:)``.
final class ModelRules: @unchecked Sendable {
    final class Rule: @unchecked Sendable {
        /// `nil` when the mapping names none (a transform alone): the property keeps its coding key.
        let keys: [String]?
        /// ``keys`` as the decoder searches them: each a path of segments' UTF-8 bytes.
        let paths: [[[UInt8]]]?
        let isExcluded: Bool
        let transform: RuleTransform?
        /// Made anew at each call, so that a `UUID()` or a class instance is each value's own.
        let initialValue: @Sendable () -> Any?

        init(keys: [String]?, isExcluded: Bool, transform: RuleTransform?, initialValue: @escaping @Sendable () -> Any?)
        {
            self.keys = keys
            paths = keys.map { $0.map(DesignatedPath.mappedKey).filter { !$0.isEmpty } }
            self.isExcluded = isExcluded
            self.transform = transform
            self.initialValue = initialValue
        }
    }

    private let rules: [String: Rule]

    private init(rules: [String: Rule]) {
        self.rules = rules
    }

    func rule(for key: some CodingKey) -> Rule? {
        rules[CodingKeyNames.property(of: key)]
    }

    /// `nil` for a type that is no model, or whose mapping says nothing.
    static func make(_ type: Any.Type) -> ModelRules? {
        guard let model = type as? any HandyJSON.Type else { return nil }
        return makeRules(model)
    }

    private static func makeRules<Model: HandyJSON>(_: Model.Type) -> ModelRules? {
        guard let properties = StoredProperty.of(Model.self) else { return nil }
        let modelName = "\(Model.self)"
        // Problems in the mapping are the field tables' to report; here, what resolves is applied.
        let mapping = ResolvedMapping(MappingReader.read(Model.self), properties: properties, modelName: modelName)
        guard !mapping.rules.isEmpty || !mapping.excluded.isEmpty else { return nil }
        var rules: [String: Rule] = [:]
        for (index, handler) in mapping.rules where !mapping.excluded.contains(index) {
            let property = properties[index]
            rules[property.name] = Rule(
                keys: handler.keys.flatMap { $0.isEmpty ? nil : $0 }, isExcluded: false,
                transform: handler.adapter.map {
                    RuleTransform($0, propertyType: handler.propertyType, name: "\(modelName).\(property.name)")
                },
                initialValue: initialValue(Model.self, property.storedName))
        }
        for index in mapping.excluded {
            let property = properties[index]
            rules[property.name] = Rule(
                keys: nil, isExcluded: true, transform: nil,
                initialValue: initialValue(Model.self, property.storedName))
        }
        return ModelRules(rules: rules)
    }

    private static func initialValue<Model: HandyJSON>(_: Model.Type, _ name: String) -> @Sendable () -> Any? {
        { Mirror.storedValues(of: Model())[name] }
    }
}

/// A transform (or converter) of `mapping(mapper:)` on the `Codable` route. Made once and shared by every thread, so
/// calls into it are serialized as ``TransformCodec``'s are.
final class RuleTransform: @unchecked Sendable {
    private let adapter: ValueAdapter
    private let propertyType: PropertyType
    /// `Model.property`, for errors.
    let name: String
    private let lock: NSRecursiveLock?

    init(_ adapter: ValueAdapter, propertyType: PropertyType, name: String) {
        self.adapter = adapter
        self.propertyType = propertyType
        self.name = name
        lock = adapter.callsSharedObject ? NSRecursiveLock() : nil
    }

    /// The transform is given the document's text (`specify(property:converter:)`), not Foundation values.
    var readsText: Bool { adapter.readsText }

    /// The property's type, or the type an optional property wraps (as `decodeIfPresent` reads it). Under another
    /// type (a hand-written `init(from:)`), the key is read as it is.
    func applies<T>(to _: T.Type) -> Bool { propertyType.matches(T.self) || propertyType.matches(T?.self) }

    /// Only for a type it ``applies(to:)``.
    func value<T>(_: T.Type, from json: Any?) -> T? {
        lock?.lock()
        defer { lock?.unlock() }
        if propertyType.matches(T.self) {
            let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
            defer { slot.deallocate() }
            return adapter.fromJSON(json, UnsafeMutableRawPointer(slot), .initialize) ? slot.move() : nil
        }
        let slot = UnsafeMutablePointer<T?>.allocate(capacity: 1)
        defer { slot.deallocate() }
        return adapter.fromJSON(json, UnsafeMutableRawPointer(slot), .initialize) ? slot.move() : nil
    }

    /// Foundation-style, `nil` to leave it out. Only for a type it ``applies(to:)``.
    func json<T>(of value: T) -> Any? {
        lock?.lock()
        defer { lock?.unlock() }
        if propertyType.matches(T.self) {
            return withUnsafePointer(to: value) { adapter.toJSON(UnsafeRawPointer($0)) }
        }
        let wrapped: T? = value
        return withUnsafePointer(to: wrapped) { adapter.toJSON(UnsafeRawPointer($0)) }
    }
}

extension TapeDecoder {
    /// The member at `index` through a model's transform, given what the field tables give it: Foundation-style
    /// values, or for a converter the document's text (compact JSON for containers; `null` is refused).
    func transformed<T>(_: T.Type, at index: Int, _ transform: RuleTransform, node: CodingPathNode) throws -> T {
        let readsText = transform.readsText
        let json: Any?
        switch kind(at: index) {
        case .null:
            guard !readsText else { throw refused(by: transform, at: index, node: node) }
            json = nil
        case .true, .false:
            let flag = kind(at: index) == .true
            json = readsText ? (flag ? "true" : "false") as Any : flag as Any
        case .number:
            let text = tape.pointee.bytes(of: index)
            json = readsText ? context.options.numberText(text) as Any? : AnyCodec.foundationNumber(text)
        case .string, .key: json = string(at: index)
        case .array, .object:
            let value = try jsonValue(at: index, depth: 0)
            if readsText {
                json = String(decoding: try ModelEncoder().encode(value), as: UTF8.self)
            } else {
                json = TapeDecoder.foundation(value)
            }
        }
        guard let value = transform.value(T.self, from: json) else {
            throw refused(by: transform, at: index, node: node)
        }
        return value
    }

    private func refused(by transform: RuleTransform, at index: Int, node: CodingPathNode) -> DecodingError {
        corrupted("The value is not one the transform of \(transform.name) accepts.", at: index, node: node)
    }

    /// As the field tables give a transform an object or array (``AnyCodec``).
    private static func foundation(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .number(var text):
            return text.withUTF8 { AnyCodec.foundationNumber(UnsafeRawBufferPointer($0)) } ?? NSNull()
        case .string(let string): return string
        case .array(let elements): return elements.map(foundation)
        case .object(let members):
            var object: [String: Any] = [:]
            for member in members { object[member.key] = foundation(member.value) }
            return object
        }
    }
}

extension JSONValue {
    /// A transform's Foundation-style value, written as the field tables write it (``AnyWriter``) and read back, to
    /// go into an ``EncodableTree`` with numbers keeping that text.
    static func written(_ json: Any, options: EncodingOptions) throws -> JSONValue {
        var compact = options
        compact.prettyPrinted = false
        var run = EncodingRun(options: compact)
        try run.encode(any: json)
        return try ModelDecoder().decode(JSONValue.self, from: run.writer.bytes)
    }
}

extension Mirror {
    /// Each stored property's value in `value`, by stored name, superclasses' included (a subclass's first).
    static func storedValues(of value: Any) -> [String: Any] {
        var values: [String: Any] = [:]
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            for child in current.children {
                if let label = child.label, values[label] == nil { values[label] = child.value }
            }
            mirror = current.superclassMirror
        }
        return values
    }
}
