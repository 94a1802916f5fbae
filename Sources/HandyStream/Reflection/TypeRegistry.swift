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

extension TypeRegistry {
    static func publishedCodec(_ key: Key) -> ValueCodec? {
        codecs.withLock { $0.byType[key] }
    }

    static func publishedProblems(_ key: Key) -> [String]? {
        problemsByModel.withLock { $0[key] }
    }
}
