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
        unowned(unsafe) let codec: ValueCodec
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

    init(modelName: String, isClass: Bool, slots: [Slot]) {
        self.modelName = modelName
        self.isClass = isClass
        self.slots = slots
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
                && (key.count == 0 || memcmp(keyBytes.baseAddress! + entry.keyStart, key.baseAddress!, key.count) == 0)
            {
                return entry.slot
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// FNV-1a over the key's bytes.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

#if canImport(Glibc)
import func Glibc.memcmp
#elseif canImport(Darwin)
import func Darwin.memcmp
#endif
