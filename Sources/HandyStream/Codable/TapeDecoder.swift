import Foundation

/// One value's recorded events and coding paths, shared by a decoder and those it hands out. Manual memory, so that
/// reads skip the exclusivity check; the last tape freed (up to ``spareLimit`` bytes) is kept for the next.
final class TapeStorage {
    let tape = UnsafeMutablePointer<Tape>.allocate(capacity: 1)
    /// The coding paths of the value being decoded, dropped when a root value starts.
    let paths: CodingPaths

    init() {
        let spare = Self.spare.withLock { $0.take() }
        tape.initialize(to: spare?.tape ?? Tape())
        paths = spare?.paths ?? CodingPaths()
    }

    deinit {
        var freed = tape.move()
        tape.deallocate()
        freed.reset()
        paths.removeAll()
        guard freed.allocatedBytes + paths.allocatedBytes <= Self.spareLimit else {
            paths.deallocate()
            return freed.deallocate()
        }
        let kept = Spare(tape: freed, paths: paths)
        let unwanted = Self.spare.withLock { spare -> Spare? in
            if spare == nil {
                spare = kept
                return nil
            }
            return kept
        }
        unwanted?.tape.deallocate()
        unwanted?.paths.deallocate()
    }

    /// A freed tape and its paths: plain memory, owned by whoever holds it.
    private struct Spare {
        var tape: Tape
        var paths: CodingPaths
    }
    private static let spare = Locked<Spare?>(nil)
    static let spareLimit = 8 << 20
}

/// A `Decoder` over a ``Tape``: strict, as `JSONDecoder` (results and errors), or lenient (the README's rules).
///
/// One decoder serves a whole value: a member moves ``current`` and ``node`` and restores them, as `JSONDecoder`
/// does. Token `-1` is "absent": lenient mode decodes a type's default from it.
final class TapeDecoder: Decoder {
    let storage: TapeStorage
    let context: CodableContext
    /// The token of the value being decoded, or -1.
    var current = -1
    /// `JSONDecoder`'s decoder path: that of the value whose `init(from:)` runs.
    var node: CodingPathNode
    var mapping: ModelRules?
    /// Asked only for diagnostics; weak, as a decoder a user keeps from `superDecoder()` may outlive it.
    weak var builder: Builder?
    var pathPrefix: String { builder?.currentPath() ?? "$" }
    /// The token the last error is about, for its line and column.
    var errorToken = -1
    /// Set when a root value starts; `nesting` counts the open `init(from:)` calls.
    private var stackBudget = StackBudget(unlimited: ())
    private var nesting = 0

    func hasStackRoom(depth: Int) -> Bool { stackBudget.hasRoom(nesting: nesting + depth) }
    /// One maker per key type, in manual memory: a class property would add an exclusivity check to each read.
    private let keyedMakers = UnsafeMutablePointer<KeyedContainerMakers>.allocate(capacity: 1)
    /// Keyed containers are pooled only during a root value; the makers reclaim them when it is done.
    private var poolsContainers = false
    /// Whether a keyed container was made since the root value started: only then do the makers reclaim.
    private var madeKeyedContainers = false
    /// The rescue state of the value whose `init(from:)` runs, `nil` while it runs strictly (see Rescue.swift); a
    /// decoder from `superDecoder()` sees it from where its value sits.
    var scope: ContainerRescue?
    /// Nested values made from nothing, capped: a type that contains itself would never end.
    private var fromNothingDepth = 0
    static let fromNothingLimit = 32

    /// The decoder this one was detached from (``detached(at:node:rescue:)``). Never read: holding it tells
    /// its owner (``DecodableFrame``, the builder's scalar decoder) to give the next value a new tape rather than
    /// reset the one a kept decoder still reads, as `JSONDecoder` allows.
    private let source: TapeDecoder?

    init(storage: TapeStorage, context: CodableContext, source: TapeDecoder? = nil) {
        self.storage = storage
        self.context = context
        self.source = source
        node = storage.paths.root
        keyedMakers.initialize(to: Self.spareMakers.withLock { $0.take() } ?? KeyedContainerMakers())
    }

    deinit {
        let makers = keyedMakers.move()
        keyedMakers.deallocate()
        for maker in makers.reclaimers { maker.unbind() }
        // Freed after the lock is released, at the end of this scope.
        let unwanted = Self.spareMakers.withLock { spare -> KeyedContainerMakers? in
            guard spare == nil else { return makers }
            spare = makers
            return nil
        }
        _ = unwanted
    }

    /// The last freed decoder's makers, for the next decoder. Each root value's reclaim makes the pools forget
    /// containers held elsewhere, so these hold no container anything else holds.
    private static let spareMakers = Locked<KeyedContainerMakers?>(nil)

    @inline(__always) var tape: UnsafeMutablePointer<Tape> { storage.tape }

    var strict: Bool { context.options.strict }

    var codingPath: [any CodingKey] { node.path }
    var userInfo: [CodingUserInfoKey: Any] { context.options.userInfo }

    var errorOffset: Int {
        let tokens = tape.pointee.tokens
        if errorToken >= 0 && errorToken < tokens.count { return tokens[errorToken].offset }
        return tokens.count > 0 ? tokens[0].offset : 0
    }

    // MARK: - Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let rescue = scope
        let object = try keyedObject(at: current, node: node, absentAllowed: rescue?.route(nil) != nil)
        return keyedDecodingContainer(at: object, node: node, mapping: mapping, rescue: rescue, Key.self)
    }

    /// Made by the maker kept for `Key`, pooled while a root value is decoded.
    @inline(__always)
    func keyedDecodingContainer<Key: CodingKey>(
        at object: Int, node: CodingPathNode, mapping: ModelRules?, rescue: ContainerRescue?, _: Key.Type
    ) -> KeyedDecodingContainer<Key> {
        madeKeyedContainers = true
        guard let known = keyedMakers.pointee.maker(for: ObjectIdentifier(Key.self)) else {
            return _slowpath_keyedContainerMaker(Key.self).wrapped(
                self, object, node, mapping, rescue, pooled: poolsContainers)
        }
        // The maker kept under `Key`'s identity is `Key`'s (asserted); read unretained.
        assert(known.takeUnretainedValue() is KeyedMaker<Key>, "TapeDecoder: a maker kept under another key type")
        return Unmanaged<KeyedMaker<Key>>.fromOpaque(known.toOpaque())._withUnsafeGuaranteedRef {
            $0.wrapped(self, object, node, mapping, rescue, pooled: poolsContainers)
        }
    }

    typealias KeyedMaker<Key: CodingKey> = TapeKeyedContainerMaker<TapeKeyedContainer<Key>, KeyedDecodingContainer<Key>>

    /// Out of line: only here is the maker type's metadata looked up.
    @inline(never)
    private func _slowpath_keyedContainerMaker<Key: CodingKey>(_: Key.Type) -> KeyedMaker<Key> {
        keyedMakers.pointee.keep(KeyedMaker<Key>(), for: ObjectIdentifier(Key.self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let rescue = scope
        return try unkeyed(at: current, node: node, rescue: rescue, absentAllowed: rescue?.route(nil) != nil)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValueContainer(decoder: self, index: current, node: node, rescue: scope)
    }

    /// `index`, checked to be an object's token; -1 (absent, a container with no keys) only when `absentAllowed`.
    func keyedObject(at index: Int, node: CodingPathNode, absentAllowed: Bool) throws -> Int {
        if index >= 0 {
            let kind = tape.pointee.tokens[index].kind
            guard kind == .object else {
                throw mismatch([String: Any].self, at: index, node: node, found: kind)
            }
        } else if !absentAllowed {
            throw mismatch([String: Any].self, at: index, node: node, found: .null)
        }
        return index
    }

    /// An unkeyed container over the array at `index`; -1 as for ``keyedObject(at:node:absentAllowed:)``.
    func unkeyed(
        at index: Int, node: CodingPathNode, rescue: ContainerRescue?, absentAllowed: Bool = false
    ) throws -> TapeUnkeyedContainer {
        let header = try containerHeader(.array, at: index, node: { node }, absentAllowed: absentAllowed)
        let count = header.map { Int($0.start) } ?? 0
        return TapeUnkeyedContainer(decoder: self, array: index, count: count, node: node, rescue: rescue)
    }

    // MARK: - Values

    /// Decodes the tape as a `T` strictly, then in lenient mode again with the failed place rescued (Rescue.swift).
    func decodeRoot<T: Decodable>(_: T.Type, builder: Builder) throws -> T {
        let budget = StackBudget()
        if budget.room < OneTimeSetUp.typeRoomNeeded, TypeRegistry.isFirstSmallStackDecode(of: T.self) {
            rehearse(T.self, builder: builder)
        }
        self.builder = builder
        current = -1
        storage.paths.removeAll()
        node = storage.paths.root
        mapping = nil
        scope = nil
        errorToken = 0
        stackBudget = budget
        nesting = 0
        poolsContainers = true
        defer {
            current = 0
            node = storage.paths.root
            poolsContainers = false
            if madeKeyedContainers {
                madeKeyedContainers = false
                for maker in keyedMakers.pointee.reclaimers { maker.reclaim() }
            }
        }
        do {
            return try decode(T.self, at: 0, node: storage.paths.root)
        } catch let error as any RescuableFailure {
            if strict { throw Self.foundationError(error) }
            return try rescueRoot(T.self, after: error)
        }
    }

    /// The error as `JSONDecoder` throws it: a number that doesn't fit is `dataCorrupted` at the empty path.
    static func foundationError(_ error: any RescuableFailure) -> any Error {
        (error as? NumberNotRepresentable)?.decodingError ?? error
    }

    @inline(never)
    private func rescueRoot<T: Decodable>(_: T.Type, after strictError: any RescuableFailure) throws -> T {
        let token = errorToken
        storage.paths.removeAll()
        let mark = context.pendingCount
        do {
            let place = strictError.place(below: 0) ?? []
            let value = try decode(T.self, at: 0, node: storage.paths.root, rescue: RescueRequest(places: [place]))
            context.tellPending()
            return value
        } catch {
            context.dropPending(from: mark)
            guard error is any RescuableFailure else { throw error }
            // The strict error is what JSONDecoder says of the input.
            errorToken = token
            throw Self.foundationError(strictError)
        }
    }

    /// Decodes the value at `index` (-1: absent) as a `T`. `rescue` is `nil` for a strict decode, else the places
    /// to rescue inside it (see Rescue.swift). `node` is made only when needed.
    func decode<T: Decodable>(
        _: T.Type, at index: Int, node: @autoclosure () -> CodingPathNode, rescue: RescueRequest? = nil
    ) throws -> T {
        let traits = context.traits(of: T.self)
        // Other kinds go out of line, so that this path, taken by every value with containers, stays small.
        switch traits.kind {
        case .plain: break
        case .array(let array): return try array.decodeElements(self, at: index, node: node, rescue: rescue, as: T.self)
        case .rescuedCollection where rescue == nil: break
        default: return try decodeKnown(T.self, traits, at: index, node: node(), rescue: rescue)
        }
        guard stackBudget.hasRoom(nesting: nesting) else {
            errorToken = index
            throw StackExhausted(codingPath: node().path, call: "init(from:)")
        }
        guard rescue == nil && scope == nil else {
            return try decodeInRescue(T.self, at: index, node: node(), traits, rescue)
        }
        // Strict: no rescue state to save; a `nil` mapping outside and in is left alone (no reference counting).
        let saved = (current, self.node)
        let swapsMapping = traits.mappingReference != nil || mapping != nil
        let savedMapping = swapsMapping ? mapping : nil
        current = index
        self.node = node()
        if swapsMapping { mapping = traits.mapping }
        errorToken = index
        nesting += 1
        defer {
            (current, self.node) = saved
            if swapsMapping { mapping = savedMapping }
            nesting -= 1
        }
        return try finish(T(from: self), traits)
    }

    /// ``decode(_:at:node:rescue:)`` for the types the decoder reads itself, arrays aside.
    @inline(never)
    private func decodeKnown<T: Decodable>(
        _: T.Type, _ traits: TypeTraits, at index: Int, node: @autoclosure () -> CodingPathNode,
        rescue: RescueRequest?
    ) throws -> T {
        let convert = rescue != nil
        switch traits.kind {
        case .plain, .array:
            preconditionFailure("TapeDecoder.decodeKnown: decoded by decode(_:at:node:rescue:)")
        // The traits say `T` is exactly the type read, so the casts below are identities (no dynamic cast).
        case .string: return _identityCast(try decodeString(at: index, node: node(), convert: convert), to: T.self)
        case .int:
            return _identityCast(try decodeInteger(Int.self, at: index, node: node(), convert: convert), to: T.self)
        case .double: return _identityCast(try decodeDouble(at: index, node: node(), convert: convert), to: T.self)
        case .bool: return _identityCast(try decodeBool(at: index, node: node(), convert: convert), to: T.self)
        case .float: return _identityCast(try decodeFloat(at: index, node: node(), convert: convert), to: T.self)
        case .int64:
            return _identityCast(try decodeInteger(Int64.self, at: index, node: node(), convert: convert), to: T.self)
        case .int32:
            return _identityCast(try decodeInteger(Int32.self, at: index, node: node(), convert: convert), to: T.self)
        case .uint64:
            return _identityCast(try decodeInteger(UInt64.self, at: index, node: node(), convert: convert), to: T.self)
        case .date: return _identityCast(try decodeDate(at: index, node: node(), convert: convert), to: T.self)
        case .data: return _identityCast(try decodeData(at: index, node: node(), convert: convert), to: T.self)
        case .url: return _identityCast(try decodeURL(at: index, node: node(), convert: convert), to: T.self)
        case .decimal: return _identityCast(try decodeDecimal(at: index, node: node(), convert: convert), to: T.self)
        case .scalar(let scalar): return try read(scalar, at: index, node: node(), convert: convert, as: T.self)
        case .stringDictionary(let dictionary):
            return try dictionary.decodeMembers(self, at: index, node: node, rescue: rescue, as: T.self)
        case .optional(let optional):
            return try optional.decodeOptional(self, at: index, node: node, rescue: rescue, as: T.self)
        case .rescuedCollection(let collection):
            // Here only in rescue mode, so that an element that can't be rescued is dropped.
            guard let rescue else {
                preconditionFailure("TapeDecoder.decodeKnown: a strict collection is decoded by its init(from:)")
            }
            return try collection.decodeRescued(self, at: index, node: node, rescue: rescue, as: T.self)
        }
    }

    /// `Scalar` opened from the traits; `T` is `Scalar`.
    private func read<Scalar: TapeScalar, T>(
        _: Scalar.Type, at index: Int, node: CodingPathNode, convert: Bool, as _: T.Type
    ) throws -> T {
        _identityCast(try Scalar.read(self, at: index, node: node, convert: convert), to: T.self)
    }

    /// A value inside a rescued value (strict when `rescue` is `nil`), or a rescued value.
    @inline(never)
    private func decodeInRescue<T: Decodable>(
        _: T.Type, at index: Int, node: CodingPathNode, _ traits: TypeTraits, _ rescue: RescueRequest?
    ) throws -> T {
        let saved = (current, self.node, mapping, scope)
        current = index
        self.node = node
        mapping = traits.mapping
        errorToken = index
        nesting += 1
        defer {
            (current, self.node, mapping, scope) = saved
            nesting -= 1
        }
        guard let rescue else {
            scope = nil
            return try finish(T(from: self), traits)
        }
        return try decodeRescuing(T.self, traits, rescue)
    }

    @inline(__always)
    private func finish<T>(_ decoded: consuming T, _ traits: TypeTraits) -> T {
        // Consumed: a value with no hook is moved, not copied (a copy retains every reference in it).
        guard let hook = traits.hook else { return decoded }
        var value = decoded
        // The hook was made for `T`'s traits: the memory holds a `T`, which is the hook's model.
        withUnsafeMutablePointer(to: &value) { pointer in hook.withInstance { $0.finish(pointer) } }
        return value
    }

    /// Runs `T.init(from:)` rescuing the places asked for and known, retrying with each new place it throws at.
    @inline(never)
    private func decodeRescuing<T: Decodable>(_: T.Type, _ traits: TypeTraits, _ rescue: RescueRequest) throws -> T {
        let type = ObjectIdentifier(T.self)
        var places = rescue.places
        for known in context.rescuedPlaces(of: type) where !places.contains(known) { places.append(known) }
        let depth = node.depth
        let defaults = TypeRegistry.defaults(of: T.self)
        if rescue.everything {
            guard fromNothingDepth < Self.fromNothingLimit else {
                throw corrupted("No value to make a \(T.self) from.", at: current, node: node)
            }
            fromNothingDepth += 1
        }
        defer { if rescue.everything { fromNothingDepth -= 1 } }
        var attempts = 0
        while true {
            scope = ContainerRescue(places: places, everything: rescue.everything, defaults: defaults)
            let mark = context.pendingCount
            do {
                return try finish(T(from: self), traits)
            } catch let error as any RescuableFailure {
                context.dropPending(from: mark)
                attempts += 1
                guard !rescue.everything, attempts < Self.rescueAttemptLimit,
                    let place = error.place(below: depth), !places.contains(place)
                else { throw error }
                places.append(place)
                context.remember(place, of: type)
            }
        }
    }

    /// A document has finitely many places, but a user's `init(from:)` could make up new ones forever.
    static let rescueAttemptLimit = 4096

    /// What lenient mode puts in place of a value that failed with `error`, told as a diagnostic: `nil` for an
    /// optional, the owner's default for `key`, the type's `init()` (``EmptyInitializable``), or the type made from
    /// nothing; if none works, `error` is thrown.
    func replacement<T: Decodable>(
        for error: any RescuableFailure, _: T.Type, key: (any CodingKey)?, defaults: PropertyDefaults?,
        node: CodingPathNode
    ) throws -> T {
        func fallback() -> T? {
            if let none = T.self as? any OptionalDecoding.Type { return none.none as? T }
            if let key, let value = defaults?.value(for: key) as? T { return value }
            if let empty = T.self as? any EmptyInitializable.Type, let value = empty.init() as? T { return value }
            let saved = scope
            defer { scope = saved }
            return try? decode(T.self, at: -1, node: node, rescue: .everywhere)
        }
        guard let value = fallback() else { throw error }
        let replaced = T.self is any OptionalDecoding.Type ? "the value became nil" : "the default was used"
        context.report(pathPrefix, node, "\(error.summary); \(replaced)")
        return value
    }

    // MARK: - Errors

    /// The error for a token of the wrong kind, in `JSONDecoder`'s words: `valueNotFound` for null (and for -1,
    /// absent), but a type mismatch for a null `Bool`. `byContainer`: name a null `[Any]` or `[String: Any]` as
    /// a container, as `JSONDecoder` does when it asked for one.
    func mismatch(
        _ type: Any.Type, at index: Int, node: CodingPathNode, found kind: Tape.Kind, byContainer: Bool = true
    ) -> DecodingError {
        errorToken = index
        if kind == .null && type != Bool.self {
            var what = "value of type \(type)"
            if byContainer && type == [String: Any].self { what = "keyed decoding container" }
            if byContainer && type == [Any].self { what = "unkeyed decoding container" }
            return DecodingError.valueNotFound(
                type, .init(codingPath: node.path, debugDescription: "Cannot get \(what) -- found null value instead"))
        }
        return DecodingError.typeMismatch(
            type,
            .init(
                codingPath: node.path,
                debugDescription: "Expected to decode \(type) but found \(Self.describe(kind)) instead."))
    }

    func corrupted(_ message: String, at index: Int, node: CodingPathNode) -> DecodingError {
        errorToken = index
        return DecodingError.dataCorrupted(.init(codingPath: node.path, debugDescription: message))
    }

    static func describe(_ kind: Tape.Kind) -> String {
        switch kind {
        case .object: "a dictionary"
        case .array: "an array"
        case .string, .key: "a string"
        case .number: "number"
        case .true, .false: "bool"
        case .null: "null"
        }
    }

    func kind(at index: Int) -> Tape.Kind { index < 0 ? .null : tape.pointee.tokens[index].kind }

    /// Calls `body` with each element of the array at `index`: the element's token and its index in the array.
    @inline(__always)
    func forEachElement(ofArrayAt index: Int, _ body: (_ position: Int, _ count: Int) throws -> Void) rethrows {
        let end = Int(tape.pointee.tokens[index].length)
        var position = index + 1
        var count = 0
        while position < end {
            let next = tape.pointee.next(after: position)
            try body(position, count)
            position = next
            count += 1
        }
    }

    /// Calls `body` with the token of each member's key in the object at `index` (the value's is the next).
    @inline(__always)
    func forEachMember(ofObjectAt index: Int, _ body: (_ key: Int) throws -> Void) rethrows {
        _ = try firstMember(ofObjectAt: index) { position in
            try body(position)
            return false
        }
    }

    @inline(__always)
    func firstMember(ofObjectAt index: Int, where matches: (_ key: Int) throws -> Bool) rethrows -> Int? {
        let end = Int(tape.pointee.tokens[index].length)
        var position = index + 1
        while position < end {
            let next = tape.pointee.next(after: position + 1)
            if try matches(position) { return position + 1 }
            position = next
        }
        return nil
    }

    func string(at index: Int) -> String { String(jsonBytes: tape.pointee.bytes(of: index)) }

    /// The key at `index` as the type's coding keys see it: after the key strategy's conversion of document keys.
    func documentKey(at index: Int, path: @autoclosure () -> [any CodingKey] = []) -> String {
        let key = string(at: index)
        guard context.documentKeysAreConverted else { return key }
        return context.options.keyDecodingStrategy.documentKey(key, path: path())
    }
}

// MARK: - Scalars

/// A scalar the decoder reads itself, wherever it sits. Called on concrete types, so specialised; only
/// ``TypeTraits/Kind/scalar(_:)`` calls through the metatype.
protocol TapeScalar: Decodable {
    static func read(
        _ decoder: TapeDecoder, at index: Int, node: @autoclosure () -> CodingPathNode, convert: Bool
    ) throws -> Self
}

extension TapeScalar where Self: FixedWidthInteger {
    static func read(
        _ decoder: TapeDecoder, at index: Int, node: @autoclosure () -> CodingPathNode, convert: Bool
    ) throws -> Self {
        try decoder.decodeInteger(Self.self, at: index, node: node(), convert: convert)
    }
}

extension Int8: TapeScalar {}
extension Int16: TapeScalar {}
extension Int128: TapeScalar {}
extension UInt: TapeScalar {}
extension UInt8: TapeScalar {}
extension UInt16: TapeScalar {}
extension UInt32: TapeScalar {}
extension UInt128: TapeScalar {}

extension TapeDecoder {
    /// Reads the scalar at `index` with `strictRead` (what `JSONDecoder` accepts), then, when `convert` (a rescued
    /// place), through `Conversion`; -1 gives `absent`. A refused number is "does not fit" when
    /// `numberMayNotFit`, as in `JSONDecoder`.
    @inline(__always)
    private func scalar<Conversion: ScalarConversion>(
        _: Conversion.Type, at index: Int, node: () -> CodingPathNode, convert: Bool,
        strict strictRead: (Tape.Kind, UnsafeRawBufferPointer) -> Conversion.Value?,
        numberMayNotFit: Bool = false,
        absent: Conversion.Value
    ) throws -> Conversion.Value {
        let type = Conversion.Value.self
        guard index >= 0 else {
            if convert { return absent }
            throw mismatch(type, at: index, node: node(), found: .null)
        }
        let kind = tape.pointee.tokens[index].kind
        if kind == .object || kind == .array || kind == .null {
            throw mismatch(type, at: index, node: node(), found: kind)
        }
        // Not a closure-taking method on `pointee`, which would copy the tape's struct per value.
        let bytes = tape.pointee.bytes(of: index)
        if let value = strictRead(kind, bytes) { return value }
        let json5 = context.options.allowsJSON5
        if convert, let value = Self.converted(Conversion.self, kind, bytes, json5) {
            return value
        }
        if numberMayNotFit && kind == .number {
            errorToken = index
            throw NumberNotRepresentable(codingPath: node().path, text: context.options.numberText(bytes))
        }
        throw mismatch(type, at: index, node: node(), found: kind)
    }

    /// Lenient mode's reading of a scalar token, by its kind (see ``ScalarConversion/value(number:json5:)``).
    @inline(__always)
    private static func converted<Conversion: ScalarConversion>(
        _: Conversion.Type, _ kind: Tape.Kind, _ bytes: UnsafeRawBufferPointer, _ json5: Bool
    ) -> Conversion.Value? {
        switch kind {
        case .number: Conversion.value(number: bytes, json5: json5)
        case .string: Conversion.value(string: bytes)
        case .true: Conversion.value(bool: true)
        case .false: Conversion.value(bool: false)
        default: nil
        }
    }

    func decodeInteger<I: FixedWidthInteger>(
        _ type: I.Type, at index: Int, node: @autoclosure () -> CodingPathNode, convert: Bool = false
    ) throws -> I {
        try scalar(
            IntegerConversion<I>.self, at: index, node: node, convert: convert,
            strict: { kind, bytes in kind == .number ? Self.foundationInteger(bytes, I.self) : nil },
            numberMayNotFit: true, absent: 0)
    }

    func decodeDouble(at index: Int, node: @autoclosure () -> CodingPathNode, convert: Bool = false) throws -> Double {
        try scalar(
            DoubleConversion.self, at: index, node: node, convert: convert,
            strict: { kind, bytes in
                kind == .number
                    ? Self.foundationDouble(bytes) ?? self.json5Special(bytes)
                    : kind == .string ? self.nonConforming(bytes) : nil
            },
            numberMayNotFit: true, absent: 0)
    }

    func decodeFloat(at index: Int, node: @autoclosure () -> CodingPathNode, convert: Bool) throws -> Float {
        try scalar(
            FloatConversion.self, at: index, node: node, convert: convert,
            strict: { kind, bytes in
                kind == .number
                    ? Self.foundationFloat(bytes) ?? self.json5Special(bytes).map(Float.init)
                    : kind == .string ? self.nonConforming(bytes).map(Float.init) : nil
            },
            numberMayNotFit: true, absent: 0)
    }

    // Strict mode reads numbers as JSONDecoder does: an integer with a fraction or exponent goes through `Double`
    // (`9223372036854775807.0` is 2^63, no `Int`), and a zero is refused unless its digits are zeros (not `1e-400`).

    static func foundationInteger<I: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, _: I.Type) -> I? {
        if I.bitWidth > 64, let wide = IntegerConversion<I>.wide(bytes) { return wide }
        if let plain = DecimalText.plainInteger(token: bytes, as: I.self) { return plain }
        guard let text = DecimalText(token: bytes) else { return nil }
        // With a fraction or an exponent, JSONDecoder needs the `Double` to fit `I` exactly.
        guard text.hasFractionOrExponent else { return text.integer(I.self) }
        guard let double = text.double(text: bytes), let exact = I(exactly: double) else { return nil }
        // Past 2^53, as JSONDecoder: the `Decimal`'s integer, truncated toward zero; a significand (every digit
        // written) past `UInt64` is refused.
        if double.magnitude < 0x1p53 { return exact }
        guard
            let decimal = Decimal(
                string: String(decoding: bytes, as: UTF8.self), locale: Locale(identifier: "en_US_POSIX")),
            decimal.significand.magnitude <= Decimal(UInt64.max),
            var magnitude = UInt64("\(decimal.significand.magnitude)")
        else { return nil }
        if decimal.exponent < 0 {
            for _ in 0..<(-decimal.exponent) { magnitude /= 10 }
        } else {
            for _ in 0..<decimal.exponent {
                let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                magnitude = product
            }
        }
        guard let value = I(exactly: magnitude) else { return nil }
        if decimal.sign == .minus { return I.isSigned ? 0 - value : nil }
        return value
    }

    static func foundationDouble(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard let value = DecimalText.double(token: bytes) else { return nil }
        return value == 0 && hasNonZeroDigit(bytes) ? nil : value
    }

    static func foundationFloat(_ bytes: UnsafeRawBufferPointer) -> Float? {
        guard let text = DecimalText(token: bytes), let value = text.float(text: bytes) else { return nil }
        return value == 0 && hasNonZeroDigit(bytes) ? nil : value
    }

    /// Whether the digits before the exponent are not all zeros (`0e5` and `0.0e-7` are true zeros).
    private static func hasNonZeroDigit(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return true }
        }
        return false
    }

    /// JSON5's `Infinity`, `-Infinity` and `NaN` (``JSON5Text``), only in JSON5 input.
    private func json5Special(_ bytes: UnsafeRawBufferPointer) -> Double? {
        context.options.allowsJSON5 ? JSON5Text.special(bytes) : nil
    }

    /// `"Infinity"`-style strings, as the non-conforming float strategy names them.
    private func nonConforming(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard
            case .convertFromString(let positive, let negative, let nan) =
                context.options.nonConformingFloatDecodingStrategy
        else { return nil }
        let text = String(jsonBytes: bytes)
        if text == positive { return .infinity }
        if text == negative { return -.infinity }
        if text == nan { return .nan }
        return nil
    }

    func decodeBool(at index: Int, node: @autoclosure () -> CodingPathNode, convert: Bool) throws -> Bool {
        try scalar(
            BoolConversion.self, at: index, node: node, convert: convert,
            strict: { kind, _ in kind == .true ? true : kind == .false ? false : nil },
            absent: false)
    }

    func decodeString(at index: Int, node: @autoclosure () -> CodingPathNode, convert: Bool = false) throws -> String {
        try scalar(
            StringConversion.self, at: index, node: node, convert: convert,
            strict: { kind, bytes in kind == .string ? String(jsonBytes: bytes) : nil },
            absent: "")
    }

    // MARK: Foundation's types

    func decodeDecimal(at index: Int, node: @autoclosure () -> CodingPathNode, convert: Bool) throws -> Decimal {
        try scalar(
            DecimalConversion.self, at: index, node: node, convert: convert,
            strict: { kind, bytes in kind == .number ? DecimalConversion.value(number: bytes) : nil },
            numberMayNotFit: true, absent: 0)
    }

    func decodeURL(at index: Int, node: CodingPathNode, convert: Bool) throws -> URL {
        try refuseNull(URL.self, at: index, node: node, convert: convert)
        let text = try decodeString(at: index, node: node, convert: convert)
        guard let url = URL(string: text) else { throw corrupted("Invalid URL string.", at: index, node: node) }
        return url
    }

    /// A nested container from `make`; `make(true)` makes it empty at a rescued place (`inner`) where the value is
    /// missing or not a container.
    func nested<Container>(
        _ inner: ContainerRescue?, at node: @autoclosure () -> CodingPathNode, _ make: (Bool) throws -> Container
    ) throws -> Container {
        guard let inner, inner.route(nil) != nil else { return try make(false) }
        do {
            return try make(false)
        } catch let error as any RescuableFailure {
            context.report(pathPrefix, node(), "\(error.summary); read as empty")
            return try make(true)
        }
    }

    /// A decoder of its own at `index`, for `superDecoder()` and strategies that call user code; `rescue`: the rescue
    /// state its value sits in.
    func detached(at index: Int, node: CodingPathNode, rescue: ContainerRescue? = nil) -> TapeDecoder {
        let decoder = TapeDecoder(storage: storage, context: context, source: self)
        decoder.current = index
        decoder.node = node
        decoder.builder = builder
        decoder.stackBudget = stackBudget
        decoder.nesting = nesting
        decoder.scope = rescue
        return decoder
    }

    /// `JSONDecoder` refuses `null` as a `Date`, `Data` or `URL` before any strategy reads it; a rescue hands it on.
    private func refuseNull(_ type: Any.Type, at index: Int, node: CodingPathNode, convert: Bool) throws {
        if !convert && index >= 0 && tape.pointee.tokens[index].kind == .null {
            throw mismatch(type, at: index, node: node, found: .null)
        }
    }

    func decodeDate(at index: Int, node: CodingPathNode, convert: Bool) throws -> Date {
        try refuseNull(Date.self, at: index, node: node, convert: convert)
        switch context.options.dateDecodingStrategy {
        case .deferredToDate:
            return Date(timeIntervalSinceReferenceDate: try decodeDouble(at: index, node: node, convert: convert))
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, node: node, convert: convert))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, node: node, convert: convert) / 1000)
        case .iso8601:
            let text = try decodeString(at: index, node: node, convert: convert)
            guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                // At the decoder's path, without the date's key, as `JSONDecoder` reports it.
                throw corrupted("Expected date string to be ISO8601-formatted.", at: index, node: self.node)
            }
            return date
        case .custom(let closure):
            // `.formatted(_:)` is a custom strategy in this Foundation: its closure reads the string.
            return try closure(detached(at: index, node: node))
        @unknown default:
            return try Date(from: detached(at: index, node: node))
        }
    }

    func decodeData(at index: Int, node: CodingPathNode, convert: Bool) throws -> Data {
        try refuseNull(Data.self, at: index, node: node, convert: convert)
        switch context.options.dataDecodingStrategy {
        case .base64:
            let text = try decodeString(at: index, node: node, convert: convert)
            guard let data = Data(base64Encoded: text) else {
                throw corrupted("Encountered Data is not valid Base64.", at: index, node: node)
            }
            return data
        case .custom(let closure):
            return try closure(detached(at: index, node: node))
        case .deferredToData:
            return try Data(from: detached(at: index, node: node))
        @unknown default:
            return try Data(from: detached(at: index, node: node))
        }
    }
}

// MARK: - Finding members

extension TapeDecoder {
    /// The value token of member `key`: inline, the member at the object's hint (members mostly come in the order
    /// asked) or a small object's scan, else ``searchMember(_:in:)``.
    @inline(__always)
    func member(_ key: UnsafeRawBufferPointer, in object: Int) -> Int? {
        let tokens = tape.pointee.tokens
        let header = tokens[object]
        let end = Int(header.length)
        guard !context.caseInsensitive else { return searchMember(key, in: object) }
        let traits =
            header.flags
            & (Tape.KeyTraits.known.rawValue | Tape.KeyTraits.duplicates.rawValue | Tape.KeyTraits.nonASCII.rawValue)
        if traits == Tape.KeyTraits.known.rawValue {
            let predicted = Int(header.hint)
            if predicted > object && predicted < end && tape.pointee.key(at: predicted, is: key) {
                tape.pointee.setHint(tape.pointee.next(after: predicted + 1), ofObjectAt: object)
                return predicted + 1
            }
        } else if traits == 0 && Int(header.start) <= Self.smallObject {
            var position = object + 1
            while position < end {
                if tape.pointee.key(at: position, is: key) { return position + 1 }
                position = tape.pointee.next(after: position + 1)
            }
        }
        return searchMember(key, in: object)
    }

    /// ``member(_:in:)``'s search: from the hint, or from the first member when duplicates are not ruled out.
    @inline(never)
    func searchMember(_ key: UnsafeRawBufferPointer, in object: Int) -> Int? {
        let caseInsensitive = context.caseInsensitive
        let tokens = tape.pointee.tokens
        let bytes = tape.pointee.bytes
        let header = tokens[object]
        assert(header.kind == .object, "Tape: a member looked up outside an object")
        let end = Int(header.length)
        precondition(end <= tokens.count, "Tape: object end out of range")
        let first = object + 1
        let traits = Tape.KeyTraits(rawValue: header.flags)
        // Other bytes may be an equal String (`"cafe\u{301}"` and `"café"`); the first such member counts.
        if traits.contains(.nonASCII) && !caseInsensitive { return _slowpath_member(equalTo: key, in: object) }
        let start: Int
        if !traits.contains(.known) && Int(header.start) <= Self.smallObject {
            // Scanned from the first member, so the first of equal keys is found without knowing the traits.
            start = first
        } else {
            let known = traits.contains(.known) ? traits : tape.pointee.keyTraits(ofObjectAt: object)
            // With duplicate keys the first one counts, as in JSONDecoder.
            let hint = known.contains(.duplicates) ? first : Int(header.hint)
            start = hint > first && hint < end ? hint : first
        }
        func matches(_ position: Int) -> Bool {
            guard caseInsensitive else { return tape.pointee.key(at: position, is: key) }
            let token = tokens[position]
            guard Int(token.length) == key.count else { return false }
            if key.isEmpty { return true }
            let from = Int(token.start)
            precondition(from >= 0 && from + key.count <= bytes.count, "Tape: key bytes out of bounds")
            return ASCII.equalIgnoringCase(UnsafeRawBufferPointer(rebasing: bytes[from..<from + key.count]), key)
        }
        func next(_ position: Int) -> Int { tape.pointee.next(after: position + 1) }
        var found: (value: Int, after: Int)?
        var position = start
        while position < end {
            let after = next(position)
            if matches(position) {
                found = (position + 1, after)
                break
            }
            position = after
        }
        if found == nil {
            position = first
            while position < start {
                let after = next(position)
                if matches(position) {
                    found = (position + 1, after)
                    break
                }
                position = after
            }
        }
        guard let found else {
            // A non-ASCII key may be equal as a String to an ASCII one (the Kelvin sign and `K`).
            return traits.contains(.nonASCII) || !UTF8Validation.isASCII(key)
                ? _slowpath_member(equalTo: key, in: object) : nil
        }
        tape.pointee.setHint(found.after, ofObjectAt: object)
        return found.value
    }

    /// Objects this small are scanned from their first member, without their key traits.
    static var smallObject: Int { 8 }

    /// The first member whose key equals `key` as a `String`, as `JSONDecoder`'s dictionary finds it. ASCII keys
    /// are equal exactly when their bytes are, so only non-ASCII ones are compared as Strings.
    @inline(never)
    private func _slowpath_member(equalTo key: UnsafeRawBufferPointer, in object: Int) -> Int? {
        let keyIsASCII = UTF8Validation.isASCII(key)
        var wanted: String?
        return firstMember(ofObjectAt: object) { position in
            if tape.pointee.key(at: position, is: key) { return true }
            if keyIsASCII && UTF8Validation.isASCII(tape.pointee.bytes(of: position)) { return false }
            if wanted == nil { wanted = String(decoding: key, as: UTF8.self) }
            return string(at: position) == wanted
        }
    }

    /// The first member whose document key, converted by the key strategy, is `name`, as in `JSONDecoder`.
    @inline(never)
    private func _slowpath_member(convertedTo name: String, in object: Int, path: () -> [any CodingKey]) -> Int? {
        firstMember(ofObjectAt: object) { documentKey(at: $0, path: path()) == name }
    }

    /// ``lookUp(_:in:mapping:path:)`` when keys are literal, out of line so that ``member(_:in:)`` is inlined once.
    @inline(never)
    func member(named key: some CodingKey, in object: Int) -> Int? {
        guard object >= 0 else { return nil }
        var name = key.stringValue
        return name.withUTF8 { member(UnsafeRawBufferPointer($0), in: object) }
    }

    /// The mapping's candidates (the first present wins), else the key under the key strategy.
    func lookUp(_ key: some CodingKey, in object: Int, mapping: ModelRules?, path: () -> [any CodingKey]) -> Int? {
        guard object >= 0 else { return nil }
        var name = key.stringValue
        if let rule = mapping?.rule(for: key) {
            if rule.isExcluded { return nil }
            if let paths = rule.paths { return firstPresent(paths, in: object) }
        }
        if context.documentKeysAreConverted { return _slowpath_member(convertedTo: name, in: object, path: path) }
        if context.keysAreConverted {
            return context.convertedKey(name).withUnsafeBytes { member($0, in: object) }
        }
        return name.withUTF8 { member(UnsafeRawBufferPointer($0), in: object) }
    }

    /// The value token of the first of `candidates` (key paths, by their segments' bytes) present in `object`.
    private func firstPresent(_ candidates: [[[UInt8]]], in object: Int) -> Int? {
        for path in candidates {
            var position = object
            var found = true
            for segment in path {
                guard tape.pointee.tokens[position].kind == .object,
                    let value = segment.withUnsafeBytes({ member($0, in: position) })
                else {
                    found = false
                    break
                }
                position = value
            }
            if found { return position }
        }
        return nil
    }
}
