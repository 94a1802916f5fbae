/// What `mapping(mapper:)` says of each stored property, by index. A property is found by its address and type (a
/// zero-sized one shares its offset with the next); a lazy, weak, unowned or observed one is passed as a temporary
/// copy, then found by its type when no other property has it, or else reported with the properties it may be.
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
                problems.append(
                    "\(modelName).\(property.name): a weak or unowned property is never decoded; "
                        + "remove its mapping")
                continue
            }
            if property.isLazy && handler.adapter != nil {
                problems.append(
                    "\(modelName).\(property.name): a transform on a lazy property is not supported; "
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
        var text =
            "\(modelName): mapping(mapper:) \(verb) a property of type \(named.type.type) that is not stored "
            + "in place: a computed property, or a lazy, weak, unowned or observed (willSet/didSet) one, which Swift "
            + "passes as a copy"
        if !sameType.isEmpty {
            text +=
                "; it may be " + sameType.map { properties[$0].name }.joined(separator: ", or ")
                + " (HandyStream can't tell which; a property with willSet/didSet can't be mapped)"
        }
        problems.append(text)
        return nil
    }
}

/// Runs a model's `mapping(mapper:)` once, on an instance at a known address, so that properties are told by offset.
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
