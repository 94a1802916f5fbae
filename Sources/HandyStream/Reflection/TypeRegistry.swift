/// What is known of every type met so far, worked out once per type (and key strategy), outside the lock, and shared by
/// all threads: models' codecs and declaration problems, `Decodable` types' traits, defaults and root codecs. The first
/// answer published wins, yet every codec built is kept for good: codecs refer to each other unowned, and a published
/// one may point at a child that lost the race.
enum TypeRegistry {
    /// Tables depend on the key strategy; what doesn't is kept under `useDefaultKeys`.
    struct Key: Hashable {
        var type: ObjectIdentifier
        var strategy: KeyDecodingStrategy
    }

    private struct Known {
        var codecs: [Key: ValueCodec] = [:]
        var retained: [ValueCodec] = []
        var tables: [FieldTable] = []
        /// Types without a codec, and why: asked again (the encoder asks of each value in an `Any`), they cost nothing.
        var undecodable: [Key: [String]] = [:]
        var problemsByModel: [Key: [String]] = [:]
        /// `Decodable` types: how the decoder treats each (conformance checks cost more than a small decode).
        var traits: [Key: TypeTraits] = [:]
        /// The hooks the published traits refer to unretained (``TypeTraits/hook``), kept for the process's life (their
        /// mappings are kept by ``modelRules``).
        var hooks: [FinishingHook] = []
        /// `EmptyInitializable` types: what `init()` gives each property (`nil`: nothing to take).
        var defaults: [Key: PropertyDefaults?] = [:]
        var decodableCodecs: [Key: ValueCodec] = [:]
        /// `Decodable` types decoded on a small stack, rehearsed once (``TapeDecoder/rehearse(_:builder:)``).
        var rehearsed: Set<ObjectIdentifier> = []
        /// What models' `mapping(mapper:)` says, for the `Codable` route (`nil`: no model, or nothing said).
        var modelRules: [Key: ModelRules?] = [:]
    }

    private static let known = Locked(Known())

    /// What `path` holds for `key`, worked out by `make` the first time (outside the lock).
    private static func memo<Value>(
        _ path: WritableKeyPath<Known, [Key: Value]>, _ key: Key, make: () -> Value,
        published: (inout Known) -> Void = { _ in }
    ) -> Value {
        if let value = known.withLock({ $0[keyPath: path][key] }) { return value }
        let made = make()
        return known.withLock { known in
            if let value = known[keyPath: path][key] { return value }
            known[keyPath: path][key] = made
            published(&known)
            return made
        }
    }

    static func traits<T>(of type: T.Type, strategy: KeyDecodingStrategy) -> TypeTraits {
        var hook: FinishingHook?
        return memo(
            \.traits, Key(type: ObjectIdentifier(type), strategy: strategy),
            make: {
                let (traits, made) = TypeTraits.of(type, strategy: strategy)
                hook = made
                return traits
            },
            // Kept with the traits (a losing thread's hook is freed with its traits, which no one saw).
            published: { known in if let hook { known.hooks.append(hook) } })
    }

    static func defaults(of type: Any.Type) -> PropertyDefaults? {
        guard let empty = type as? any EmptyInitializable.Type else { return nil }
        return memo(\.defaults, Key(type: ObjectIdentifier(type), strategy: .useDefaultKeys)) {
            PropertyDefaults.make(empty)
        }
    }

    /// Whether `type` is decoded on a small stack for the first time (asked only on a small stack).
    static func isFirstSmallStackDecode(of type: Any.Type) -> Bool {
        known.withLock { $0.rehearsed.insert(ObjectIdentifier(type)).inserted }
    }

    /// What `mapping(mapper:)` says of `type`'s properties, for the `Codable` route; `nil`: no model, or nothing said.
    static func modelRules(of type: Any.Type) -> ModelRules? {
        memo(\.modelRules, Key(type: ObjectIdentifier(type), strategy: .useDefaultKeys)) { ModelRules.make(type) }
    }

    static func decodableCodec<D: Decodable>(_ type: D.Type) -> ValueCodec {
        memo(\.decodableCodecs, Key(type: ObjectIdentifier(type), strategy: .useDefaultKeys)) { DecodableCodec<D>() }
    }

    /// The codec for `type`, and the problems found in its declaration (and in the models it contains).
    static func codec(for type: Any.Type, strategy: KeyDecodingStrategy = .useDefaultKeys)
        -> (codec: ValueCodec?, problems: [String])
    {
        let key = Key(type: ObjectIdentifier(type), strategy: strategy)
        if let codec = publishedCodec(key) {
            return (codec, known.withLock { $0.problemsByModel[key] } ?? [])
        }
        if let problems = known.withLock({ $0.undecodable[key] }) { return (nil, problems) }
        let factory = CodecFactory(root: key.type, strategy: strategy)
        let built = factory.codec(for: type, context: "\(type)")
        factory.finish()
        let codec = known.withLock { known in
            known.retained.append(contentsOf: factory.built.values)
            known.retained.append(contentsOf: factory.auxiliaryCodecs)
            known.tables.append(contentsOf: factory.tables)
            for (identifier, codec) in factory.built {
                let key = Key(type: identifier, strategy: strategy)
                if known.codecs[key] == nil { known.codecs[key] = codec }
            }
            for (identifier, problems) in factory.problemsByModel {
                let key = Key(type: identifier, strategy: strategy)
                if known.problemsByModel[key] == nil { known.problemsByModel[key] = problems }
            }
            return built == nil ? nil : known.codecs[key]
        }
        let problems = factory.problemsByModel[key.type] ?? factory.problems(reachableFrom: key.type)
        if codec == nil { known.withLock { $0.undecodable[key] = problems } }
        return (codec, problems)
    }
}

extension TypeRegistry {
    static func publishedCodec(_ key: Key) -> ValueCodec? {
        known.withLock { $0.codecs[key] }
    }

    static func publishedProblems(_ key: Key) -> [String]? {
        known.withLock { $0.problemsByModel[key] }
    }
}
