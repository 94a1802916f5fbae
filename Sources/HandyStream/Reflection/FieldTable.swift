/// The decoding table of one model type: its properties (offset and codec) and a hash index from JSON key bytes to
/// property, built once per type and then only read, from any thread.
///
///     key bytes ──hash──▶ buckets[h & mask] ──▶ entry (hash, key bytes, slot) ──▶ slots[slot]: offset, codec
///
/// Keys are compared as bytes against the table's own UTF-8 copies: no `String` is made for a key.
final class FieldTable: @unchecked Sendable {
    struct Slot {
        /// The property's name as users wrote it.
        let name: String
        /// The JSON key it is read from.
        let key: String
        let offset: Int
        /// The property type's codec, called without reference counting: codecs live as long as the process.
        let codecReference: Unmanaged<ValueCodec>
        var codec: ValueCodec { codecReference.takeUnretainedValue() }

        init(name: String, key: String, offset: Int, codec: ValueCodec) {
            self.name = name
            self.key = key
            self.offset = offset
            self.codecReference = .passUnretained(codec)
        }
    }

    private struct Entry {
        var hash: UInt64
        var keyStart: Int
        var keyLength: Int
        var slot: Int
    }

    let modelName: String
    let isClass: Bool
    let slots: [Slot]
    private let slotBuffer: UnsafeMutableBufferPointer<Slot>
    private let entries: UnsafeMutableBufferPointer<Entry>
    private let keyBytes: UnsafeMutableBufferPointer<UInt8>
    /// Entry index + 1 per bucket; 0 is empty.
    private let buckets: UnsafeMutableBufferPointer<Int32>
    private let mask: Int
    private let slotCount: Int

    init(modelName: String, isClass: Bool, slots: [Slot]) {
        self.modelName = modelName
        self.isClass = isClass
        self.slots = slots
        slotCount = slots.count
        slotBuffer = .allocate(capacity: slots.count)
        _ = slotBuffer.initialize(from: slots)
        let allKeys = slots.enumerated().map { (index, slot) in (Array(slot.key.utf8), index) }
        entries = .allocate(capacity: allKeys.count)
        keyBytes = .allocate(capacity: max(1, allKeys.reduce(0) { $0 + $1.0.count }))
        var capacity = 8
        while capacity < allKeys.count * 2 { capacity *= 2 }
        buckets = .allocate(capacity: capacity)
        buckets.initialize(repeating: 0)
        mask = capacity - 1
        var cursor = 0
        for (number, (bytes, slot)) in allKeys.enumerated() {
            _ = UnsafeMutableBufferPointer(rebasing: keyBytes[cursor..<cursor + bytes.count]).initialize(from: bytes)
            let hash = bytes.withUnsafeBytes { Self.hash($0) }
            entries.baseAddress!.advanced(by: number).initialize(
                to: Entry(hash: hash, keyStart: cursor, keyLength: bytes.count, slot: slot))
            cursor += bytes.count
            var bucket = Int(truncatingIfNeeded: hash) & mask
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(number + 1)
        }
    }

    deinit {
        slotBuffer.deinitialize().deallocate()
        entries.deallocate()
        keyBytes.deallocate()
        buckets.deallocate()
    }

    @inline(__always)
    func slot(_ index: Int) -> UnsafeMutablePointer<Slot> { slotBuffer.baseAddress! + index }

    /// The slot whose key is `key`, or -1. The slot `predicted` is tried first, with one length and byte comparison,
    /// before the key is hashed.
    @inline(__always)
    func slotIndex(forKey key: UnsafeRawBufferPointer, predicted: Int) -> Int {
        if predicted < slotCount {
            let entry = entries[predicted]
            if entry.slot == predicted && entry.keyLength == key.count
                && Self.equal(keyBytes.baseAddress! + entry.keyStart, key)
            {
                return predicted
            }
        }
        return slotIndex(forKey: key)
    }

    /// The slot whose key is `key`, or -1.
    @inline(__always)
    func slotIndex(forKey key: UnsafeRawBufferPointer) -> Int {
        let hash = Self.hash(key)
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while true {
            let number = Int(buckets[bucket])
            if number == 0 { return -1 }
            let entry = entries[number - 1]
            if entry.hash == hash && entry.keyLength == key.count
                && Self.equal(keyBytes.baseAddress! + entry.keyStart, key)
            {
                return entry.slot
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// Compares a stored key with `key`, whose length is already known to be the same, eight bytes at a time.
    @inline(__always)
    private static func equal(_ stored: UnsafePointer<UInt8>, _ key: UnsafeRawBufferPointer) -> Bool {
        guard let base = key.baseAddress else { return true }
        let stored = UnsafeRawPointer(stored)
        var offset = 0
        while offset + 8 <= key.count {
            if stored.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        while offset < key.count {
            if stored.load(fromByteOffset: offset, as: UInt8.self) != base.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset += 1
        }
        return true
    }

    /// Mixes the key eight bytes at a time (a multiply-xorshift per word, as in SplitMix), the tail byte by byte.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = bytes.baseAddress else { return hash }
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }
}
