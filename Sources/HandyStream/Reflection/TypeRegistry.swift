import Synchronization

/// The codecs of every type decoded so far, built once per type and then shared by all threads.
///
/// A build runs outside the lock, in a ``CodecFactory`` of its own, so that a type that refers to itself
/// (`class Node { var children: [Node] }`) finds its own codec while its table is still being made. Only complete
/// codecs are published; when two threads build the same type at once, the first to publish wins. Every codec ever
/// built is kept for the life of the process, the losers' included: codecs refer to each other unowned, and a
/// published codec may point at a child that lost the race.
enum TypeRegistry {
    private struct Codecs {
        var byType: [ObjectIdentifier: ValueCodec] = [:]
        var retained: [ValueCodec] = []
    }

    private static let codecs = Mutex(Codecs())
    /// Problems found in models' declarations, by model type, reachable models included.
    private static let problemsByModel = Mutex<[ObjectIdentifier: [String]]>([:])

    /// The codec for `type`, and the problems found in its declaration (and in the models it contains).
    static func codec(for type: Any.Type) -> (codec: ValueCodec?, problems: [String]) {
        let key = ObjectIdentifier(type)
        if let codec = publishedCodec(key) {
            return (codec, problemsByModel.withLock { $0[key] } ?? [])
        }
        let factory = CodecFactory(root: key)
        let built = factory.codec(for: type, context: "\(type)")
        factory.finish()
        let codec = codecs.withLock { codecs in
            codecs.retained.append(contentsOf: factory.built.values)
            for (identifier, codec) in factory.built where codecs.byType[identifier] == nil {
                codecs.byType[identifier] = codec
            }
            return built == nil ? nil : codecs.byType[key]
        }
        problemsByModel.withLock { table in
            for (identifier, problems) in factory.problemsByModel where table[identifier] == nil {
                table[identifier] = problems
            }
        }
        let problems = factory.problemsByModel[key] ?? factory.problems(reachableFrom: key)
        return (codec, problems)
    }
}

/// Builds the codecs for one request: every type reachable from the requested one.
final class CodecFactory {
    private(set) var built: [ObjectIdentifier: ValueCodec] = [:]
    /// Problems found in each model's own properties.
    private var ownProblems: [ObjectIdentifier: [String]] = [:]
    /// The models each model's properties contain.
    private var containedModels: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
    /// The model whose table is being built, to which contained models and problems are attributed; the requested
    /// type itself while its own codec is made (so that `[Model]` answers for `Model`'s problems).
    private var currentModel: ObjectIdentifier?
    private let root: ObjectIdentifier

    init(root: ObjectIdentifier) {
        self.root = root
        currentModel = root
    }
    /// Problems per model, reachable models included; filled by ``finish()``.
    private(set) var problemsByModel: [ObjectIdentifier: [String]] = [:]

    /// The codec for `type`, or `nil` (and a problem recorded) when the type can't be decoded.
    func codec(for type: Any.Type, context: @autoclosure () -> String) -> ValueCodec? {
        let key = ObjectIdentifier(type)
        if let codec = built[key] {
            noteContained(type, key)
            return codec
        }
        if let codec = TypeRegistry.publishedCodec(key) {
            built[key] = codec
            noteContained(type, key)
            return codec
        }
        guard let codec = make(type, context: context()) else { return nil }
        built[key] = codec
        return codec
    }

    private func noteContained(_ type: Any.Type, _ key: ObjectIdentifier) {
        if let current = currentModel, current != key, type is any HandyJSON.Type {
            containedModels[current, default: []].insert(key)
        }
    }

    private func make(_ type: Any.Type, context: String) -> ValueCodec? {
        if let scalar = ScalarCodecs.codec(for: type) { return scalar }
        if ObjectIdentifier(type) == ObjectIdentifier(Any.self) { return AnyCodec() }
        if let enumType = type as? any HandyJSONEnum.Type { return makeEnum(enumType, context: context) }
        if let modelType = type as? any HandyJSON.Type { return makeModel(modelType) }
        if let optional = type as? any OptionalMarker.Type {
            guard let wrapped = codec(for: optional.wrappedType, context: context) else { return nil }
            return optional.makeCodec(wrapped: wrapped)
        }
        if let array = type as? any ArrayMarker.Type {
            guard let element = codec(for: array.elementType, context: context) else { return nil }
            return KnownContainers.arrayCodec(for: type, element: element) ?? array.makeCodec(element: element)
        }
        if let set = type as? any SetMarker.Type {
            guard let element = codec(for: set.elementType, context: context) else { return nil }
            return set.makeCodec(element: element)
        }
        if let dictionary = type as? any DictionaryMarker.Type {
            guard let value = codec(for: dictionary.valueType, context: context) else { return nil }
            return dictionary.makeCodec(value: value)
        }
        return nil
    }

    private func makeEnum<E: HandyJSONEnum>(_: E.Type, context: String) -> ValueCodec? {
        guard let raw = codec(for: E.RawValue.self, context: context) else { return nil }
        return EnumCodec<E>(raw: raw)
    }

    private func makeModel<Model: HandyJSON>(_: Model.Type) -> ValueCodec {
        let key = ObjectIdentifier(Model.self)
        let codec = ModelCodec<Model>()
        // Published to this build before its table exists, so that recursive models find themselves.
        built[key] = codec
        if let current = currentModel, current != key { containedModels[current, default: []].insert(key) }
        let outer = currentModel
        currentModel = key
        defer { currentModel = outer }

        let modelName = "\(Model.self)"
        let isClass = Model.self is AnyClass
        var slots: [FieldTable.Slot] = []
        guard let properties = StoredProperty.of(Model.self) else {
            ownProblems[key, default: []].append("\(modelName): the Swift runtime cannot list its stored properties")
            codec.table = FieldTable(modelName: modelName, isClass: isClass, slots: [])
            return codec
        }
        for property in properties where property.isStrong && property.isVar {
            guard let propertyCodec = self.codec(for: property.type, context: "\(modelName).\(property.name)") else {
                ownProblems[key, default: []].append(
                    "\(modelName).\(property.name): a property of type \(property.type) can't be decoded; "
                        + "make the type HandyJSON or HandyJSONEnum, or exclude the property in mapping(mapper:)")
                continue
            }
            slots.append(FieldTable.Slot(
                name: property.name, key: property.name, offset: property.offset, codec: propertyCodec))
        }
        codec.table = FieldTable(modelName: modelName, isClass: isClass, slots: slots)
        return codec
    }

    /// Works out, for every model built here, the problems of the model and of all the models it contains.
    func finish() {
        for key in built.keys where key == root || built[key] is any ModelCodecMarker {
            problemsByModel[key] = problems(reachableFrom: key)
        }
    }

    func problems(reachableFrom start: ObjectIdentifier) -> [String] {
        var seen: Set<ObjectIdentifier> = [start]
        var pending = [start]
        var found: [String] = []
        while let model = pending.popLast() {
            found += ownProblems[model] ?? TypeRegistry.publishedProblems(model) ?? []
            for next in containedModels[model] ?? [] where seen.insert(next).inserted { pending.append(next) }
        }
        return found
    }
}

extension TypeRegistry {
    fileprivate static func publishedCodec(_ key: ObjectIdentifier) -> ValueCodec? {
        codecs.withLock { $0.byType[key] }
    }

    fileprivate static func publishedProblems(_ key: ObjectIdentifier) -> [String]? {
        problemsByModel.withLock { $0[key] }
    }
}

/// Marks model codecs without naming their generic parameter.
protocol ModelCodecMarker {}
extension ModelCodec: ModelCodecMarker {}

// MARK: - Opening generic containers

/// Lets the registry reach `Wrapped` in `Optional<Wrapped>` from a bare metatype.
protocol OptionalMarker {
    static var wrappedType: Any.Type { get }
    static func makeCodec(wrapped: ValueCodec) -> ValueCodec
}

extension Optional: OptionalMarker {
    static var wrappedType: Any.Type { Wrapped.self }
    static func makeCodec(wrapped: ValueCodec) -> ValueCodec { OptionalCodec<Wrapped>(wrapped: wrapped) }
}

protocol ArrayMarker {
    static var elementType: Any.Type { get }
    static func makeCodec(element: ValueCodec) -> ValueCodec
}

extension Array: ArrayMarker {
    static var elementType: Any.Type { Element.self }
    static func makeCodec(element: ValueCodec) -> ValueCodec { ArrayCodec<Element>(element: element) }
}

protocol SetMarker {
    static var elementType: Any.Type { get }
    static func makeCodec(element: ValueCodec) -> ValueCodec
}

extension Set: SetMarker {
    static var elementType: Any.Type { Element.self }
    static func makeCodec(element: ValueCodec) -> ValueCodec { SetCodec<Element>(element: element) }
}

protocol DictionaryMarker {
    static var valueType: Any.Type { get }
    static func makeCodec(value: ValueCodec) -> ValueCodec
}

extension Dictionary: DictionaryMarker where Key == String {
    static var valueType: Any.Type { Value.self }
    static func makeCodec(value: ValueCodec) -> ValueCodec { DictionaryCodec<Value>(value: value) }
}

/// Array types common enough in real documents to deserve code specialized for them (see ``ArrayFinishing``).
enum KnownContainers {
    static func arrayCodec(for type: Any.Type, element: ValueCodec) -> ValueCodec? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier([Double].self): ArrayCodec<Double>(element: element, finishing: .make())
        case ObjectIdentifier([[Double]].self): ArrayCodec<[Double]>(element: element, finishing: .make())
        case ObjectIdentifier([[[Double]]].self): ArrayCodec<[[Double]]>(element: element, finishing: .make())
        case ObjectIdentifier([Float].self): ArrayCodec<Float>(element: element, finishing: .make())
        case ObjectIdentifier([Int].self): ArrayCodec<Int>(element: element, finishing: .make())
        case ObjectIdentifier([[Int]].self): ArrayCodec<[Int]>(element: element, finishing: .make())
        case ObjectIdentifier([Int64].self): ArrayCodec<Int64>(element: element, finishing: .make())
        case ObjectIdentifier([UInt64].self): ArrayCodec<UInt64>(element: element, finishing: .make())
        case ObjectIdentifier([Int32].self): ArrayCodec<Int32>(element: element, finishing: .make())
        case ObjectIdentifier([String].self): ArrayCodec<String>(element: element, finishing: .make())
        case ObjectIdentifier([Bool].self): ArrayCodec<Bool>(element: element, finishing: .make())
        case ObjectIdentifier([Any].self): ArrayCodec<Any>(element: element, finishing: .make())
        case ObjectIdentifier([[String: Any]].self): ArrayCodec<[String: Any]>(element: element, finishing: .make())
        default: nil
        }
    }
}
