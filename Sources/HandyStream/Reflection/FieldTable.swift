/// The decoding table of one model type: its properties (offset and codec) and a hash index from key bytes to property,
/// built once per type, then only read, from any thread. Keys are compared as bytes with the table's own UTF-8 copies:
/// no `String` is made for a key.
///
///     key bytes ──hash──▶ buckets[h & mask] ──▶ entry (hash, key bytes, slot) ──▶ slots[slot]: offset, codec
final class FieldTable: @unchecked Sendable {
    struct Slot {
        let name: String
        var key: String
        let offset: Int
        /// Called without reference counting: codecs are never freed.
        let codecReference: Unmanaged<ValueCodec>
        var codec: ValueCodec { codecReference.takeUnretainedValue() }
        /// The codec's ``ValueCodec/scalarKind``, beside the offset: the frame stores such values itself.
        let scalarKind: ScalarKind

        /// Whether the property is written under ``key`` at this level (its preferred key or key path leads here).
        var writes: Bool
        /// Whether ``key`` comes from an explicit mapping (a key strategy then leaves it as it is).
        var isMapped: Bool
        /// For a property with candidate keys, its index in the frame's record of the best candidate seen; else -1.
        var candidate: Int

        init(
            name: String, key: String, offset: Int, codec: ValueCodec, writes: Bool = true, isMapped: Bool = false,
            candidate: Int = -1
        ) {
            self.name = name
            self.key = key
            self.offset = offset
            self.codecReference = .passUnretained(codec)
            scalarKind = codec.scalarKind
            self.writes = writes
            self.isMapped = isMapped
            self.candidate = candidate
        }
    }

    /// One key a slot is read from. A slot has one key, or several candidates ranked by `priority` (0 is preferred):
    /// the rank in the property's whole list of keys, whatever level each key is on.
    struct Key {
        var bytes: [UInt8]
        var slot: Int
        var priority: Int
    }

    private struct Entry {
        var hash: UInt64
        /// A key under eight bytes as one word (``ShortBytes/word(_:count:ordered:)``), for one comparison; 0 for
        /// longer keys.
        var shortWord: UInt64 = 0
        var keyStart: Int
        /// -1 for the placeholder of a slot that has no key of its own at this level (read through a path).
        var keyLength: Int
        /// ``slotIndex(forKey:predicted:)``'s answer: the slot, with its priority and candidate flag packed above.
        var packed: Int
    }

    /// A lookup's answer for a key of a candidate slot: the slot in the low 32 bits, the priority above, and
    /// ``candidateFlag``. Any other answer is the slot itself (or -1), so it can be used as an index directly.
    static let priorityShift = 32
    static let candidateFlag = 1 << 62
    static let slotMask = (1 << 32) - 1
    /// Limits that keep every answer unambiguous; a declaration beyond them is refused when the table is built.
    static let maximumSlots = 1 << 31
    static let maximumPriority = 1 << 29

    let modelName: String
    let isClass: Bool
    let slots: [Slot]
    /// How many properties have candidate keys (a nested key path's table carries its model's count).
    let candidateCount: Int
    /// Keys are compared ignoring ASCII case (the `.caseInsensitive` key strategy); stored keys are lowercase.
    let caseInsensitive: Bool
    private let slotBuffer: UnsafeMutableBufferPointer<Slot>
    /// Entry `i < slots.count` is slot `i`'s preferred key (or a placeholder), found unhashed; candidate keys follow.
    private let entries: UnsafeMutableBufferPointer<Entry>
    private let keyBytes: UnsafeMutableBufferPointer<UInt8>
    /// Entry index + 1 per bucket; 0 is empty.
    private let buckets: UnsafeMutableBufferPointer<Int32>
    /// Bit `n` set when some key is `n` bytes long (bit 63: 63 or more): a key of another length is unknown, unhashed.
    private let keyLengths: UInt64
    private let mask: Int
    private let slotCount: Int
    /// The slots written, in declaration order and sorted by key (immutable, as long-lived as the table).
    private let writeOrder: UnsafeMutableBufferPointer<Int>
    private let sortedWriteOrder: UnsafeMutableBufferPointer<Int>
    /// Each slot's key as JSON text, quoted and escaped (`"name"`), written as it is when no key strategy applies.
    private let quotedKeys: [[UInt8]]

    /// - Precondition: every key's slot is an index of `slots`, every slot's candidate below `candidateCount`; fewer
    ///   than ``maximumSlots`` slots and priorities below ``maximumPriority`` (checked before a table is built).
    init(
        modelName: String, isClass: Bool, slots: [Slot], keys: [Key], candidateCount: Int = 0,
        caseInsensitive: Bool = false
    ) {
        precondition(slots.count < Self.maximumSlots, "\(modelName): too many properties")
        for key in keys {
            precondition(slots.indices.contains(key.slot), "\(modelName): a key names no slot")
            precondition(key.priority >= 0 && key.priority < Self.maximumPriority, "\(modelName): too many keys")
        }
        for slot in slots { precondition(slot.candidate < candidateCount, "\(modelName): a candidate out of range") }
        self.modelName = modelName
        self.isClass = isClass
        self.slots = slots
        self.caseInsensitive = caseInsensitive
        self.candidateCount = candidateCount
        slotCount = slots.count
        let order = slots.indices.filter { slots[$0].writes }
        writeOrder = .allocate(capacity: order.count)
        _ = writeOrder.initialize(from: order)
        sortedWriteOrder = .allocate(capacity: order.count)
        _ = sortedWriteOrder.initialize(from: order.sorted { slots[$0].key < slots[$1].key })
        quotedKeys = slots.map { slot in
            var writer = JSONWriter(options: EncodingOptions())
            writer.string(slot.key)
            return writer.bytes
        }
        slotBuffer = .allocate(capacity: max(1, slots.count))
        _ = slotBuffer.initialize(from: slots)
        // Entry `i < slots.count` is slot `i`'s best-ranked key at this level; the others follow.
        var ordered: [Key?] = Array(repeating: nil, count: slots.count)
        var others: [Key] = []
        for key in keys {
            if let current = ordered[key.slot], current.priority <= key.priority {
                others.append(key)
            } else {
                if let current = ordered[key.slot] { others.append(current) }
                ordered[key.slot] = key
            }
        }
        ordered += others.map(Optional.some)
        entries = .allocate(capacity: max(1, ordered.count))
        keyBytes = .allocate(capacity: max(1, keys.reduce(0) { $0 + $1.bytes.count }))
        var capacity = 8
        while capacity < ordered.count * 2 { capacity *= 2 }
        buckets = .allocate(capacity: capacity)
        buckets.initialize(repeating: 0)
        mask = capacity - 1
        var cursor = 0
        var lengths: UInt64 = 0
        for (number, key) in ordered.enumerated() {
            guard var key else {
                entries.baseAddress!.advanced(by: number).initialize(
                    to: Entry(hash: 0, keyStart: 0, keyLength: -1, packed: number))
                continue
            }
            if caseInsensitive { key.bytes = key.bytes.map(ASCII.lowercased) }
            _ = UnsafeMutableBufferPointer(rebasing: keyBytes[cursor..<cursor + key.bytes.count])
                .initialize(from: key.bytes)
            let hash = key.bytes.withUnsafeBytes { Self.hash($0) }
            let packed =
                slots[key.slot].candidate < 0
                ? key.slot : key.slot | (key.priority << Self.priorityShift) | Self.candidateFlag
            let shortWord =
                key.bytes.count < 8
                ? key.bytes.withUnsafeBytes { ShortBytes.word($0.baseAddress!, count: $0.count) } : 0
            entries.baseAddress!.advanced(by: number).initialize(
                to: Entry(
                    hash: hash, shortWord: shortWord, keyStart: cursor, keyLength: key.bytes.count, packed: packed))
            cursor += key.bytes.count
            lengths |= Self.lengthBit(key.bytes.count)
            var bucket = Int(truncatingIfNeeded: hash) & mask
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(number + 1)
        }
        keyLengths = lengths
    }

    @inline(__always)
    private static func lengthBit(_ count: Int) -> UInt64 { 1 &<< UInt64(min(count, 63)) }

    deinit {
        slotBuffer.deinitialize().deallocate()
        entries.deallocate()
        keyBytes.deallocate()
        buckets.deallocate()
        writeOrder.deallocate()
        sortedWriteOrder.deallocate()
    }

    /// The slot at `index`: an answer of ``slotIndex(forKey:predicted:)`` that is not -1 and has no candidate flag.
    @inline(__always)
    func slot(_ index: Int) -> UnsafeMutablePointer<Slot> {
        assert(index >= 0 && index < slotCount, "FieldTable.slot: index \(index) out of 0..<\(slotCount)")
        return slotBuffer.baseAddress! + index
    }

    /// The slot whose key is `key`, or -1; for a candidate key, packed with its priority and ``candidateFlag``. The
    /// slot `predicted` is tried first, with one length and byte comparison, before the key is hashed.
    @inline(__always)
    func slotIndex(forKey key: UnsafeRawBufferPointer, predicted: Int) -> Int {
        if caseInsensitive { return _slowpath_caseInsensitiveLookup(key) }
        if predicted < slotCount {
            let entry = entries[predicted]
            if entry.keyLength == key.count {
                let count = key.count
                if count < 8 {
                    if count == 0 || ShortBytes.word(key.baseAddress!, count: count) == entry.shortWord {
                        return entry.packed
                    }
                } else if Self.equal(storedKey(entry), key) {
                    return entry.packed
                }
            }
        }
        return _slowpath_hashedLookup(key)
    }

    /// A key that is not the one predicted: hashed out of line, so that the predicted key's path keeps few registers.
    @inline(never)
    private func _slowpath_hashedLookup(_ key: UnsafeRawBufferPointer) -> Int { slotIndex(forKey: key) }

    @inline(never)
    private func _slowpath_caseInsensitiveLookup(_ key: UnsafeRawBufferPointer) -> Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: key.count) { lowered in
            for index in 0..<key.count { lowered[index] = ASCII.lowercased(key[index]) }
            return slotIndex(forKey: UnsafeRawBufferPointer(lowered))
        }
    }

    /// The slot whose key is `key`, or -1 (packed as ``slotIndex(forKey:predicted:)`` packs it).
    @inline(__always)
    func slotIndex(forKey key: UnsafeRawBufferPointer) -> Int {
        if keyLengths & Self.lengthBit(key.count) == 0 { return -1 }
        let hash = Self.hash(key)
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while true {
            let number = Int(buckets[bucket])
            if number == 0 { return -1 }
            let entry = entries[number - 1]
            if entry.hash == hash && entry.keyLength == key.count
                && Self.equal(storedKey(entry), key)
            {
                return entry.packed
            }
            bucket = (bucket + 1) & mask
        }
    }

    @inline(__always)
    private func storedKey(_ entry: Entry) -> UnsafePointer<UInt8> {
        assert(entry.keyStart >= 0 && entry.keyStart + max(entry.keyLength, 0) <= keyBytes.count)
        return UnsafePointer(keyBytes.baseAddress! + entry.keyStart)
    }

    /// Compares a stored key with `key`, whose length is already known to be the same.
    @inline(__always)
    private static func equal(_ stored: UnsafePointer<UInt8>, _ key: UnsafeRawBufferPointer) -> Bool {
        guard let base = key.baseAddress else { return true }
        return ShortBytes.equal(UnsafeRawPointer(stored), base, count: key.count)
    }

    // MARK: - Writing

    /// The slots written, in declaration order or sorted by key: valid as long as the table, never freed while in use.
    func writeOrder(sorted: Bool) -> UnsafeBufferPointer<Int> {
        UnsafeBufferPointer(sorted ? sortedWriteOrder : writeOrder)
    }

    func quotedKey(_ index: Int) -> [UInt8] { quotedKeys[index] }

    /// Mixes the key eight bytes at a time (a multiply-xorshift per word, as in SplitMix); what is left, in one word:
    /// the key's last eight bytes (overlapping the words before), or under eight bytes
    /// ``ShortBytes/word(_:count:ordered:)``.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = bytes.baseAddress else { return hash }
        var offset = 0
        while offset &+ 8 <= count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            offset &+= 8
        }
        if offset < count {
            let tail =
                count >= 8
                ? base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) : ShortBytes.word(base, count: count)
            hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        } else {
            hash = hash &* 0x94D0_49BB_1331_11EB
        }
        return hash ^ (hash >> 31)
    }
}
