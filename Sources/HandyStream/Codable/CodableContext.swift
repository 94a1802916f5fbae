import Foundation

/// What every `Decodable` value decoded by one pipeline shares: the options, caches per type, and the error that
/// made the root value fail, for the pipeline to throw.
final class CodableContext {
    let options: DecodingOptions
    let strict: Bool
    let userInfo: [CodingUserInfoKey: Any]
    /// Keys match whatever their ASCII case (the `caseInsensitive` key strategy).
    let caseInsensitive: Bool
    /// Coding keys go through the key strategy (one that converts names).
    let keysAreConverted: Bool
    /// `Decodable` types read document keys through the key strategy (Foundation's meaning of
    /// `convertFromSnakeCase` and of its custom strategy).
    let documentKeysAreConverted: Bool
    /// Key strategies other than `useDefaultKeys`: coding keys' string values to the keys they are read from.
    private var convertedKeys: [String: [UInt8]] = [:]
    /// The traits of the types met so far, and the last one asked for (an array's elements ask for the same type
    /// again and again), in memory of their own (allocated by `init`, freed by `deinit`): every value asks, and a
    /// class property would add an exclusivity check to each question.
    private struct TraitsCache {
        var lastType: ObjectIdentifier?
        var last: TypeTraits?
        /// The one asked for before the last: `[T?]` asks for `T?` and `T` in turn.
        var previousType: ObjectIdentifier?
        var previous: TypeTraits?
        var byType: [ObjectIdentifier: TypeTraits] = [:]
    }
    private let traitsCache = UnsafeMutablePointer<TraitsCache>.allocate(capacity: 1)
    /// The last error of a `Decodable` value at the root (or a scalar one anywhere), with the document offset of
    /// the token it is about: the pipeline throws it when the root value is missing.
    var lastFailure: (error: any Error, offset: Int)?

    init(options: DecodingOptions) {
        self.options = options
        strict = options.strict
        userInfo = options.userInfo
        caseInsensitive = options.keyDecodingStrategy.isCaseInsensitive
        traitsCache.initialize(to: TraitsCache())
        documentKeysAreConverted = options.keyDecodingStrategy.convertsDocumentKeys
        switch options.keyDecodingStrategy.kind {
        case .useDefaultKeys, .caseInsensitive: keysAreConverted = false
        default: keysAreConverted = true
        }
    }

    deinit {
        traitsCache.deinitialize(count: 1)
        traitsCache.deallocate()
    }

    /// The bytes a coding key is read from under the key strategy.
    func convertedKey(_ name: String) -> [UInt8] {
        if let known = convertedKeys[name] { return known }
        let converted = Array(options.keyDecodingStrategy.key(forProperty: name).utf8)
        convertedKeys[name] = converted
        return converted
    }

    /// What the decoder needs to know of `type`, worked out once per run.
    @inline(__always)
    func traits<T>(of type: T.Type) -> TypeTraits {
        let key = ObjectIdentifier(type)
        if traitsCache.pointee.lastType == key, let last = traitsCache.pointee.last { return last }
        if traitsCache.pointee.previousType == key, let previous = traitsCache.pointee.previous {
            swap(&traitsCache.pointee.lastType, &traitsCache.pointee.previousType)
            swap(&traitsCache.pointee.last, &traitsCache.pointee.previous)
            return previous
        }
        return _slowpath_traits(type)
    }

    @inline(never)
    private func _slowpath_traits<T>(_ type: T.Type) -> TypeTraits {
        let key = ObjectIdentifier(type)
        let traits: TypeTraits
        if let known = traitsCache.pointee.byType[key] {
            traits = known
        } else {
            traits = TypeRegistry.traits(of: type, strategy: options.keyDecodingStrategy)
            traitsCache.pointee.byType[key] = traits
        }
        traitsCache.pointee.previousType = traitsCache.pointee.lastType
        traitsCache.pointee.previous = traitsCache.pointee.last
        traitsCache.pointee.lastType = key
        traitsCache.pointee.last = traits
        return traits
    }

    /// The diagnostics of the rescues made since the root value started: a rescue attempt that fails takes its own
    /// back (``dropPending(from:)``), and the rest are told when the root value is done (``tellPending()``).
    private var pending: [DecodingDiagnostic] = []

    /// The places each type needed rescued in this run (see Rescue.swift).
    private var rescued: [ObjectIdentifier: [RescuePath]] = [:]

    /// Notes a lenient fallback, told to the diagnostics handler once the root value is done.
    func report(
        _ prefix: @autoclosure () -> String, _ node: @autoclosure () -> CodingPathNode,
        _ message: @autoclosure () -> String
    ) {
        guard options.diagnostics != nil else { return }
        pending.append(DecodingDiagnostic(path: prefix() + node().jsonPath, message: message()))
    }

    var pendingCount: Int { pending.count }

    func dropPending(from mark: Int) {
        if pending.count > mark { pending.removeSubrange(mark...) }
    }

    func tellPending() {
        guard let handler = options.diagnostics, !pending.isEmpty else { return }
        let told = pending
        pending.removeAll(keepingCapacity: true)
        told.forEach(handler)
    }

    func rescuedPlaces(of type: ObjectIdentifier) -> [RescuePath] { rescued[type] ?? [] }

    func remember(_ place: RescuePath, of type: ObjectIdentifier) {
        if rescued[type]?.contains(place) != true { rescued[type, default: []].append(place) }
    }
}

/// How the decoder treats one type: Foundation's special types, the model path, the fast container paths, and the
/// type's mapping.
struct TypeTraits: @unchecked Sendable {
    enum Kind {
        case plain
        /// Read by the decoder itself, without `init(from:)`.
        case string, int, double, bool, float, int64, int32, uint64
        case date, data, url, decimal
        /// `[Element]`, decoded element by element (in rescue mode, the elements that can't be rescued are dropped).
        case array(any LenientArray.Type)
        /// `[String: Value]`, its keys taken as they are (as Foundation does, whatever the key strategy).
        case stringDictionary(any LenientStringDictionary.Type)
        /// `Wrapped?`: `nil` for `null`, and in rescue mode for a value that can't be rescued.
        case optional(any OptionalDecoding.Type)
        /// `Set<Element>` and `[Int: Value]`: the standard library's `init(from:)` when strict, this library's in
        /// rescue mode (dropping what can't be rescued).
        case rescuedCollection(any RescuedCollection.Type)
    }

    var kind: Kind
    var mapping: MappingTable?
    var hasHook: Bool

    /// The traits of `type` under `strategy`, worked out (``TypeRegistry/traits(of:strategy:)`` keeps them).
    static func of<T>(_ type: T.Type, strategy: KeyDecodingStrategy) -> TypeTraits {
        var traits = TypeTraits(kind: .plain, mapping: nil, hasHook: false)
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): traits.kind = .string
        case ObjectIdentifier(Int.self): traits.kind = .int
        case ObjectIdentifier(Double.self): traits.kind = .double
        case ObjectIdentifier(Bool.self): traits.kind = .bool
        case ObjectIdentifier(Float.self): traits.kind = .float
        case ObjectIdentifier(Int64.self): traits.kind = .int64
        case ObjectIdentifier(Int32.self): traits.kind = .int32
        case ObjectIdentifier(UInt64.self): traits.kind = .uint64
        case ObjectIdentifier(Date.self): traits.kind = .date
        case ObjectIdentifier(Data.self): traits.kind = .data
        case ObjectIdentifier(URL.self): traits.kind = .url
        case ObjectIdentifier(Decimal.self): traits.kind = .decimal
        default:
            // A HandyJSON model that is also `Decodable` takes its `Decodable` declarations here (its coding keys,
            // its `init(from:)`), with `init()` as the source of its defaults.
            if let array = type as? any LenientArray.Type {
                traits.kind = .array(array)
            } else if let dictionary = type as? any LenientStringDictionary.Type {
                traits.kind = .stringDictionary(dictionary)
            } else if let optional = type as? any OptionalDecoding.Type {
                traits.kind = .optional(optional)
            } else if let collection = type as? any RescuedCollection.Type {
                traits.kind = .rescuedCollection(collection)
            }
        }
        if let mapped = type as? any DecodableMapping.Type {
            traits.mapping = MappingTable(keyMapping: mapped.keyMapping, defaults: mapped.defaultValues)
            traits.hasHook = true
        }
        return traits
    }
}

/// The coding path of the value being decoded, as a chain that costs nothing until an error or a diagnostic needs
/// it as an array or as a JSON path.
indirect enum CodingPathNode {
    case root
    case key(any CodingKey, CodingPathNode)
    case index(Int, CodingPathNode)

    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root: return keys.reversed()
            case .key(let key, let parent):
                keys.append(key)
                node = parent
            case .index(let index, let parent):
                keys.append(IndexKey(index))
                node = parent
            }
        }
    }

    /// `.user.tags[2]`, relative to where the value sits.
    var jsonPath: String { Self.jsonPath(of: path) }

    static func jsonPath(of path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }

    /// How many keys the path has.
    var depth: Int {
        var count = 0
        var node = self
        while true {
            switch node {
            case .root: return count
            case .key(_, let parent), .index(_, let parent):
                count += 1
                node = parent
            }
        }
    }

    func appending(_ key: any CodingKey) -> CodingPathNode { .key(key, self) }
    func appending(index: Int) -> CodingPathNode { .index(index, self) }
}

/// An element's position in an unkeyed container, named as Foundation names it.
struct IndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

/// A key made at run time (an object's members as `allKeys`, `super`).
struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
