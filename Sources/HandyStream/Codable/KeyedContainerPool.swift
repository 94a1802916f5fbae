import Foundation

// Keyed containers used again: `KeyedDecodingContainer.init` allocates a standard-library box per container and looks
// up its metadata on every call. A pooled container is handed out again once only the pool holds its box; what
// changes is read from a ``TapeKeyedState``.

/// What a keyed container reads; a pooled container's state is set again when it is handed out again.
final class TapeKeyedState {
    /// The decoder that made the container, or handed it out last. Unretained, so that the pool its decoder owns
    /// holds no cycle; a container that may outlive the root value holds the decoder in ``keeper``.
    private(set) var unretainedDecoder: Unmanaged<TapeDecoder>
    var decoder: TapeDecoder { unretainedDecoder.takeUnretainedValue() }
    /// Set for a container that may outlive the root value (made outside one, or still held at its
    /// ``TapeKeyedContainerMaker/reclaim()``); `nil` while the pool may hand the container out again.
    var keeper: TapeDecoder?
    /// The object's token, or -1 (absent: every key is missing).
    var object: Int
    var node: CodingPathNode
    var mapping: ModelRules?
    /// `nil` while the value that made the container runs strictly.
    var rescue: ContainerRescue?
    /// No mapping and no key conversion: keys are found by ``TapeDecoder/member(named:in:)``, else by
    /// ``TapeDecoder/lookUp(_:in:mapping:path:)``.
    private(set) var keysAreLiteral: Bool
    let names: KeyNames
    /// `false` once the pool passed on to another decoder, whose address may equal the last one's.
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

    /// Mapping and rescue are mostly `nil`: their references are written only when one is not.
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

    func unbind() { bound = false }

    @inline(__always)
    func clear() {
        if mapping != nil { mapping = nil }
        if rescue != nil { rescue = nil }
    }
}

protocol TapeKeyedContainerMaking: KeyedDecodingContainerProtocol {
    init(_ state: TapeKeyedState)
}

/// A maker whatever its key type: told when a root value is done (`reclaim`) and when passed on (`unbind`).
protocol KeyedContainerReclaiming: AnyObject {
    func reclaim()
    func unbind()
}

/// A maker's kept containers and states, in manual memory (``deallocate()``), the first `count` initialized; a state
/// is held by its container's box, so unretained here. At most ``limit`` (nested containers of one key type), past
/// which containers are not kept; `capacity` is 0 when ``KeyedContainerBox`` does not apply.
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

    /// The last free container whose state `accepts`: containers nest, so the inner ones end first.
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

    mutating func keep(_ container: Wrapped, _ state: State) {
        guard count < capacity else { return }
        (containers + count).initialize(to: container)
        (states + count).initialize(to: .passUnretained(state))
        count += 1
    }
}

/// Makes and reuses a key type's `KeyedDecodingContainer`s (``ContainerPool``).
///
/// `Wrapped` is `KeyedDecodingContainer<Container.Key>` as a parameter of its own, so that its metadata is read from
/// the maker's class, not looked up by code generic over the key; for that reason too its methods are not inlined.
final class TapeKeyedContainerMaker<Container: TapeKeyedContainerMaking, Wrapped>: KeyedContainerReclaiming {
    private var pool = ContainerPool<Wrapped, TapeKeyedState>(understood: KeyedContainerBox.isUnderstood)
    private let names: KeyNames

    init() {
        precondition(Wrapped.self == KeyedDecodingContainer<Container.Key>.self, "TapeKeyedContainerMaker: Wrapped")
        names = KeyNames(byByte: ByteKey.fits(Container.Key.self))
    }

    deinit { pool.deallocate() }

    /// A free kept container when `pooled` (during a root value, which ends with ``reclaim()``), else a new one.
    func wrapped(
        _ decoder: TapeDecoder, _ object: Int, _ node: CodingPathNode, _ mapping: ModelRules?,
        _ rescue: ContainerRescue?, pooled: Bool
    ) -> Wrapped {
        if pooled {
            // Read the property once, not around each call below.
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

    func unbind() {
        for index in 0..<pool.count { pool.states[index]._withUnsafeGuaranteedRef { $0.unbind() } }
    }

    /// A container still held elsewhere (a value's `init(from:)` kept it) now holds its decoder and leaves the pool.
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

/// Whether a standard-library keyed container, a struct of one reference to its box, is held in one place only.
/// Unsafe: ``isHeldOnlyAt(_:)`` reads a container's memory as that reference. ``isUnderstood`` and
/// ``encodingIsUnderstood`` check that layout once, on containers Foundation made; if it differs, nothing is pooled.
enum KeyedContainerBox {
    static let isUnderstood: Bool = {
        guard let probe = try? JSONDecoder().decode(Probe.self, from: Data("{}".utf8)) else { return false }
        return isOneReference(probe.container)
    }()

    /// The same check for `KeyedEncodingContainer`.
    static let encodingIsUnderstood: Bool = {
        let probe = EncodingProbe()
        guard (try? JSONEncoder().encode(probe)) != nil, let container = probe.container else { return false }
        return isOneReference(container)
    }()

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

    /// Precondition: ``isUnderstood`` (``encodingIsUnderstood``), and `container` points to an initialized container
    /// of that type. The box is read as a ``Referent``, only its reference count (every class is native on Linux):
    /// as `AnyObject`, an unoptimized Swift 6 build copies the reference first, and the answer is never yes.
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

    private final class EncodingProbe: Encodable {
        var container: KeyedEncodingContainer<ProbeKey>?
        func encode(to encoder: any Encoder) throws { container = encoder.container(keyedBy: ProbeKey.self) }
    }
}

/// A ``ByteKey`` type's names by byte, so that a look-up need not read each key's `stringValue`, taken to be a
/// function of the byte: the first one asked for is kept for the maker's life, which spans decodes.
final class KeyNames {
    /// When `false` (not a ``ByteKey``), nothing is kept.
    let byByte: Bool
    /// 256 slots: the name's offset in `arena` (high half) and its length plus one (low half); 0 until kept.
    private var slots: UnsafeMutablePointer<UInt64>?
    @exclusivity(unchecked) private var arena = OutputBytes(capacity: 0)

    init(byByte: Bool) { self.byByte = byByte }

    deinit {
        free(slots)
        arena.deallocate()
    }

    /// The name kept for the keys whose byte is `byte`, or `nil`; valid until the next name is kept.
    @inline(__always)
    func name(ofByte byte: UInt8) -> UnsafeRawBufferPointer? {
        guard let slots else { return nil }
        let slot = slots[Int(byte)]
        guard slot != 0 else { return nil }
        let start = Int(truncatingIfNeeded: slot >> 32)
        let count = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) &- 1
        assert(start >= 0 && count >= 0 && start + count <= arena.count, "KeyNames: name out of range")
        return UnsafeRawBufferPointer(start: arena.base + start, count: count)
    }

    /// Keeps `name` for `byte` and hands back its kept bytes (as ``name(ofByte:)``).
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
        guard bytes.count < Int(UInt32.max), arena.count + bytes.count < Int(UInt32.max) else { return }
        slots![Int(byte)] = UInt64(arena.count) << 32 | UInt64(bytes.count + 1)
        arena.append(contentsOf: bytes)
    }
}
