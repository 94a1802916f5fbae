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
    /// Neither of the two above: a key is found by its own bytes (``TapeDecoder/member(named:in:)``).
    let keysAreLiteral: Bool
    /// Key strategies other than `useDefaultKeys`: coding keys' string values to the keys they are read from.
    private var convertedKeys: [String: [UInt8]] = [:]
    /// The traits of the types met so far (``TypeTable``), in memory of their own (allocated by `init`, freed by
    /// `deinit`): every value asks, and a class property would add an exclusivity check to each question.
    private let traitsCache = UnsafeMutablePointer<TypeTable<TypeTraits>>.allocate(capacity: 1)
    /// Decodes `Decodable` scalars (one-token tapes), made when the first one is met.
    private var scalarDecoder: TapeDecoder?

    init(options: DecodingOptions) {
        self.options = options
        strict = options.strict
        userInfo = options.userInfo
        caseInsensitive = options.keyDecodingStrategy.isCaseInsensitive
        traitsCache.initialize(to: TypeTable())
        documentKeysAreConverted = options.keyDecodingStrategy.convertsDocumentKeys
        switch options.keyDecodingStrategy.kind {
        case .useDefaultKeys, .caseInsensitive: keysAreConverted = false
        default: keysAreConverted = true
        }
        keysAreLiteral = !keysAreConverted && !documentKeysAreConverted
    }

    deinit {
        traitsCache.deinitialize(count: 1)
        traitsCache.deallocate()
    }

    /// The decoder of a `Decodable` scalar, on a tape reset for it. A new one when a value's `init(from:)` kept the
    /// last (or one of its containers, or a decoder detached from it, which holds it): the kept one keeps reading
    /// its own tape.
    func decoderForScalar() -> TapeDecoder {
        if scalarDecoder == nil || !isKnownUniquelyReferenced(&scalarDecoder!) {
            scalarDecoder = TapeDecoder(storage: TapeStorage(), context: self)
        }
        scalarDecoder!.storage.tape.pointee.reset()
        return scalarDecoder!
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
        if let traits = traitsCache.pointee.value(for: ObjectIdentifier(type)) { return traits }
        return _slowpath_traits(type)
    }

    @inline(never)
    private func _slowpath_traits<T>(_ type: T.Type) -> TypeTraits {
        let traits = TypeRegistry.traits(of: type, strategy: options.keyDecodingStrategy)
        traitsCache.pointee.insert(traits, for: ObjectIdentifier(type))
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
