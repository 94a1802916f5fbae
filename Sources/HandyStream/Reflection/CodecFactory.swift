/// Builds the codecs for one request: every type reachable from the requested one.
final class CodecFactory {
    let strategy: KeyDecodingStrategy
    private(set) var built: [ObjectIdentifier: ValueCodec] = [:]
    /// Codecs that belong to no type (transforms, nested key paths), kept alive with the rest.
    private(set) var auxiliaryCodecs: [ValueCodec] = []
    private(set) var tables: [FieldTable] = []
    private var ownProblems: [ObjectIdentifier: [String]] = [:]
    private var containedModels: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
    /// Who contained models and problems are attributed to: the model being built (the root while its codec is made).
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

    func codec(for type: Any.Type, context: @autoclosure () -> String) -> ValueCodec? {
        let key = ObjectIdentifier(type)
        if let codec = built[key] ?? TypeRegistry.publishedCodec(TypeRegistry.Key(type: key, strategy: strategy)) {
            built[key] = codec
            noteContained(key, isModel: codec.isModel)
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

    /// Asked of the codec, not the type: a failed cast to `HandyJSON` searches every conformance in the process.
    private func noteContained(_ key: ObjectIdentifier, isModel: Bool) {
        if isModel, let current = currentModel, current != key {
            containedModels[current, default: []].insert(key)
        }
    }

    private func make(_ type: Any.Type, context: String) -> ValueCodec? {
        if let scalar = ScalarCodecs.codec(for: type) { return scalar }
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Any.self): return AnyCodec()
        case ObjectIdentifier(JSONValue.self): return JSONValueCodec()
        case ObjectIdentifier(JSONText.self): return JSONTextCodec()
        case ObjectIdentifier(Validation.self): return JSONTextCodec(keepsText: false)
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
            if type is AnyClass, type is any Actor.Type {
                ownProblems[ObjectIdentifier(type), default: []].append(
                    "\(type): an actor can't be filled from JSON (its state may only be touched on its executor); "
                        + "decode a struct and hand it to the actor")
                noteContained(ObjectIdentifier(type), isModel: true)
                return nil
            }
            return makeModel(modelType)
        }
        if let container = type as? any ContainerMarker.Type {
            guard let element = codec(for: container.elementType, context: context) else { return nil }
            return container.makeCodec(element: element)
        }
        if let inline = type as? any InlineArrayMarker.Type {
            guard let element = codec(for: inline.elementType, context: context) else { return nil }
            return InlineArrayCodec(inline, element: element)
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
        // A model that is also `Encodable` falls back on its `CodingKeys` for properties its mapping doesn't map.
        let codingKeys =
            Model.self is any Encodable.Type ? TypeRegistry.defaults(of: Model.self)?.codingKeys ?? [:] : [:]
        var root = PathNode()
        var candidateCount = 0
        for (index, property) in properties.enumerated() where property.isStrong {
            if mapping.excluded.contains(index) { continue }
            // Closures are never JSON, nor excludable by address (Swift passes a re-abstracted copy): left alone.
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
                problem(
                    "\(modelName).\(property.name): a property of type \(property.type) can't be decoded; "
                        + "make the type HandyJSON or HandyJSONEnum, or exclude the property in mapping(mapper:)")
                continue
            }
            let keys = rule?.keys ?? [strategy.key(forProperty: codingKeys[property.name] ?? property.name)]
            guard !keys.isEmpty else {
                problem("\(modelName).\(property.name): mapped to an empty list of keys")
                continue
            }
            guard keys.count < FieldTable.maximumPriority else {
                problem("\(modelName).\(property.name): mapped to more than \(FieldTable.maximumPriority) keys")
                continue
            }
            // Candidates are ranked across levels: the rank is the property's own, in a record its nested paths share.
            var candidate = -1
            if keys.count > 1 {
                candidate = candidateCount
                candidateCount += 1
            }
            for (priority, key) in keys.enumerated() {
                let segments = DesignatedPath.mappedKey(key).map { String(decoding: $0, as: UTF8.self) }
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
        for key in built.keys where key == root || built[key]?.isModel == true {
            problemsByModel[key] = problems(reachableFrom: key)
        }
    }

    func problems(reachableFrom start: ObjectIdentifier) -> [String] {
        var seen: Set<ObjectIdentifier> = [start]
        var pending = [start]
        var found: [String] = []
        while let model = pending.popLast() {
            found +=
                ownProblems[model]
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

    var writesAnything: Bool { slots.contains(where: \.writes) || children.values.contains(where: \.writesAnything) }

    /// The table of this level; nested objects become slots whose codec is a ``PathCodec``.
    func table(modelName: String, isClass: Bool, candidateCount: Int, factory: CodecFactory) -> FieldTable {
        var slots = self.slots
        var keys = self.keys
        for name in childOrder {
            let child = children[name]!
            let pathCodec = factory.pathCodec(child, modelName: modelName, candidateCount: candidateCount)
            keys.append(FieldTable.Key(bytes: Array(name.utf8), slot: slots.count, priority: 0))
            slots.append(
                FieldTable.Slot(
                    name: name, key: name, offset: 0, codec: pathCodec, writes: child.writesAnything, isMapped: true))
        }
        return FieldTable(
            modelName: modelName, isClass: isClass, slots: slots, keys: keys, candidateCount: candidateCount,
            caseInsensitive: factory.strategy.isCaseInsensitive)
    }
}
