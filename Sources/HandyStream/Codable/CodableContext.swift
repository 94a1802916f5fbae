import Foundation

/// What every `Decodable` value decoded by one pipeline shares: the options, caches per type, and the pending
/// diagnostics.
final class CodableContext {
    let options: DecodingOptions
    /// Keys match whatever their ASCII case (the `caseInsensitive` key strategy).
    let caseInsensitive: Bool
    /// Coding keys go through the key strategy (one that converts names).
    let keysAreConverted: Bool
    /// Document keys go through the key strategy (Foundation's `convertFromSnakeCase` and custom strategy).
    let documentKeysAreConverted: Bool
    /// Neither of the two above: a key is found by its own bytes (``TapeDecoder/member(named:in:)``).
    let keysAreLiteral: Bool
    private var convertedKeys: [String: [UInt8]] = [:]
    /// Manual memory: every value asks, and a class property would add an exclusivity check to each question.
    private let traitsCache = UnsafeMutablePointer<TypeTable<TypeTraits>>.allocate(capacity: 1)
    private var scalarDecoder: TapeDecoder?

    init(options: DecodingOptions) {
        self.options = options
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

    /// On a tape reset for the scalar; a new one when a value's `init(from:)` kept the last, which keeps its tape.
    func decoderForScalar() -> TapeDecoder {
        if scalarDecoder == nil || !isKnownUniquelyReferenced(&scalarDecoder!) {
            scalarDecoder = TapeDecoder(storage: TapeStorage(), context: self)
        }
        scalarDecoder!.storage.tape.pointee.reset()
        return scalarDecoder!
    }

    /// The run is over: lets go of the scalar decoder, which holds this context (a cycle otherwise).
    func end() { scalarDecoder = nil }

    func convertedKey(_ name: String) -> [UInt8] {
        if let known = convertedKeys[name] { return known }
        let converted = Array(options.keyDecodingStrategy.key(forProperty: name).utf8)
        convertedKeys[name] = converted
        return converted
    }

    /// Worked out once per run.
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

    /// A failed rescue attempt takes its own back (``dropPending(from:)``); the rest are told when the root value is
    /// done (``tellPending()``).
    private var pending: [DecodingDiagnostic] = []

    /// The places each type needed rescued in this run (see Rescue.swift).
    private var rescued: [ObjectIdentifier: [RescuePath]] = [:]

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
