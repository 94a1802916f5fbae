
/// The codecs of every type decoded so far, built once per type and then shared by all threads.
///
/// A build runs outside the lock, in a ``CodecFactory`` of its own, so that a type that refers to itself
/// (`class Node { var children: [Node] }`) finds its own codec while its table is still being made. Only complete
/// codecs are published; when two threads build the same type at once, the first to publish wins. Every codec ever
/// built is kept for the life of the process, the losers' included: codecs refer to each other unowned, and a
/// published codec may point at a child that lost the race.
enum TypeRegistry {
    /// Tables depend on the key strategy, so codecs are cached per type and strategy.
    struct Key: Hashable {
        var type: ObjectIdentifier
        var strategy: KeyDecodingStrategy
    }

    private struct Codecs {
        var byType: [Key: ValueCodec] = [:]
        var retained: [ValueCodec] = []
        var tables: [FieldTable] = []
        /// Types that have no codec, with the problems that say why: asked again (the encoder asks of every value
        /// inside an `Any`), they are answered without building anything.
        var undecodable: [Key: [String]] = [:]
    }

    private static let codecs = Locked(Codecs())
    /// Problems found in models' declarations, by model type, reachable models included.
    private static let problemsByModel = Locked<[Key: [String]]>([:])

    /// The codec for `type`, and the problems found in its declaration (and in the models it contains).
    static func codec(for type: Any.Type, strategy: KeyDecodingStrategy = .useDefaultKeys)
        -> (codec: ValueCodec?, problems: [String])
    {
        let key = Key(type: ObjectIdentifier(type), strategy: strategy)
        if let codec = publishedCodec(key) {
            return (codec, problemsByModel.withLock { $0[key] } ?? [])
        }
        if let problems = codecs.withLock({ $0.undecodable[key] }) { return (nil, problems) }
        let factory = CodecFactory(root: key.type, strategy: strategy)
        let built = factory.codec(for: type, context: "\(type)")
        factory.finish()
        let codec = codecs.withLock { codecs in
            codecs.retained.append(contentsOf: factory.built.values)
            codecs.retained.append(contentsOf: factory.auxiliaryCodecs)
            codecs.tables.append(contentsOf: factory.tables)
            for (identifier, codec) in factory.built {
                let key = Key(type: identifier, strategy: strategy)
                if codecs.byType[key] == nil { codecs.byType[key] = codec }
            }
            return built == nil ? nil : codecs.byType[key]
        }
        problemsByModel.withLock { table in
            for (identifier, problems) in factory.problemsByModel {
                let key = Key(type: identifier, strategy: strategy)
                if table[key] == nil { table[key] = problems }
            }
        }
        let problems = factory.problemsByModel[key.type] ?? factory.problems(reachableFrom: key.type)
        if codec == nil { codecs.withLock { $0.undecodable[key] = problems } }
        return (codec, problems)
    }
}

/// Builds the codecs for one request: every type reachable from the requested one.
final class CodecFactory {
    let strategy: KeyDecodingStrategy
    private(set) var built: [ObjectIdentifier: ValueCodec] = [:]
    /// Codecs that belong to no type (transforms, nested key paths), kept alive with the rest.
    private(set) var auxiliaryCodecs: [ValueCodec] = []
    /// Tables of nested key paths, kept alive with the rest.
    private(set) var tables: [FieldTable] = []
    /// Problems found in each model's own properties.
    private var ownProblems: [ObjectIdentifier: [String]] = [:]
    /// The models each model's properties contain.
    private var containedModels: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
    /// The model whose table is being built, to which contained models and problems are attributed; the requested
    /// type itself while its own codec is made (so that `[Model]` answers for `Model`'s problems).
    private var currentModel: ObjectIdentifier?
    private let root: ObjectIdentifier
    /// Problems per model, reachable models included; filled by ``finish()``.
    private(set) var problemsByModel: [ObjectIdentifier: [String]] = [:]
    private lazy var anyCodec: AnyCodec = (codec(for: Any.self, context: "Any") as? AnyCodec) ?? AnyCodec()
    private lazy var textCodec: ValueCodec = codec(for: JSONText.self, context: "JSONText") ?? JSONTextCodec()

    init(root: ObjectIdentifier, strategy: KeyDecodingStrategy) {
        self.root = root
        self.strategy = strategy
        currentModel = root
    }

    /// The codec for `type`, or `nil` when the type can't be decoded.
    func codec(for type: Any.Type, context: @autoclosure () -> String) -> ValueCodec? {
        let key = ObjectIdentifier(type)
        if let codec = built[key] {
            noteContained(type, key)
            return codec
        }
        if let codec = TypeRegistry.publishedCodec(TypeRegistry.Key(type: key, strategy: strategy)) {
            built[key] = codec
            noteContained(type, key)
            return codec
        }
        guard let codec = make(type, context: context()) else { return nil }
        // Making a container can make it again inside (`[Node]` → `Node` → its `children: [Node]`): the codec made
        // first stays the type's codec, and both stay alive, since tables already point at the inner one.
        if let existing = built[key] {
            auxiliaryCodecs.append(codec)
            return existing
        }
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
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Any.self): return AnyCodec()
        case ObjectIdentifier(JSONValue.self): return JSONValueCodec()
        case ObjectIdentifier(JSONText.self): return JSONTextCodec()
        case ObjectIdentifier(Validation.self): return ValidationCodec()
        default: break
        }
        if let container = FoundationContainers.codec(for: type, anyCodec: anyCodec) { return container }
        if let custom = type as? any HandyJSONCustomTransformable.Type {
            return TransformCodec(
                adapter: .custom(custom), anyCodec: anyCodec, textCodec: textCodec, valueType: type, name: "\(type)")
        }
        if let enumType = type as? any HandyJSONEnum.Type { return makeEnum(enumType, context: context) }
        if let modelType = type as? any HandyJSON.Type {
            // An actor's state belongs to its executor: filling it from outside would be a data race.
            if type is any Actor.Type {
                ownProblems[ObjectIdentifier(type), default: []].append(
                    "\(type): an actor can't be filled from JSON (its state may only be touched on its executor); "
                        + "decode a struct and hand it to the actor")
                noteContained(type, ObjectIdentifier(type))
                return nil
            }
            return makeModel(modelType)
        }
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
        // Last, so that a type that is also a model, an enum, a scalar or a container takes that path.
        if let decodable = type as? any Decodable.Type { return makeDecodable(decodable) }
        return nil
    }

    private func makeDecodable<T: Decodable>(_: T.Type) -> ValueCodec { DecodableCodec<T>() }

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
        func problem(_ text: String) { ownProblems[key, default: []].append(text) }
        guard let properties = StoredProperty.of(Model.self) else {
            problem("\(modelName): the Swift runtime cannot list its stored properties")
            codec.table = FieldTable(modelName: modelName, isClass: isClass, slots: [], keys: [])
            return codec
        }
        let mapping = ResolvedMapping(MappingReader.read(Model.self), properties: properties, modelName: modelName)
        mapping.problems.forEach(problem)
        var root = PathNode()
        var candidateCount = 0
        for (index, property) in properties.enumerated() where property.isStrong {
            if mapping.excluded.contains(index) { continue }
            // Closures are never JSON; they can't be excluded by address either (Swift passes a re-abstracted copy
            // of a function value to a generic inout parameter), so they are left alone.
            if StoredProperty.isFunction(property.type) { continue }
            let rule = mapping.rules[index]
            if mapping.duplicates.contains(index) {
                problem("\(modelName).\(property.name): mapped twice in mapping(mapper:); the last mapping is used")
            }
            let propertyCodec: ValueCodec
            if let adapter = rule?.adapter {
                propertyCodec = TransformCodec(
                    adapter: adapter, anyCodec: anyCodec, textCodec: textCodec, valueType: property.type,
                    name: "the transform of \(modelName).\(property.name)")
                auxiliaryCodecs.append(propertyCodec)
            } else if let found = self.codec(for: property.type, context: "\(modelName).\(property.name)") {
                propertyCodec = found
            } else if !property.isVar {
                continue  // a `let` is only written, and one of a type that can't be written is left out
            } else {
                problem("\(modelName).\(property.name): a property of type \(property.type) can't be decoded; "
                    + "make the type HandyJSON or HandyJSONEnum, or exclude the property in mapping(mapper:)")
                continue
            }
            let keys = rule?.keys ?? [strategy.key(forProperty: property.name)]
            guard !keys.isEmpty else {
                problem("\(modelName).\(property.name): mapped to an empty list of keys")
                continue
            }
            guard keys.count < FieldTable.maximumPriority else {
                problem("\(modelName).\(property.name): mapped to more than \(FieldTable.maximumPriority) keys")
                continue
            }
            // Candidates are ranked across levels (`["id", "info.id"]`), so the rank is the property's own, kept
            // in one record per model that its nested key paths share.
            var candidate = -1
            if keys.count > 1 {
                candidate = candidateCount
                candidateCount += 1
            }
            for (priority, key) in keys.enumerated() {
                let segments = MappedKeyPath.segments(of: key)
                guard !segments.isEmpty else {
                    problem("\(modelName).\(property.name): the key '\(key)' has no segment and can never match")
                    continue
                }
                let slot = FieldTable.Slot(
                    name: property.name, key: key, offset: property.offset, codec: propertyCodec,
                    writes: priority == 0, isMapped: rule?.keys != nil, candidate: candidate)
                // A `let` is written but never decoded: it gets a slot and no key.
                if let conflict = root.insert(slot, path: segments, priority: priority, decodes: property.isVar) {
                    problem("\(modelName).\(property.name): the key '\(key)' can never match: \(conflict)")
                }
            }
        }
        codec.table = root.table(
            modelName: modelName, isClass: isClass, candidateCount: candidateCount, factory: self)
        return codec
    }

    /// Makes the codec of a nested key path's object, with its table.
    fileprivate func pathCodec(_ node: PathNode, modelName: String, candidateCount: Int) -> PathCodec {
        let pathCodec = PathCodec()
        let table = node.table(modelName: modelName, isClass: false, candidateCount: candidateCount, factory: self)
        pathCodec.table = table
        tables.append(table)
        auxiliaryCodecs.append(pathCodec)
        return pathCodec
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
            found += ownProblems[model]
                ?? TypeRegistry.publishedProblems(TypeRegistry.Key(type: model, strategy: strategy)) ?? []
            for next in containedModels[model] ?? [] where seen.insert(next).inserted { pending.append(next) }
        }
        return found
    }
}

/// The keys of one object level while a table is built: direct keys, and nested objects for key paths.
private struct PathNode {
    var slots: [FieldTable.Slot] = []
    var keys: [FieldTable.Key] = []
    var children: [String: PathNode] = [:]
    /// The order children were first named in.
    var childOrder: [String] = []

    /// Adds a slot read (when `decodes`) and written at `path`; returns why it can never match, when it can't.
    mutating func insert(_ slot: FieldTable.Slot, path: [String], priority: Int, decodes: Bool) -> String? {
        let head = path[0]
        if path.count == 1 {
            if children[head] != nil { return "'\(head)' is also the start of a nested key path" }
            if let other = slots.firstIndex(where: { $0.key == head && $0.name != slot.name }) {
                return "'\(head)' is already read by \(slots[other].name)"
            }
            let index: Int
            if let existing = slots.firstIndex(where: { $0.name == slot.name && $0.offset == slot.offset }) {
                index = existing
            } else {
                index = slots.count
                var placed = slot
                placed.key = head
                slots.append(placed)
            }
            if decodes { keys.append(FieldTable.Key(bytes: Array(head.utf8), slot: index, priority: priority)) }
            return nil
        }
        if slots.contains(where: { $0.key == head }) {
            return "'\(head)' is the key of a property, not an object of its own"
        }
        if children[head] == nil { childOrder.append(head) }
        return children[head, default: PathNode()].insert(
            slot, path: Array(path.dropFirst()), priority: priority, decodes: decodes)
    }

    /// Whether some property is written at or below this level.
    var writesAnything: Bool { slots.contains(where: \.writes) || children.values.contains(where: \.writesAnything) }

    /// The table of this level; nested objects become slots whose codec is a ``PathCodec``.
    func table(modelName: String, isClass: Bool, candidateCount: Int, factory: CodecFactory) -> FieldTable {
        var slots = self.slots
        var keys = self.keys
        for name in childOrder {
            let child = children[name]!
            let pathCodec = factory.pathCodec(child, modelName: modelName, candidateCount: candidateCount)
            keys.append(FieldTable.Key(bytes: Array(name.utf8), slot: slots.count, priority: 0))
            slots.append(FieldTable.Slot(
                name: name, key: name, offset: 0, codec: pathCodec, writes: child.writesAnything, isMapped: true))
        }
        return FieldTable(
            modelName: modelName, isClass: isClass, slots: slots, keys: keys, candidateCount: candidateCount,
            caseInsensitive: factory.strategy.isCaseInsensitive)
    }
}

/// What `mapping(mapper:)` says of each stored property (by its index in the list of stored properties).
///
/// A property is found by the address it was passed at and by its type: a zero-sized property shares its offset with
/// the next one, so the offset alone could name either. A lazy, weak, unowned or observed (`willSet`/`didSet`)
/// property is passed as a temporary copy whose address is no offset; a lazy, weak or unowned one is then found by
/// its type when no other property has that type, and anything else is reported, with the properties it may be.
struct ResolvedMapping {
    private(set) var rules: [Int: MappingPropertyHandler] = [:]
    private(set) var excluded: Set<Int> = []
    private(set) var duplicates: Set<Int> = []
    private(set) var problems: [String] = []

    init(_ mapper: HelpingMapper, properties: [StoredProperty], modelName: String) {
        for (named, handler) in mapper.mappings {
            guard let index = resolve(named, properties, modelName, "maps") else { continue }
            let property = properties[index]
            if !property.isStrong {
                problems.append("\(modelName).\(property.name): a weak or unowned property is never decoded; "
                    + "remove its mapping")
                continue
            }
            if property.isLazy && handler.adapter != nil {
                problems.append("\(modelName).\(property.name): a transform on a lazy property is not supported; "
                    + "make it a plain var")
                continue
            }
            if rules[index] != nil { duplicates.insert(index) }
            rules[index] = handler
        }
        for named in mapper.exclusions {
            if let index = resolve(named, properties, modelName, "excludes") { excluded.insert(index) }
        }
    }

    private mutating func resolve(
        _ named: MappedProperty, _ properties: [StoredProperty], _ modelName: String, _ verb: String
    ) -> Int? {
        if let index = properties.indices.first(where: {
            properties[$0].offset == named.offset && named.type.matches(properties[$0].type)
        }) {
            return index
        }
        // A copy: any property of that type may be meant (an observed one can't be told from a plain one).
        let sameType = properties.indices.filter { index in
            let property = properties[index]
            return named.type.matches(property.type)
                || (property.isLazy && ObjectIdentifier(property.type) == ObjectIdentifier(named.type.lazyStorageType))
        }
        if sameType.count == 1, properties[sameType[0]].isLazy || !properties[sameType[0]].isStrong {
            return sameType[0]
        }
        var text = "\(modelName): mapping(mapper:) \(verb) a property of type \(named.type.type) that is not stored "
            + "in place: a computed property, or a lazy, weak, unowned or observed (willSet/didSet) one, which Swift "
            + "passes as a copy"
        if !sameType.isEmpty {
            text += "; it may be " + sameType.map { properties[$0].name }.joined(separator: ", or ")
                + " (HandyStream can't tell which; a property with willSet/didSet can't be mapped)"
        }
        problems.append(text)
        return nil
    }
}

/// Runs a model's `mapping(mapper:)` once, on an instance whose address is known, so that the properties it names
/// can be told apart by their offsets.
enum MappingReader {
    static func read<Model: HandyJSON>(_: Model.Type) -> HelpingMapper {
        var instance = Model()
        if Model.self is AnyClass {
            let base = withUnsafeMutablePointer(to: &instance) { ModelStorage.objectBase(referenceAt: $0) }
            let mapper = HelpingMapper(base: UnsafeRawPointer(base))
            instance.mapping(mapper: mapper)
            return mapper
        }
        return withUnsafeMutablePointer(to: &instance) { pointer in
            let mapper = HelpingMapper(base: UnsafeRawPointer(pointer))
            pointer.pointee.mapping(mapper: mapper)
            return mapper
        }
    }
}

extension TypeRegistry {
    fileprivate static func publishedCodec(_ key: Key) -> ValueCodec? {
        codecs.withLock { $0.byType[key] }
    }

    fileprivate static func publishedProblems(_ key: Key) -> [String]? {
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
