import Foundation

// Keyed containers used again. `KeyedDecodingContainer.init` puts the container into a box of the standard library's,
// `_KeyedDecodingContainerBox<Container>`, whose type metadata the runtime looks up in its cache on every call (the
// standard library's code is not specialized for ours) and whose allocation is freed when the container goes, for
// every container. A decoder that decodes a root value keeps the containers it made, per key type, and hands a kept
// one out again once nothing but the pool holds its box; the container reads what changes (the object, the coding
// path, the mapping, the rescue) from a ``TapeKeyedState`` that the box holds.

/// What a keyed container reads: its decoder, its object and coding path, and the mapping and rescue state of the
/// value that made it. A pooled container's state is set again when the container is handed out again.
final class TapeKeyedState {
    /// The decoder that made the container, or handed it out last. Unretained, so that a pool, which its decoder
    /// owns, holds no cycle: the decoder lives while it decodes a root value (its caller holds it), and a container
    /// that may outlive that holds the decoder in ``keeper``. (A pool passed on to a later decoder with its makers,
    /// ``TapeDecoder/spareMakers``, holds containers that nothing else holds; each is set to its new decoder
    /// when handed out.) Read on the hot paths with `_withUnsafeGuaranteedRef` (a read of an unretained reference
    /// as a `TapeDecoder` is a retain and a release).
    private(set) var unretainedDecoder: Unmanaged<TapeDecoder>
    var decoder: TapeDecoder { unretainedDecoder.takeUnretainedValue() }
    /// The decoder, held by a container that may outlive the root value being decoded: one made outside a root
    /// value's decoding, or one still held elsewhere when the root value is done (``TapeKeyedContainerMaker/
    /// reclaim()``, which then lets the pool forget it). `nil` while the pool may hand the container out again.
    var keeper: TapeDecoder?
    /// The object's token, or -1 (absent: every key is missing).
    var object: Int
    var node: CodingPathNode
    /// The mapping of the type whose `init(from:)` made the container.
    var mapping: ModelRules?
    /// `nil` while the value that made the container runs strictly.
    var rescue: ContainerRescue?
    /// Whether a key is found by its own bytes: no mapping, and a key strategy that converts no key (the
    /// decoder's ``TapeDecoder/member(named:in:)``, else its ``TapeDecoder/lookUp(_:in:mapping:path:)``).
    private(set) var keysAreLiteral: Bool
    /// The key type's names, kept by its maker.
    let names: KeyNames
    /// Whether ``unretainedDecoder`` and ``keysAreLiteral`` are the current decoder's: `false` once the pool has
    /// passed on to another decoder (whose memory may be where the last one's was, so its address tells nothing).
    private var bound = true

    init(
        _ decoder: TapeDecoder, _ object: Int, _ node: CodingPathNode, _ mapping: ModelRules?,
        _ rescue: ContainerRescue?, names: KeyNames, keeper: TapeDecoder?
    ) {
        self.names = names
        unretainedDecoder = .passUnretained(decoder)
        self.keeper = keeper
        self.object = object
        self.node = node
        self.mapping = mapping
        self.rescue = rescue
        keysAreLiteral = mapping == nil && decoder.context.keysAreLiteral
    }

    /// Sets the state of a pooled container handed out again by `decoder`. Mapping and rescue are mostly `nil`: the
    /// references are written only when one is not.
    @inline(__always)
    func set(
        _ decoder: TapeDecoder, _ object: Int, _ node: CodingPathNode, _ mapping: ModelRules?,
        _ rescue: ContainerRescue?
    ) {
        self.object = object
        self.node = node
        if !bound || mapping != nil || self.mapping != nil {
            bound = true
            unretainedDecoder = .passUnretained(decoder)
            self.mapping = mapping
            keysAreLiteral = mapping == nil && decoder.context.keysAreLiteral
        }
        if rescue != nil || self.rescue != nil { self.rescue = rescue }
    }

    /// Marks the state of a pooled container as no decoder's: its pool passes on to another decoder.
    func unbind() { bound = false }

    /// Lets go of the mapping and rescue state of a pooled container nothing else holds, when its root value is
    /// done.
    @inline(__always)
    func clear() {
        if mapping != nil { mapping = nil }
        if rescue != nil { rescue = nil }
    }
}

/// A keyed container type over a ``TapeKeyedState`` (``TapeKeyedContainerMaker``).
protocol TapeKeyedContainerMaking: KeyedDecodingContainerProtocol {
    init(_ state: TapeKeyedState)
}

/// What a decoder asks of its makers when a root value is done, and when it passes them on to another decoder,
/// whatever their key type.
protocol KeyedContainerReclaiming: AnyObject {
    func reclaim()
    func unbind()
}

/// The containers a maker keeps for use again (the decoder's ``TapeKeyedContainerMaker``, the encoder's
/// ``TreeKeyedContainerMaker``), with their states, in memory of their own: allocated by `init`, freed by
/// ``deallocate()`` (the maker's `deinit`); the first `count` of each are initialized. A state is held by its
/// container's box; the pool's reference is unretained (reading it costs no retain and release).
///
/// It holds at most ``limit`` containers: as many as are open at once, one inside another, with one key type (a type
/// that contains itself); past that, containers are made and not kept. `capacity` is 0 when this toolchain's
/// container is not as ``KeyedContainerBox`` expects: nothing is kept.
struct ContainerPool<Wrapped, State: AnyObject> {
    let containers: UnsafeMutablePointer<Wrapped>
    let states: UnsafeMutablePointer<Unmanaged<State>>
    var count = 0
    let capacity: Int
    static var limit: Int { 16 }

    init(understood: Bool) {
        capacity = understood ? Self.limit : 0
        containers = .allocate(capacity: Self.limit)
        states = .allocate(capacity: Self.limit)
    }

    func deallocate() {
        containers.deinitialize(count: count)
        containers.deallocate()
        states.deallocate()
    }

    /// The last kept container that nothing but the pool holds and whose state `accepts` (the likeliest free:
    /// containers nest, and the inner ones end first).
    @inline(__always)
    func free(accepting accepts: (State) -> Bool) -> Int? {
        var index = count
        while index > 0 {
            index &-= 1
            if states[index]._withUnsafeGuaranteedRef(accepts),
                KeyedContainerBox.isHeldOnlyAt(UnsafeMutableRawPointer(containers + index))
            {
                return index
            }
        }
        return nil
    }

    /// Keeps `container`, whose state is `state`, when there is room.
    mutating func keep(_ container: Wrapped, _ state: State) {
        guard count < capacity else { return }
        (containers + count).initialize(to: container)
        (states + count).initialize(to: .passUnretained(state))
        count += 1
    }
}

/// Makes the `KeyedDecodingContainer`s of a keyed container type, and keeps them for use again (``ContainerPool``);
/// the decoder keeps one maker per key type (``KeyedContainerMakers``).
///
/// `Wrapped` is `KeyedDecodingContainer<Container.Key>`, named as a parameter of its own: code generic over the key
/// type would ask the runtime for that type's metadata (a cache look-up) to copy one, where the maker's methods read
/// it from the maker's own class, as they read `Container`. For the same reason its methods are not inlined.
final class TapeKeyedContainerMaker<Container: TapeKeyedContainerMaking, Wrapped>: KeyedContainerReclaiming {
    private var pool = ContainerPool<Wrapped, TapeKeyedState>(understood: KeyedContainerBox.isUnderstood)
    private let names: KeyNames

    init() {
        precondition(Wrapped.self == KeyedDecodingContainer<Container.Key>.self, "TapeKeyedContainerMaker: Wrapped")
        names = KeyNames(byByte: ByteKey.fits(Container.Key.self))
    }

    deinit { pool.deallocate() }

    /// A container of `decoder`'s over the object at `object` (see ``TapeKeyedState``): a kept one that nothing
    /// else holds, set again, when `pooled` (the decoder is decoding a root value, and will call ``reclaim()`` when
    /// it is done); else a new one.
    func wrapped(
        _ decoder: TapeDecoder, _ object: Int, _ node: CodingPathNode, _ mapping: ModelRules?,
        _ rescue: ContainerRescue?, pooled: Bool
    ) -> Wrapped {
        if pooled {
            // A copy of the pool's handles: reading the property once, not around each call below.
            let pool = self.pool
            if let index = pool.free(accepting: { _ in true }) {
                pool.states[index]._withUnsafeGuaranteedRef { $0.set(decoder, object, node, mapping, rescue) }
                return pool.containers[index]
            }
            if pool.count < pool.capacity {
                return _slowpath_pooled(
                    TapeKeyedState(decoder, object, node, mapping, rescue, names: names, keeper: nil))
            }
        }
        return Self.wrap(TapeKeyedState(decoder, object, node, mapping, rescue, names: names, keeper: decoder))
    }

    private static func wrap(_ state: TapeKeyedState) -> Wrapped {
        unsafeBitCast(KeyedDecodingContainer(Container(state)), to: Wrapped.self)
    }

    @inline(never)
    private func _slowpath_pooled(_ state: TapeKeyedState) -> Wrapped {
        let container = Self.wrap(state)
        pool.keep(container, state)
        return container
    }

    /// The makers pass on to another decoder: every pooled container is set to it when handed out.
    func unbind() {
        for index in 0..<pool.count { pool.states[index]._withUnsafeGuaranteedRef { $0.unbind() } }
    }

    /// The root value is done: a kept container still held elsewhere (a value's `init(from:)` kept it) holds its
    /// decoder from now on and is forgotten by the pool; the others stay for the next root value.
    func reclaim() {
        let (containers, states) = (pool.containers, pool.states)
        var kept = 0
        for index in 0..<pool.count {
            if KeyedContainerBox.isHeldOnlyAt(UnsafeMutableRawPointer(containers + index)) {
                states[index]._withUnsafeGuaranteedRef { $0.clear() }
                if kept != index {
                    (containers + kept).moveInitialize(from: containers + index, count: 1)
                    (states + kept).moveInitialize(from: states + index, count: 1)
                }
                kept += 1
            } else {
                states[index]._withUnsafeGuaranteedRef { $0.keeper = $0.decoder }
                (containers + index).deinitialize(count: 1)
                (states + index).deinitialize(count: 1)
            }
        }
        pool.count = kept
    }
}

/// Whether a `KeyedDecodingContainer` or a `KeyedEncodingContainer` is held anywhere but in one place: the standard
/// library's container is a struct whose one stored property is a reference to its box, and the box is unique when
/// only that place holds it.
///
/// Unsafe: ``isHeldOnlyAt(_:)`` reads a container's memory as that reference. ``isUnderstood`` and
/// ``encodingIsUnderstood`` check, once each, by reflection on a container `JSONDecoder` or `JSONEncoder` made, that
/// the container is exactly one reference, the one `Mirror` reports as its only property; when it is not, nothing is
/// pooled.
enum KeyedContainerBox {
    static let isUnderstood: Bool = {
        guard let probe = try? JSONDecoder().decode(Probe.self, from: Data("{}".utf8)) else { return false }
        return isOneReference(probe.container)
    }()

    /// The same check for `KeyedEncodingContainer`, on a container `JSONEncoder` made (the encoder's pool,
    /// ``TreeKeyedContainerMaker``).
    static let encodingIsUnderstood: Bool = {
        let probe = EncodingProbe()
        guard (try? JSONEncoder().encode(probe)) != nil, let container = probe.container else { return false }
        return isOneReference(container)
    }()

    /// Whether `container` is exactly one reference, the one `Mirror` reports as its only property.
    private static func isOneReference<Container>(_ container: Container) -> Bool {
        guard MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size,
            MemoryLayout<Container>.alignment == MemoryLayout<AnyObject>.alignment
        else { return false }
        let children = Array(Mirror(reflecting: container).children)
        guard children.count == 1, type(of: children[0].value) is AnyObject.Type else { return false }
        let reflected = children[0].value as AnyObject
        let stored = withUnsafeBytes(of: container) { $0.load(as: AnyObject.self) }
        return reflected === stored
    }

    /// Whether only the `KeyedDecodingContainer` (or `KeyedEncodingContainer`) at `container` holds its box.
    /// Precondition: ``isUnderstood`` (``encodingIsUnderstood``), and `container` points to an initialized
    /// container of that type.
    ///
    /// The box's reference is read as one to ``Referent``, a class of this module's: the check reads only the
    /// object's reference count (every class is a native Swift class on Linux). Read as `AnyObject`, an unoptimized
    /// build in Swift 6 mode copies the reference before checking it, and the answer is never yes.
    @inline(__always)
    static func isHeldOnlyAt(_ container: UnsafeMutableRawPointer) -> Bool {
        isKnownUniquelyReferenced(&container.assumingMemoryBound(to: Referent.self).pointee)
    }

    /// See ``isHeldOnlyAt(_:)``; never made.
    final class Referent {
        private init() {}
    }

    private struct ProbeKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct Probe: Decodable {
        let container: KeyedDecodingContainer<ProbeKey>
        init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: ProbeKey.self) }
    }

    /// Keeps the container `JSONEncoder` hands it.
    private final class EncodingProbe: Encodable {
        var container: KeyedEncodingContainer<ProbeKey>?
        func encode(to encoder: any Encoder) throws { container = encoder.container(keyedBy: ProbeKey.self) }
    }
}

/// The UTF-8 bytes of a key type's string values, found by the key's one byte, so that a look-up need not ask each
/// key for its `stringValue` and read that `String`'s bytes at every member.
///
/// Only for key types of at most one byte that hold no references (``ByteKey``): an enum without payloads, whose
/// values are its cases, or a struct of one byte. A key's `stringValue` is taken to be a function of its value: the
/// first one asked for each byte is kept for the maker's life (one decode).
final class KeyNames {
    /// Whether the key type is one of those above; when not, nothing is kept.
    let byByte: Bool
    /// For each byte, where its name is in `arena` (high half) and its length plus one (low half); 0 until asked.
    /// Allocated (256 slots) when the first name is kept, with the arena; both freed by `deinit`.
    private var slots: UnsafeMutablePointer<UInt64>?
    private var arena: UnsafeMutableRawPointer?
    private var arenaCount = 0
    private var arenaCapacity = 0

    init(byByte: Bool) { self.byByte = byByte }

    deinit {
        free(slots)
        free(arena)
    }

    /// The name kept for the keys whose byte is `byte`, or `nil`; valid until the next name is kept.
    @inline(__always)
    func name(ofByte byte: UInt8) -> UnsafeRawBufferPointer? {
        guard let slots, let arena else { return nil }
        let slot = slots[Int(byte)]
        guard slot != 0 else { return nil }
        let start = Int(truncatingIfNeeded: slot >> 32)
        let count = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) &- 1
        assert(start >= 0 && count >= 0 && start + count <= arenaCount, "KeyNames: name out of range")
        return UnsafeRawBufferPointer(start: arena + start, count: count)
    }

    /// Keeps `name` for the keys whose byte is `byte`, and hands back its kept bytes (as ``name(ofByte:)``).
    @inline(never)
    func keep(_ name: String, forByte byte: UInt8) -> UnsafeRawBufferPointer? {
        var name = name
        name.withUTF8 { keep(UnsafeRawBufferPointer($0), forByte: byte) }
        return self.name(ofByte: byte)
    }

    @inline(never)
    private func keep(_ bytes: UnsafeRawBufferPointer, forByte byte: UInt8) {
        if slots == nil {
            guard let raw = calloc(256, MemoryLayout<UInt64>.stride) else { fatalError("KeyNames: out of memory") }
            slots = raw.bindMemory(to: UInt64.self, capacity: 256)
        }
        guard bytes.count < Int(UInt32.max), arenaCount + bytes.count < Int(UInt32.max) else { return }
        if arenaCount + bytes.count > arenaCapacity {
            let capacity = max(256, (arenaCount + bytes.count) * 2)
            guard let raw = realloc(arena, capacity) else { fatalError("KeyNames: out of memory") }
            arena = raw
            arenaCapacity = capacity
        }
        if let source = bytes.baseAddress, bytes.count > 0 {
            (arena! + arenaCount).copyMemory(from: source, byteCount: bytes.count)
        }
        slots![Int(byte)] = UInt64(arenaCount) << 32 | UInt64(bytes.count + 1)
        arenaCount += bytes.count
    }
}
